import { isValid as isValidIp, isValidRange, sanitizeIP } from '../util/ip.js';
import { atLeast } from '../wiki/profile.js';
import { languageUcfirst } from '../util/ucfirst.js';
import { parseTitle, type TitleContext } from '../wiki/title.js';
import type { UserKind } from './param-spec.js';

const IPV4_LIKE = '\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}\\.(?:xxx|\\d{1,3})';
/** UserNameUtils::isIP's pattern: anything shaped like an IPv4 address (300.300.300.300 too). */
const ANY_IPV4 = new RegExp(`^${IPV4_LIKE}$`);
/** UserNameUtils::isLikeIPv4DashRange (1.42+): `1.2.3.4-5.6.7.8`. */
const IPV4_DASH_RANGE = new RegExp(`^${IPV4_LIKE}-${IPV4_LIKE}$`);
const IP_BYTE = '(?:25[0-5]|2[0-4]\\d|1?\\d{1,2})';
/** UserDef's `$b.$b.$b.xxx`: an IPv4 address with its last byte hidden. */
const IP_XXX = new RegExp(`^${IP_BYTE}\\.${IP_BYTE}\\.${IP_BYTE}\\.xxx$`);
/** UserNameUtils::isValid's troublemakers: C1 controls, no-break and other spaces, breaks, private use. */
const TROUBLEMAKERS = /[\u0080-\u009f\u00a0\u2000-\u200f\u2028-\u202f\u3000\ue000-\uf8ff]/;
/** $wgMaxNameChars of a default install, in bytes (strlen). */
const MAX_NAME_BYTES = 255;

export interface ParsedUser {
  kind: UserKind;
  /** Canonical name (`Вандал 1`, `192.0.2.15`, `198.51.100.0/24`) or `#id` for ids. */
  name: string;
  id?: number;
}

/**
 * UserDef::processUser: what kind of user a parameter value names, canonicalised; null when it
 * names none (the caller then fails with `baduser`). In MediaWiki's order: `#id`, an interwiki
 * name (anything with `>`), a valid user name (UserNameUtils::getCanonical with RIGOR_VALID, so
 * `Foo:bar`, `a@b` and `a=b` are names: the characters of $wgInvalidUsernameCharacters only keep
 * a name from being created), then an IP address or range given as a user page title.
 * Temporary accounts (1.43's `temp`) are off on a default install: none is recognised.
 */
export function parseUser(value: string, titles: TitleContext): ParsedUser | null {
  const ucfirst = (s: string) => languageUcfirst(s, atLeast(titles, '1.43'));
  const idMatch = /^#(\d+)$/.exec(value);
  if (idMatch) return { kind: 'id', name: value, id: Number(idMatch[1]) };
  // ExternalUserNames::isExternal; getCanonical(RIGOR_NONE) refuses only a `#`.
  if (value.includes('>')) return ucfirst(value).includes('#') ? null : { kind: 'interwiki', name: value };
  const name = canonicalName(value, titles);
  if (name !== null) return { kind: 'name', name };
  if (value.includes('#')) return null;
  let t = parseTitle(value, titles);
  if (!t.ok || t.title.ns !== 2 || t.title.interwiki) t = parseTitle(`User:${value}`, titles);
  if (!t.ok || t.title.ns !== 2 || t.title.interwiki) return null;
  const text = t.title.text;
  if (isValidIp(text) || IP_XXX.test(text)) return { kind: 'ip', name: sanitizeIP(text) ?? text };
  if (isValidRange(text)) return { kind: 'cidr', name: sanitizeIP(text) ?? text };
  return null;
}

/** UserNameUtils::getCanonical with RIGOR_VALID: the name as a User-namespace title's text, if it is a valid user name. */
function canonicalName(value: string, titles: TitleContext): string | null {
  const name = languageUcfirst(value, atLeast(titles, '1.43'));
  if (name.includes('#')) return null;
  const t = parseTitle(name, titles, 2);
  if (!t.ok || t.title.ns !== 2 || t.title.interwiki) return null;
  return isValidName(t.title.text, titles) ? t.title.text : null;
}

/** UserNameUtils::isValid. */
function isValidName(name: string, titles: TitleContext): boolean {
  if (name === '' || isValidIp(name) || ANY_IPV4.test(name) || name.includes('/') || Buffer.byteLength(name) > MAX_NAME_BYTES || name !== languageUcfirst(name, atLeast(titles, '1.43'))) return false;
  // 1.42+ also refuses what looks like an IP range.
  if (atLeast(titles, '1.43') && (isValidRange(name) || IPV4_DASH_RANGE.test(name))) return false;
  // A name must not read as another title (a namespace prefix, an interwiki).
  const t = parseTitle(name, titles);
  if (!t.ok || t.title.ns !== 0 || t.title.interwiki || t.title.text !== name) return false;
  return !TROUBLEMAKERS.test(name);
}
