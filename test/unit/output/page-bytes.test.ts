import { describe, expect, it } from 'vitest';
import { frozenJson, withFrozenMembers } from '../../../src/api/frozen.js';
import { encodeJson, encodeJsonChunks, encodeJsonTail, encodeJsonTailChunks, type JsonOptions } from '../../../src/output/json.js';
import { escapePreText, prettyPageChunks, wrappedPageChunks } from '../../../src/output/html-page.js';
import { escapePreBytes, textBytes } from '../../../src/output/text-bytes.js';
import { makeProfile } from '../../../src/wiki/profile.js';
import { lang as L } from '../../support/lang.js';

// The HTML page and long texts are written as byte chunks made in one pass (text-bytes.ts), not
// as whole-answer strings; these tests hold the chunks to the text the string printer gives.

/** Every kind of character the escapes treat apart: non-ASCII, astral, lone surrogates, U+2028/9, HTML and JSON specials, controls, DEL. */
const SPECIALS = 'Ая б & <i> > "q" \\ / \u2028 \u2029 😀 \ud800 x \udc00 \t \n \r \u0001 \u007f é ß 0.00001 1e-7 12345678901234567890';

/** A debuginfo-like value with long texts (a summary of 20,000 links three times over), frozen members and numbers PHP prints its own way. */
function bigInfo(): Record<string, unknown> {
  const summary = Array.from({ length: 20_000 }, (_, i) => `[[Ая${i}|б & <b>]] ${i % 100 === 0 ? SPECIALS : ''}`).join('');
  return withFrozenMembers({
    mwVersion: '1.43.9',
    time: 1e-7,
    big: 2 ** 64,
    debugLog: ['\n\nStart request POST /wiki/api.php', `[rdbms] LinkBatch::doQuery: SELECT ${summary}`],
    queries: [{ sql: `localhost: SELECT ${summary}`, function: 'LinkBatch::doQuery', time: 0.001 }],
    request: { method: 'POST', url: '/wiki/api.php', headers: { HOST: 'wiki.test' }, params: { action: 'parse', summary } },
    empty: { list: [], map: {} },
    includes: frozenJson([{ name: '/usr/share/mediawiki/api.php & <x>', size: '4 КБ' }]),
  });
}

const BODY = { warnings: { result: { '*': 'This result was truncated & <cut>.' } }, query: { pages: [{ title: 'Заглавная 😀 \u2028' }] } };
const FORMATS: JsonOptions[] = [
  { ascii: true, pretty: true },
  { ascii: false, pretty: true },
  { ascii: true, pretty: false },
  { ascii: false, pretty: false, hexTagAmp: true },
];

describe('byte output of big answers', () => {
  it('gives the string printer bytes, and the page <pre> its escaped text, for a big answer with every special character', () => {
    const info = bigInfo();
    for (const opts of FORMATS) {
      const whole = encodeJsonTail(encodeJson(BODY, opts), 'debuginfo', info, opts);
      expect(whole.length).toBeGreaterThan(1_000_000);
      for (const body of [encodeJson(BODY, opts), Buffer.from(encodeJson(BODY, opts))]) {
        expect(Buffer.concat(encodeJsonTailChunks(body, 'debuginfo', info, opts)).equals(Buffer.from(whole))).toBe(true);
        expect(Buffer.concat(encodeJsonTailChunks(body, 'debuginfo', info, opts, true)).equals(Buffer.from(escapePreText(whole)))).toBe(true);
      }
      expect(Buffer.concat(encodeJsonChunks({ ...BODY, debuginfo: info }, opts)).equals(Buffer.from(encodeJson({ ...BODY, debuginfo: info }, opts)))).toBe(true);
    }
  });

  it('writes the page around the chunks as the page around the whole text, toolbar data included', () => {
    const profile = makeProfile({ version: '1.43.9', server: 'http://wiki.test', debugInfo: true });
    const info = bigInfo();
    const opts = { ascii: true, pretty: true };
    const json = encodeJsonTail(encodeJson(BODY, opts), 'debuginfo', info, opts);
    const page = { profile, userLang: L('ru', profile.version), requestUrl: '/wiki/api.php?action=parse', method: 'GET', formatName: 'json', requestId: 'f'.repeat(24), debugInfo: info };
    const chunked = Buffer.concat(prettyPageChunks({ ...page, json: { pre: encodeJsonTailChunks(encodeJson(BODY, opts), 'debuginfo', info, opts, true) } }));
    const fromText = Buffer.concat(prettyPageChunks({ ...page, json }));
    expect(chunked.equals(fromText)).toBe(true);
    const text = chunked.toString('utf8');
    expect(text).toContain(`<pre class="api-pretty-content">${escapePreText(json)}</pre>`);
    const shown = { ...info, log: [{ msg: 'MWDebug output complete', type: 'log', caller: 'MediaWiki\\Debug\\MWDebug::getDebugHTML' }] };
    expect(text).toContain(`mw.config.set(${encodeJson({ debugInfo: shown }, { ascii: false, pretty: false, hexTagAmp: true })});`);
  });

  it('writes the wrapped page (wrappedhtml) around the chunks as around the whole text', () => {
    const info = bigInfo();
    for (const opts of FORMATS.slice(0, 2)) {
      const json = encodeJsonTail(encodeJson(BODY, opts), 'debuginfo', info, opts);
      const continuation = { lecontinue: '20240101000000|5 & <x> "q"', continue: '-||' };
      const chunked = Buffer.concat(wrappedPageChunks({ status: 0, pre: encodeJsonTailChunks(encodeJson(BODY, opts), 'debuginfo', info, opts, true), continuation, elapsedMs: 12.4 }));
      const whole = encodeJson({ status: 200, statustext: 'OK', html: `<pre class="api-pretty-content">${escapePreText(json)}</pre>`, modules: ['mediawiki.apipretty'], continue: continuation, time: 12 }, { ascii: false, pretty: false });
      expect(chunked.toString('utf8')).toBe(whole);
    }
  });

  it('escapes in one pass as the string escapes do, one after the other', () => {
    const s = `{\n    "a": "${SPECIALS}"\n}`;
    const cases: Array<[Parameters<typeof textBytes>[1], string]> = [
      [{}, s],
      [{ pre: true }, escapePreText(s)],
      [{ indent: 2, pre: true }, escapePreText(s.replace(/\n/g, '\n        '))],
      [{ ascii: true }, s.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)],
      [{ lineSeparators: true, hexTagAmp: true }, s.replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`).replace(/[<>&]/g, (c) => `\\u00${c.charCodeAt(0).toString(16).toUpperCase()}`)],
    ];
    for (const [o, want] of cases) expect(textBytes(s, o).equals(Buffer.from(want))).toBe(true);
    const clean = Buffer.from('{"a": "Ая"}');
    expect(escapePreBytes(clean)).toBe(clean); // nothing to escape: the same (shared) buffer
    expect(escapePreBytes(Buffer.from('a & <b> é')).toString()).toBe('a &amp; &lt;b> é');
  });
});
