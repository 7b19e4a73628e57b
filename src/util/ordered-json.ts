/**
 * JSON whose integer-like keys keep their order. JavaScript lists such keys ("0", "15") before
 * all others, whatever the text said, so `{"-2":…,"-1":…,"0":…}` (siteinfo's namespaces, as PHP
 * writes them) would come back as `{"0":…,"-2":…,"-1":…}`. Parsing marks those keys with U+0001,
 * which keeps them in place; writing and printing remove the mark again.
 */
/** The mark as written inside JSON text (a raw control character would not be valid JSON). */
const MARK_ESCAPED = '\\u0001';
/** `"123":` as a key (a quote inside a JSON string is always escaped, so this never hits a value). */
const INDEX_KEY = /"(0|[1-9]\d*)"(\s*):/g;
const MARKED_KEY = /"\\u0001(0|[1-9]\d*)"/g;
/** Whether a text has such a key: tested before replacing, since most texts (an entity's row) have none and a replace copies. */
const ANY_INDEX_KEY = /"(?:0|[1-9]\d*)"\s*:/;

export function parseKeepingKeyOrder(text: string): unknown {
  return JSON.parse(ANY_INDEX_KEY.test(text) ? text.replace(INDEX_KEY, `"${MARK_ESCAPED}$1"$2:`) : text);
}

/** Removes the marks from encoded JSON text (JSON.stringify writes U+0001 as `\u0001`). */
export function stripKeyMarks(json: string): string {
  return json.includes('\\u0001') ? json.replace(MARKED_KEY, '"$1"') : json;
}

export function stringifyKeepingKeyOrder(value: unknown, space?: number): string {
  return stripKeyMarks(JSON.stringify(value, null, space));
}
