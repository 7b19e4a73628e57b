import type { Lang } from './profile.js';

/**
 * The few interface texts titles, links and summaries need, as `wfMessage(...)->text()` gives them
 * (languages/i18n/{en,ru}.json, the same in 1.39 and 1.43+). MessageCache::get turns `&#32;` into
 * a space, so `colon-separator` is `: `. Keys ru does not define fall back to en.
 */
const EN: Readonly<Record<string, string>> = {
  'red-link-title': '$1 (page does not exist)',
  'colon-separator': ': ',
  'autocomment-prefix': '',
  newsectionsummary: '/* $1 */ new section',
  'title-invalid': 'The requested page title is invalid',
  'title-invalid-characters': 'The requested page title contains invalid characters: "$1".',
  'title-invalid-empty': 'The requested page title is empty or contains only the name of a namespace.',
  'title-invalid-interwiki': 'The requested page title contains an interwiki link which cannot be used in titles.',
  'title-invalid-leading-colon': 'The requested page title contains an invalid colon at the beginning.',
  'title-invalid-magic-tilde': 'The requested page title contains invalid magic tilde sequence (<nowiki>~~~</nowiki>).',
  'title-invalid-relative':
    "Title has relative path. Relative page titles (./, ../) are invalid, because they will often be unreachable when handled by user's browser.",
  'title-invalid-talk-namespace': 'The requested page title refers to a talk page that cannot exist.',
  'title-invalid-too-long': 'The requested page title is too long. It must be no longer than $1 {{PLURAL:$1|byte|bytes}} in UTF-8 encoding.',
  'title-invalid-utf8': 'The requested page title contains an invalid UTF-8 sequence.',
};

const RU: Readonly<Record<string, string>> = {
  'red-link-title': '$1 (страница не существует)',
  newsectionsummary: '/* $1 */ новая тема',
  'title-invalid': 'Запрошенное название страницы некорректно',
  'title-invalid-characters': 'Запрашиваемое название страницы содержит недопустимые символы: «$1».',
  'title-invalid-empty': 'Заголовок запрошенной страницы пуст или содержит только название пространства имён.',
  'title-invalid-interwiki': 'Запрашиваемое название страницы содержит интервики-ссылку, которая не может быть использована в названиях.',
  'title-invalid-leading-colon': 'Запрашиваемое название страницы содержит недопустимое двоеточие в начале.',
  'title-invalid-magic-tilde': 'Запрашиваемый заголовок страницы содержит недопустимую последовательность тильды (<nowiki>~~~</nowiki>).',
  'title-invalid-relative':
    'Заголовок имеет относительный путь. Заголовки страниц с относительным путём (/,../) являются недействительными, так как они часто недоступны, когда обрабатываются браузером пользователя.',
  'title-invalid-talk-namespace': 'Запрашиваемое название страницы ссылается на страницу обсуждения, которая не может существовать.',
  'title-invalid-too-long': 'Запрашиваемый заголовок страницы слишком длинен. Он должен быть не более $1 {{PLURAL:$1|1=байта|байт}} в кодировке UTF-8.',
  'title-invalid-utf8': 'Запрашиваемое название страницы содержит некорректную последовательность символов UTF-8.',
};

/** Whether a text for the key is kept here. */
export function hasText(key: string): boolean {
  return key in EN;
}

/** English plural: `one` for 1, else `other`. Russian: one / few / many (CLDR). */
function pluralIndex(lang: Lang, n: number): number {
  if (lang === 'en') return n === 1 ? 0 : 1;
  const m10 = n % 10;
  const m100 = n % 100;
  if (m10 === 1 && m100 !== 11) return 0;
  if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return 1;
  return 2;
}

/** {{PLURAL:n|forms}} with explicit `N=` forms first, as Language::convertPlural. */
function plural(lang: Lang, n: number, forms: string[]): string {
  const plain: string[] = [];
  for (const f of forms) {
    const m = /^(\d+)=(.*)$/s.exec(f);
    if (m) {
      if (Number(m[1]) === n) return m[2]!;
    } else {
      plain.push(f);
    }
  }
  if (plain.length === 0) return '';
  const i = pluralIndex(lang, n);
  return plain[Math.min(i, plain.length - 1)]!;
}

/**
 * A text with `$1…` substituted and PLURAL resolved (parameters are plain numbers or text), in the
 * content language: ru falls back to en for keys it does not have.
 */
export function text(lang: Lang, key: string, params: readonly string[] = []): string {
  const raw = (lang === 'ru' ? RU[key] : undefined) ?? EN[key];
  if (raw === undefined) return `⧼${key}⧽`;
  const withParams = raw.replace(/\$(\d+)/g, (m, d: string) => params[Number(d) - 1] ?? m);
  return withParams.replace(/\{\{PLURAL:([^|}]*)\|([^}]*)\}\}/gi, (_m, num: string, forms: string) =>
    plural(lang, Number(num.trim().replace(/[\s,]/g, '')), forms.split('|')),
  );
}

/** The text of a title error (MalformedTitleException message), e.g. for `invalidreason`. */
export function titleErrorText(lang: Lang, reason: string, params: readonly string[] = []): string {
  return text(lang, reason, params);
}
