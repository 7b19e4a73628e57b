import { describe, expect, it } from 'vitest';
import { api, builtin, data } from '../support/app.js';

/**
 * Errors, warnings and the HTML page in the user language, for every language MediaWiki ships
 * (not only ru and en), qqx, and the codes MediaWiki reads specially. Expected bodies are the
 * live MediaWiki 1.39.17's answers to the same requests (content language ru, server :8088).
 */

const LIST = 'https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/';
const API = 'http://127.0.0.1:8088/wiki/api.php';

const BADVALUE: Record<string, [string, string]> = {
  de: [
    'Nicht erkannter Wert für den Parameter „ledir“: up.',
    `Siehe ${API} zur Verwendung der API. Abonniere die Mailingliste „mediawiki-api-announce“ auf &lt;${LIST}&gt; zum Feststellen von API-Veralterungen und „Breaking Changes“.`,
  ],
  fr: [
    'Valeur non reconnue pour le paramètre «\u00a0ledir\u00a0»\u00a0: up.',
    `Voir ${API} concernant l’utilisation de l’API. Abonnez-vous à la liste de diffusion <var>mediawiki-api-announce</var> sur &lt;${LIST}&gt; pour être averti des obsolescences dans l’API ou de modifications en rupture.`,
  ],
  uk: [
    'Нерозпізнане значення для параметра «ledir»: up.',
    `Див. ${API} щодо використання API. Щоб взнавати про заплановані і остаточні критичні зміни API, підпишіться на розсилку mediawiki-api-announce тут: &lt;${LIST}&gt;.`,
  ],
  ar: [
    'قيمة غير معروفة للمعامل " ledir ": up .',
    `راجع ${API} لاستخدام API. اشترك في القائمة البريدية لإعلان api ميدياويكي في &lt;${LIST}&gt ; للحصول على إشعار بإيقاف API وإيقاف التغييرات.`,
  ],
  qqx: ['(paramvalidator-badvalue-enumnotmulti: ledir, up, newer(and)(word-separator)older, 2)', `(api-usage-docref: ${API}) (api-usage-mailinglist-ref)`],
};

describe('errors in the user language', () => {
  it.each(Object.entries(BADVALUE))('uselang=%s: the error and the docref in that language, as MediaWiki 1.39 prints them', async (code, [text, docref]) => {
    const res = await api({ action: 'query', list: 'logevents', ledir: 'up', errorformat: 'plaintext', uselang: code, responselanginfo: '1' });
    expect(res.headers['mediawiki-api-error']).toBe('badvalue');
    expect(res.headers['x-wikitape-unknown']).toBeUndefined();
    expect(data(res)).toEqual({ errors: [{ code: 'badvalue', module: 'query+logevents', '*': text }], uselang: code, errorlang: code, '*': docref });
  });

  it('errorlang chooses the errors\' language apart from uselang; the BC format stays English', async () => {
    const qqx = data(await api({ action: 'query', list: 'logevents', ledir: 'up', errorformat: 'plaintext', errorlang: 'qqx', uselang: 'ar', responselanginfo: '1' }));
    expect(qqx).toMatchObject({ errors: [{ '*': BADVALUE['qqx']![0] }], uselang: 'ar', errorlang: 'qqx' });
    const bc = data(await api({ action: 'query', list: 'logevents', ledir: 'up', uselang: 'de' })) as { error: { info: string } };
    expect(bc.error.info).toBe('Unrecognized value for parameter "ledir": up.');
  });

  it.each([
    ['De', 'de'],
    ['a/b', 'ru'],
    ['qqq', 'ru'],
    ['', 'ru'],
    ['als', 'gsw'],
    ['xx-bogus', 'xx-bogus'],
  ])('uselang=%j is reported as %j (sanitized, deprecated codes replaced)', async (uselang, code) => {
    const body = data(await api({ action: 'query', meta: 'siteinfo', uselang, responselanginfo: '1' }));
    expect([body['uselang'], body['errorlang']]).toEqual([code, 'en']);
  });
});

