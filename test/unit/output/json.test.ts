import { describe, expect, it } from 'vitest';
import {
  encodeJson,
  encodeJsonBytes,
  encodeJsonTail,
  encodeJsonTailBytes,
  jsonpCallbackName,
  phpFloat,
  jsonpEnds,
} from '../../../src/output/json.js';
import { frozenJson, withFrozenMembers } from '../../../src/api/frozen.js';

const UTF8 = { ascii: false, pretty: false };
const ASCII = { ascii: true, pretty: false };

describe('encodeJson: PHP 8.2 json_encode as ApiFormatJson uses it', () => {
  it('numbers as php -r json_encode prints them (serialize_precision -1)', () => {
    // php -r 'echo json_encode([0.5, 1.0, 1e-7, 0.0001, 1e-5, 0.00012345, 1e16, 1.5e20, 0.1+0.2, 2.5e-5, -1.5e-7, 5e-5, 100.0, 1e19]);'
    const values = [0.5, 1.0, 1e-7, 0.0001, 1e-5, 0.00012345, 1e16, 1.5e20, 0.1 + 0.2, 2.5e-5, -1.5e-7, 5e-5, 100.0, 1e19];
    expect(encodeJson(values, UTF8)).toBe(
      '[0.5,1,1.0e-7,0.0001,1.0e-5,0.00012345,10000000000000000,1.5e+20,0.30000000000000004,2.5e-5,-1.5e-7,5.0e-5,100,1.0e+19]',
    );
    // (float)PHP_INT_MAX prints as 9.223372036854776e+18; JS prints 9223372036854776000
    expect(encodeJson({ n: 2 ** 63 }, UTF8)).toBe('{"n":9.223372036854776e+18}');
    // ints up to int64 stay ints
    expect(encodeJson([1e18, 123456789012], UTF8)).toBe('[1000000000000000000,123456789012]');
    expect(phpFloat(1e-7)).toBe('1.0e-7');
    expect(phpFloat(1.2345678901234568e17)).toBe('1.2345678901234568e+17');
    // debuginfo times: shortest round-trip digits, like the real wiki's "time": 0.039576053619384766
    expect(encodeJson({ time: 0.039576053619384766 }, UTF8)).toBe('{"time":0.039576053619384766}');
  });

  it('numbers inside strings are left alone', () => {
    expect(encodeJson({ s: '1e-7 and 0.00001 and 12345678901234567890', n: 1e-7 }, UTF8)).toBe(
      '{"s":"1e-7 and 0.00001 and 12345678901234567890","n":1.0e-7}',
    );
  });

  it('string escaping matches PHP (slashes, <>&, controls, DEL, U+2028/9, astral)', () => {
    const s = 'a/b<>&\x7f\x01\x0b\x1f\u2028\u2029é😀"\\\t\n\r\b\f';
    // php -r 'echo json_encode($s, JSON_UNESCAPED_SLASHES|JSON_UNESCAPED_UNICODE);'
    expect(encodeJson(s, UTF8)).toBe('"a/b<>&\x7f\\u0001\\u000b\\u001f\\u2028\\u2029é😀\\"\\\\\\t\\n\\r\\b\\f"');
    // php -r 'echo json_encode($s, JSON_UNESCAPED_SLASHES);'
    expect(encodeJson('a/b<>&\x7f\x01\x0b\x1f\u2028\u2029é😀\uffff', ASCII)).toBe(
      '"a/b<>&\x7f\\u0001\\u000b\\u001f\\u2028\\u2029\\u00e9\\ud83d\\ude00\\uffff"',
    );
  });

  it('escapes every non-ASCII unit of a long mixed text, in runs and alone, at the start and the end', () => {
    const pieces = ['Москва', 'a', ' / ', 'é', '😀', '\uffff', 'x'.repeat(300), 'ü\u2028', '', '"q"'];
    const parts = Array.from({ length: 2000 }, (_, i) => pieces[(i * 7) % pieces.length]!);
    const text = ['Ж', ...parts, 'ß'].join('');
    const escaped = JSON.stringify(text).replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(encodeJson(text, ASCII)).toBe(escaped);
  });

  it('JSON_HEX_TAG|JSON_HEX_AMP for inline scripts', () => {
    // php: json_encode(["a"=>"<&>é"], JSON_UNESCAPED_SLASHES|JSON_UNESCAPED_UNICODE|JSON_HEX_TAG|JSON_HEX_AMP)
    expect(encodeJson({ a: '<&>é' }, { ascii: false, pretty: false, hexTagAmp: true })).toBe('{"a":"\\u003C\\u0026\\u003Eé"}');
  });

  it('pretty = JSON_PRETTY_PRINT', () => {
    // php -r 'echo json_encode(["a"=>[], "b"=>new stdClass, "c"=>[1,[2,[]]], "d"=>["x"=>1]], JSON_PRETTY_PRINT|JSON_UNESCAPED_SLASHES|JSON_UNESCAPED_UNICODE);'
    expect(encodeJson({ a: [], b: {}, c: [1, [2, []]], d: { x: 1 } }, { ascii: false, pretty: true })).toBe(
      '{\n    "a": [],\n    "b": {},\n    "c": [\n        1,\n        [\n            2,\n            []\n        ]\n    ],\n    "d": {\n        "x": 1\n    }\n}',
    );
  });

  // Real answers of MediaWiki 1.39.17 (action=query&list=protectedtitles&ptlimit=2), debuginfo cut off.
  const data = (fv2: boolean) => ({
    batchcomplete: fv2 ? true : '',
    continue: { ptcontinue: '20261122113511|12|Закрыто', continue: '-||' },
    query: {
      protectedtitles: [
        { ns: 6, title: 'Файл:Запрещено.png', timestamp: '2026-11-22T11:35:12Z', level: 'sysop' },
        { ns: 0, title: 'Мгновенная защита', timestamp: '2026-11-22T11:35:12Z', level: 'sysop' },
      ],
    },
  });

  it('reproduces real format=json answers (fv1 escaped, fv1 utf8, fv2, fv2 ascii)', () => {
    const fv1 =
      '{"batchcomplete":"","continue":{"ptcontinue":"20261122113511|12|\\u0417\\u0430\\u043a\\u0440\\u044b\\u0442\\u043e","continue":"-||"},"query":{"protectedtitles":[{"ns":6,"title":"\\u0424\\u0430\\u0439\\u043b:\\u0417\\u0430\\u043f\\u0440\\u0435\\u0449\\u0435\\u043d\\u043e.png","timestamp":"2026-11-22T11:35:12Z","level":"sysop"},{"ns":0,"title":"\\u041c\\u0433\\u043d\\u043e\\u0432\\u0435\\u043d\\u043d\\u0430\\u044f \\u0437\\u0430\\u0449\\u0438\\u0442\\u0430","timestamp":"2026-11-22T11:35:12Z","level":"sysop"}]}}';
    const fv1utf8 =
      '{"batchcomplete":"","continue":{"ptcontinue":"20261122113511|12|Закрыто","continue":"-||"},"query":{"protectedtitles":[{"ns":6,"title":"Файл:Запрещено.png","timestamp":"2026-11-22T11:35:12Z","level":"sysop"},{"ns":0,"title":"Мгновенная защита","timestamp":"2026-11-22T11:35:12Z","level":"sysop"}]}}';
    const fv2 = fv1utf8.replace('"batchcomplete":""', '"batchcomplete":true');
    const fv2ascii = fv1.replace('"batchcomplete":""', '"batchcomplete":true');
    expect(encodeJson(data(false), ASCII)).toBe(fv1);
    expect(encodeJson(data(false), UTF8)).toBe(fv1utf8);
    expect(encodeJson(data(true), UTF8)).toBe(fv2);
    expect(encodeJson(data(true), ASCII)).toBe(fv2ascii);
  });

  it('reproduces the real jsonfm (formatversion=2) text', () => {
    expect(encodeJson(data(true), { ascii: false, pretty: true })).toBe(
      [
        '{',
        '    "batchcomplete": true,',
        '    "continue": {',
        '        "ptcontinue": "20261122113511|12|Закрыто",',
        '        "continue": "-||"',
        '    },',
        '    "query": {',
        '        "protectedtitles": [',
        '            {',
        '                "ns": 6,',
        '                "title": "Файл:Запрещено.png",',
        '                "timestamp": "2026-11-22T11:35:12Z",',
        '                "level": "sysop"',
        '            },',
        '            {',
        '                "ns": 0,',
        '                "title": "Мгновенная защита",',
        '                "timestamp": "2026-11-22T11:35:12Z",',
        '                "level": "sysop"',
        '            }',
        '        ]',
        '    }',
        '}',
      ].join('\n'),
    );
  });

  it('frozen fragments and the debuginfo tail give the same text as a whole encode', () => {
    const includes = frozenJson([
      { name: '/usr/share/mediawiki/api.php', size: '4 КБ' },
      { name: '/usr/share/mediawiki/includes/WebStart.php', size: '4 КБ' },
    ]);
    const info = withFrozenMembers({ mwVersion: '1.39.17', time: 1e-5, log: [], includes });
    const plainInfo = JSON.parse(JSON.stringify(info)) as unknown;
    const body = { batchcomplete: '', query: { logevents: [{ title: 'Заглавная страница', params: {} }] } };
    for (const opts of [ASCII, UTF8, { ascii: false, pretty: true }, { ascii: true, pretty: true }]) {
      const whole = encodeJson({ ...body, debuginfo: plainInfo }, opts);
      expect(encodeJson({ ...body, debuginfo: info }, opts)).toBe(whole);
      expect(encodeJson({ ...body, debuginfo: info }, opts)).toBe(whole); // cached fragment
      expect(encodeJsonTail(encodeJson(body, opts), 'debuginfo', info, opts)).toBe(whole);
      expect(encodeJsonTailBytes(Buffer.from(encodeJson(body, opts)), 'debuginfo', info, opts).toString('utf8')).toBe(whole);
      expect(encodeJsonBytes({ ...body, debuginfo: info }, opts).toString('utf8')).toBe(whole);
    }
    expect(encodeJsonTail('{}', 'debuginfo', { a: 1 }, UTF8)).toBe('{"debuginfo":{"a":1}}');
    expect(encodeJsonTail('{}', 'debuginfo', { a: 1 }, { ascii: false, pretty: true })).toBe('{\n    "debuginfo": {\n        "a": 1\n    }\n}');
  });
});

