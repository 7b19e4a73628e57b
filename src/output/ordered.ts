import { isFrozenJson } from '../api/frozen.js';

/**
 * JSON objects whose key order JavaScript cannot keep: integer-like keys ("5", "9") always come
 * first and ascending in a JS object, but formatversion=1 `query.pages` lists page ids in
 * ApiPageSet's order (missing "-1" first, existing pages by title). Such an object is carried as
 * an OrderedObject and spliced into the encoded text.
 */
export class OrderedObject {
  constructor(readonly entries: ReadonlyArray<readonly [string, unknown]>) {}
}

const TOKEN = (i: number) => `\u0001ordered${i}\u0001`;

function replace(value: unknown, found: OrderedObject[]): unknown {
  if (value instanceof OrderedObject) {
    found.push(value);
    return TOKEN(found.length - 1);
  }
  if (Array.isArray(value)) return value.map((v) => replace(v, found));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = replace(v, found);
    return out;
  }
  return value;
}

/**
 * Whether an OrderedObject is anywhere in `value` (asked of every answer: loops that make no
 * arrays). A frozen fragment (json.ts frozenJson: a list's row, debuginfo's includes) is plain
 * JSON data, never one: it is not walked.
 */
function contains(value: unknown): boolean {
  if (value instanceof OrderedObject) return true;
  if (typeof value === 'object' && value !== null && isFrozenJson(value)) return false;
  if (Array.isArray(value)) {
    for (const v of value) if (contains(v)) return true;
    return false;
  }
  if (value && typeof value === 'object') {
    for (const k in value) if (contains((value as Record<string, unknown>)[k])) return true;
  }
  return false;
}

/**
 * Encodes `value` with `encode` (any JSON encoder: compact, or pretty with 4-space indent),
 * writing OrderedObjects with their keys in their own order.
 */
export function encodeWithOrder(value: unknown, encode: (v: unknown) => string, pretty: boolean): string {
  if (!contains(value)) return encode(value);
  const found: OrderedObject[] = [];
  let text = encode(replace(value, found));
  found.forEach((obj, i) => {
    const token = encode(TOKEN(i));
    const at = text.indexOf(token);
    if (at < 0) return;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    const indent = pretty ? /^ */.exec(text.slice(lineStart))![0] : '';
    text = text.slice(0, at) + encodeObject(obj, encode, pretty, indent) + text.slice(at + token.length);
  });
  return text;
}

function encodeObject(obj: OrderedObject, encode: (v: unknown) => string, pretty: boolean, indent: string): string {
  if (obj.entries.length === 0) return '{}';
  const inner = indent + '    ';
  const parts = obj.entries.map(([k, v]) => {
    const body = encodeWithOrder(v, encode, pretty);
    return pretty ? `${inner}${encode(k)}: ${body.replace(/\n/g, `\n${inner}`)}` : `${encode(k)}:${body}`;
  });
  return pretty ? `{\n${parts.join(',\n')}\n${indent}}` : `{${parts.join(',')}}`;
}
