import { describe, expect, it } from 'vitest';
import { isSecretHeader, isSecretParam, redactJson, redactQuery, redactUrl, SECRET } from '../../../src/util/secrets.js';

describe('what is secret', () => {
  it.each(['lgpassword', 'password', 'retype', 'token', 'lgtoken', 'logintoken', 'createtoken', 'csrftoken', 'wltoken', 'OATHToken', 'oauth_signature', 'oauth_token', 'oauth_consumer_key', 'botpassword', 'newpassword', 'lgpassword[]', 'lgpassword[a]', 'lgpassword\0x', 'lg%70assword', 'LGPASSWORD'])('parameter %j', (name) => {
    expect(isSecretParam(name)).toBe(true);
  });
  it.each(['action', 'list', 'lgname', 'username', 'type', 'meta', 'tokens', 'titles', 'continue', 'lecontinue', 'loginreturnurl', 'rememberMe', 'uiprop'])('not parameter %j', (name) => {
    expect(isSecretParam(name)).toBe(false);
  });
  it('headers: cookies and credentials', () => {
    for (const h of ['Cookie', 'set-cookie', 'Authorization', 'Proxy-Authorization']) expect(isSecretHeader(h)).toBe(true);
    for (const h of ['User-Agent', 'Content-Type', 'Accept']) expect(isSecretHeader(h)).toBe(false);
  });
});

describe('redaction', () => {
  it('replaces the values of secret parameters in a query string, however they are encoded, and leaves the rest as written', () => {
    expect(redactQuery('action=login&lgname=Admin&lgpassword=SuperSecret123&lgtoken=abc%2B%5C')).toBe(`action=login&lgname=Admin&lgpassword=${SECRET}&lgtoken=${SECRET}`);
    expect(redactQuery('lg%70assword=x&lg+password=y&a=%ZZ&token')).toBe(`lg%70assword=${SECRET}&lg+password=${SECRET}&a=%ZZ&token=${SECRET}`);
    expect(redactQuery('action=query&list=blocks')).toBe('action=query&list=blocks');
    expect(redactUrl('/w/api.php?action=query&meta=tokens&token=T')).toBe(`/w/api.php?action=query&meta=tokens&token=${SECRET}`);
    expect(redactUrl('/w/api.php')).toBe('/w/api.php');
  });

  it('replaces tokens handed out in answers, keeping order and everything else', () => {
    const answer = { batchcomplete: true, query: { tokens: { csrftoken: 'd41d8cd98f00b204e9800998ecf8427e+\\', logintoken: '0123456789abcdef+\\', patroltoken: '+\\' }, userinfo: { options: { watchlisttoken: 'a1b2c3d4e5f6a7b8c9d0', language: 'ru' } } }, paraminfo: { needstoken: 'csrf' } };
    const out = redactJson(answer);
    expect(out).toEqual({ batchcomplete: true, query: { tokens: { csrftoken: SECRET, logintoken: SECRET, patroltoken: '+\\' }, userinfo: { options: { watchlisttoken: SECRET, language: 'ru' } } }, paraminfo: { needstoken: 'csrf' } });
    expect(answer.query.tokens.csrftoken).toMatch(/\+\\$/); // the argument is left alone
    const plain = { query: { logevents: [{ logid: 1 }] } };
    expect(redactJson(plain)).toBe(plain);
  });

  it('keeps a module named like a token: paraminfo lists each submodule by its name or path', () => {
    const plain = { paraminfo: { modules: [{ submodules: { action: { checktoken: 'checktoken', centralauthtoken: 'centralauthtoken' }, meta: { oathtoken: 'query+oathtoken' } } }] } };
    expect(redactJson(plain)).toBe(plain);
  });
});