describe('warnings in the user language (errorformat=html)', () => {
  const q = { action: 'query', list: 'logevents', lelimit: '600', leprop: 'ids|bogus', foo: '1', formatversion: '2', errorformat: 'html' };
  it.each([
    [
      'de',
      ['Nicht erkannter Wert für den Parameter „leprop“: bogus', 'Der Wert „600“ für den Parameter „lelimit“ muss zwischen 1 und 500 liegen.', 'Unrecognized parameter: foo.'],
    ],
    ['ar', ['غير معروف القيم للمعلمة " leprop ": bogus', 'يجب أن تتراوح قيمة " 600 " للمعلمة " lelimit " بين ١ ٥٠٠ .', 'وسائط غير معترف بها: foo.']],
    ['qqx', ['(paramvalidator-unrecognizedvalues: leprop, ids|bogus, bogus, 1)', '(paramvalidator-outofrange-minmax: lelimit, 600, 1, 500)', '(apierror-unrecognizedparams: foo, 1)']],
  ])('uselang=%s: numbers in the language\'s digits, lists with its separators, its fallback where it has no text', async (uselang, texts) => {
    const body = data(await api({ ...q, uselang })) as { warnings: Array<{ html: string }> };
    expect(body.warnings.map((w) => w.html)).toEqual(texts);
  });
});

describe('the HTML page in the user language', () => {
  it('prints lang, dir, the texts and the RTL body class of an RTL language', async () => {
    const res = await builtin().get('/wiki/api.php').query({ action: 'query', meta: 'siteinfo', uselang: 'ar' });
    expect(res.text).toContain('<html class="client-nojs" lang="ar" dir="rtl">');
    expect(res.text).toContain('<title>ناتج API ميدياويكي - Тестовая вики</title>');
    expect(res.text).toContain('<body class="mediawiki rtl sitedir-ltr ');
    expect(res.text).toContain('"wgDigitTransformTable":["0\\t1\\t2\\t3\\t4\\t5\\t6\\t7\\t8\\t9","٠\\t١\\t٢\\t٣\\t٤\\t٥\\t٦\\t٧\\t٨\\t٩"]');
    expect(res.headers['x-wikitape-unknown']).toBeUndefined();
  });

  it('flags a text wikitape cannot render in that language (dsb\'s footer needs GRAMMAR) instead of printing it wrong silently', async () => {
    const res = await builtin().get('/wiki/api.php').query({ action: 'query', meta: 'siteinfo', uselang: 'dsb' });
    expect(res.headers['x-wikitape-unknown']).toBe('i18n.dsb');
    const json = await builtin().get('/wiki/api.php').query({ action: 'query', meta: 'siteinfo', uselang: 'dsb', format: 'json' });
    expect(json.headers['x-wikitape-unknown']).toBeUndefined();
  });
});

describe('the uselang cache-mode downgrade (ApiMain::setCacheMode), one rule for all answers', () => {
  // A request with a session cookie: anon-public-user-private is private for it, public is not.
  const q = { action: 'query', list: 'protectedtitles', ptlimit: '1', format: 'json', maxage: '60', smaxage: '60' };
  const cookie = 'wikidb_session=abcdefabcdefabcdefabcdefabcdefab';

  it('a public module without uselang answers a session privately; with uselang it is public (and the new session cookie makes it private, max-age 0), as the live wiki', async () => {
    const plain = await builtin().get('/wiki/api.php').set('Cookie', cookie).query(q);
    expect(plain.headers['cache-control']).toBe('private, must-revalidate, max-age=60');
    const de = await builtin().get('/wiki/api.php').set('Cookie', cookie).query({ ...q, uselang: 'de' });
    expect([de.headers['cache-control'], de.headers['expires']]).toEqual(['private, max-age=0, s-maxage=0', 'Thu, 01 Jan 1970 00:00:00 GMT']);
    const user = await builtin().get('/wiki/api.php').set('Cookie', cookie).query({ ...q, uselang: 'user' });
    expect(user.headers['cache-control']).toBe('private, must-revalidate, max-age=60');
  });
});
