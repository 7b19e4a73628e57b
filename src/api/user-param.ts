import { isValid as isValidIp, isValidRange, sanitizeIP } from '../util/ip.js';
import { parseTitle, type TitleContext } from '../wiki/title.js';
import type { UserKind } from './param-spec.js';

/** Characters a user name may not contain ($wgInvalidUsernameCharacters plus `/`, `#`). */
const INVALID_NAME = /[@:>=/#]/;
const IP_XXX = /^(?:25[0-5]|2[0-4]\d|1?\d{1,2})\.(?:25[0-5]|2[0-4]\d|1?\d{1,2})\.(?:25[0-5]|2[0-4]\d|1?\d{1,2})\.xxx$/;

export interface ParsedUser {
  kind: UserKind;
  /** Canonical name (`Вандал 1`, `192.0.2.15`, `198.51.100.0/24`) or `#id` for ids. */
  name: string;
  id?: number;
}

/**
 * UserDef::processUser: what kind of user a parameter value names, canonicalised; null
 * when it names none (the caller then fails with `baduser`).
 */
export function parseUser(value: string, titles: TitleContext): ParsedUser | null {
  const idMatch = /^#(\d+)$/.exec(value);
  if (idMatch) return { kind: 'id', name: value, id: Number(idMatch[1]) };
  if (/^[^>]+>./.test(value)) return { kind: 'interwiki', name: value };
  if (value.includes('#')) return null;
  let t = parseTitle(value, titles, 2);
  if (!t.ok || t.title.ns !== 2 || t.title.interwiki) t = parseTitle(`User:${value}`, titles);
  if (!t.ok || t.title.ns !== 2 || t.title.interwiki) return null;
  const text = t.title.text;
  if (isValidIp(text) || IP_XXX.test(text)) return { kind: 'ip', name: sanitizeIP(text) ?? text };
  if (isValidRange(text)) return { kind: 'cidr', name: sanitizeIP(text) ?? text };
  if (INVALID_NAME.test(text) || Buffer.byteLength(text) > 255) return null;
  return { kind: 'name', name: text };
}