describe("a list's rows as frozen fragments", () => {
  const rows = () => [
    { logid: 2, title: 'Москва', params: { cascade: false, details: [{ type: 'edit', expiry: 'infinite' }] }, time: 1e-5 },
    { logid: 1, title: 'Tab\there', params: {}, tags: [] },
  ];

  it('give the text a whole encode gives, in every printing variant, the first time and from the cache', () => {
    const frozenRows = withFrozenMembers(rows().map((r) => frozenJson(r)));
    const plain = { batchcomplete: '', continue: { lecontinue: '20240101|1', continue: '-||' }, query: { logevents: rows() } };
    const marked = { batchcomplete: '', continue: plain.continue, query: withFrozenMembers({ logevents: frozenRows }) };
    for (const opts of [ASCII, UTF8, { ascii: false, pretty: true }, { ascii: true, pretty: true }, { ascii: false, pretty: true, indent: 2 }]) {
      const whole = encodeJson(plain, opts);
      expect(encodeJson(marked, opts)).toBe(whole);
      expect(encodeJson(marked, opts)).toBe(whole);
      expect(encodeJsonBytes(marked, opts).toString('utf8')).toBe(whole);
    }
  });

  it('print an empty list and what JSON cannot hold as JSON.stringify does', () => {
    expect(encodeJson({ query: withFrozenMembers({ list: withFrozenMembers([]) }) }, UTF8)).toBe('{"query":{"list":[]}}');
    expect(encodeJson({ query: withFrozenMembers({ list: withFrozenMembers([frozenJson({ a: 1 }), undefined, 2]) }) }, { ascii: false, pretty: true })).toBe(
      encodeJson({ query: { list: [{ a: 1 }, null, 2] } }, { ascii: false, pretty: true }),
    );
  });
});

describe('JSONP', () => {
  it('filters the callback as ApiFormatJson does', () => {
    // real: callback=foo<bar>.x[0]'"é-$(1) → /**/foobar.x[0]'"1({...})
    expect(jsonpCallbackName('foo<bar>.x[0]\'"é-$(1)')).toBe('foobar.x[0]\'"1');
    expect(jsonpCallbackName('jQuery123_456')).toBe('jQuery123_456');
    expect(jsonpEnds('foobar.x[0]\'"1').join('{"a":1}')).toBe('/**/foobar.x[0]\'"1({"a":1})');
  });
});
