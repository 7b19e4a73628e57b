// l10n/languages.json: every language MediaWiki 1.39 and 1.43 ship, as php/l10n.php reads them
// from each wiki's own Language and LocalisationCache. One language per line, so that replay
// parses only the languages it meets (src/i18n/language-data.ts).
//
// A language's entry holds its 1.39 record and, under "1.43", what differs in 1.43 (a field, or a
// message: null when gone); a language 1.39 does not ship has its whole 1.43 record there.
// `messages` holds what a language says itself (MessageCache's source check), and also any text
// the fallback chain would otherwise give wrongly (checked for every language and key), so that
// the chain reproduces each wiki's LocalisationCache exactly.
import { execFileSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';

const WIKIS = {
  '1.39': { MW_CONFIG_FILE: `${process.env.WIKITAPE_LIVE_DIR ?? '/tmp/wikitape-live'}/LocalSettings.php` },
  '1.43': { MW_INSTALL_PATH: '/tmp/wikitape-mw143/mediawiki', MW_CONFIG_FILE: '/tmp/wikitape-live143/LocalSettings.php' },
};

function php(version, inputs) {
  const out = execFileSync('php', ['scripts/generate/php/l10n.php'], { input: JSON.stringify(inputs), env: { ...process.env, ...WIKIS[version] }, maxBuffer: 256 << 20, encoding: 'utf8' });
  return JSON.parse(out.slice(out.indexOf('{')));
}

/** PHP lists the digit table ['0' => …, '9' => …] as an array: made an object again. */
const table = (t) => (Array.isArray(t) ? Object.fromEntries(t.map((v, i) => [String(i), v])) : t);

/** The text the runtime finds: the language's own, else the first of its chain that has one. */
function resolve(stored, code, key) {
  for (const c of [code, ...(stored[code]?.fallback ?? [])]) {
    const m = stored[c]?.messages;
    if (m && key in m) return m[key];
  }
  return undefined;
}

/** One wiki's records: own texts kept, plus every text the chain would not give as the wiki does. */
function records(raw) {
  const stored = {};
  for (const [code, r] of Object.entries(raw)) {
    if (code.startsWith('_')) continue;
    const { merged: _merged, ...rest } = r;
    stored[code] = { ...rest, digits: table(r.digits), messages: { ...r.messages } };
  }
  for (const [code, r] of Object.entries(raw)) {
    if (code.startsWith('_')) continue;
    for (const [key, text] of Object.entries(r.merged)) {
      if (resolve(stored, code, key) !== text) stored[code].messages[key] = text;
    }
  }
  for (const code of Object.keys(stored)) {
    for (const key of Object.keys(raw[code].merged ?? {})) {
      if (resolve(stored, code, key) !== raw[code].merged[key]) throw new Error(`l10n: ${code} ${key} does not resolve`);
    }
  }
  return stored;
}

/** What `b` changes of `a`: whole fields, and messages one by one (null: gone). */
function diff(a, b) {
  const out = {};
  for (const k of Object.keys(b)) {
    if (k === 'messages') continue;
    if (!isDeepStrictEqual(a[k], b[k])) out[k] = b[k];
  }
  const m = {};
  for (const key of new Set([...Object.keys(a.messages), ...Object.keys(b.messages)])) {
    if (a.messages[key] !== b.messages[key]) m[key] = b.messages[key] ?? null;
  }
  if (Object.keys(m).length > 0) out.messages = m;
  return out;
}

/** The data of languages.json for the inputs (message keys, special pages) it names. */
export function l10nData(old) {
  const inputs = { keys: old.keys, specialPages: old.specialPages };
  const raw39 = php('1.39', inputs);
  const raw43 = php('1.43', inputs);
  const [r39, r43] = [records(raw39), records(raw43)];
  const languages = {};
  for (const code of [...new Set([...Object.keys(r39), ...Object.keys(r43)])].sort()) {
    const a = r39[code] ?? null;
    const b = r43[code] ?? null;
    languages[code] = { '1.39': a, '1.43': a && b ? diff(a, b) : b };
  }
  const both = (name) => ({ '1.39': raw39[name], '1.43': raw43[name] });
  return { keys: old.keys, specialPages: old.specialPages, icuDefault: both('_icu-default'), codeMapping: both('_code-mapping'), languages };
}

/** The file's layout: the inputs first, then one language per line. */
export function l10nLayout(v) {
  const head = ['keys', 'specialPages', 'icuDefault', 'codeMapping'].map((k) => `${JSON.stringify(k)}: ${JSON.stringify(v[k])}`);
  const langs = Object.entries(v.languages).map(([c, r]) => `${JSON.stringify(c)}: ${JSON.stringify(r)}`);
  return `{\n${head.join(',\n')},\n"languages": {\n${langs.join(',\n')}\n}\n}\n`;
}
