/**
 * Questions of the language differential (test/live/builtin-differential.test.ts): every error
 * format in the content language, English, German, French, Ukrainian, Arabic, Japanese, Chinese,
 * `qqx` and codes MediaWiki reads specially (a deprecated code, an unshipped one, an invalid one),
 * as `uselang` and as `errorlang`; warnings with numbers and lists; block durations; summaries with
 * section and red links; `responselanginfo`; and the HTML page a person reads.
 */
const B = 'action=query&format=json';
const FORMATS = ['bc', 'plaintext', 'wikitext', 'html', 'raw', 'none'] as const;
const LANGS = ['de', 'fr', 'uk', 'ar', 'ja', 'zh-hans', 'he', 'qqx', 'en', 'content', 'De', 'als', 'xx-bogus', 'a%2Fb', 'qqq', ''] as const;

/** An error and a warning of each kind wikitape prints, in one request. */
const WARN = `${B}&list=blocks&bklimit=5000&bkprop=id|bogus|x&foo=1&bar=2`;
const ERROR = `${B}&list=logevents&ledir=sideways`;

export const LANGUAGE_QUESTIONS: readonly string[] = [
  ...FORMATS.flatMap((f) => LANGS.map((l) => `${ERROR}&errorformat=${f}&uselang=${l}&responselanginfo=1`)),
  ...['plaintext', 'html'].flatMap((f) => ['de', 'ar', 'qqx', 'uk', 'ja'].map((l) => `${WARN}&errorformat=${f}&uselang=${l}&formatversion=2`)),
  ...['de', 'qqx', 'content', 'fr'].map((l) => `${ERROR}&errorformat=plaintext&errorlang=${l}&uselang=ar&responselanginfo=1`),
  ...['de', 'ar', 'qqx', 'ja', 'zh-hans'].map((l) => `${B}&list=logevents&letype=block&uselang=${l}&formatversion=2`),
  ...['de', 'ar', 'qqx', 'he'].map((l) => `action=parse&format=json&formatversion=2&prop=&summary=/* Раздел */ [[Несуществующая]] [[Alpha]]x&uselang=${l}`),
  ...['de', 'qqx', 'uk'].map((l) => `${B}&list=logevents&lelimit=abc&uselang=${l}&errorformat=wikitext&formatversion=2`),
  // the HTML page (no format): its texts, tables, lang and dir in the user language
  ...['ar', 'qqx', 'de', 'he', 'ja', 'en-rtl', 'xx-bogus', 'zh-hans'].map((l) => `action=query&list=blocks&bklimit=1&bkprop=id&uselang=${l}`),
  'action=query&list=blocks&bklimit=1&bkprop=id|bogus&errorformat=html&uselang=ar',
];
