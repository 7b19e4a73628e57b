import { zoneWallToUtc } from './tz-names.js';

/**
 * MediaWiki timestamps (wikimedia/timestamp 4.1 ConvertibleTimestamp, PHP 8.2): every input
 * form it accepts, parsed the way `DateTime::createFromFormat` then reads the pieces (fields
 * overflow: month 13, hour 24, second 60…), and the TS_MW / ISO 8601 outputs.
 */

type Fields = { Y: string; m?: string; M?: string; d: string; H: string; i: string; s: string; u?: string; O?: string; D?: string; y?: string };

// The library's patterns. PCRE's `$` without /D also matches before a final "\n": `\n?$` here.
const SP = '[ \\t\\r\\n]';
const FORMS: [string, RegExp][] = [
  ['TS_MW', /^(?<Y>\d{4})(?<m>\d\d)(?<d>\d\d)(?<H>\d\d)(?<i>\d\d)(?<s>\d\d)$/],
  ['TS_ISO_8601', /^(?<Y>\d{4})-(?<m>\d{2})-(?<d>\d{2})[T ](?<H>\d{2}):(?<i>\d{2}):(?<s>\d{2})(?:[.,](?<u>\d{1,6}))?(?<O>Z|[+-]\d{2}(?::?\d{2})?)?\n?$/],
  ['TS_ISO_8601_BASIC', /^(?<Y>\d{4})(?<m>\d{2})(?<d>\d{2})T(?<H>\d{2})(?<i>\d{2})(?<s>\d{2})(?:[.,](?<u>\d{1,6}))?(?<O>Z|[+-]\d{2}(?::?\d{2})?)?\n?$/],
  ['TS_UNIX', /^(?<U>-?\d{1,13})$/],
  ['TS_UNIX_MICRO', /^(?<U>-?\d{1,13})\.(?<u>\d{1,6})$/],
  ['TS_ORACLE', /^(?<d>\d{2})-(?<m>\d{2})-(?<Y>\d{4}) (?<H>\d{2}):(?<i>\d{2}):(?<s>\d{2})\.(?<u>\d{6})\n?$/],
  ['TS_POSTGRES', /^(?<Y>\d{4})-(?<m>\d\d)-(?<d>\d\d) (?<H>\d\d):(?<i>\d\d):(?<s>\d\d)(?:\.(?<u>\d{1,6}))?(?<O>[+\- ]\d\d)\n?$/],
  ['old TS_POSTGRES', /^(?<Y>\d{4})-(?<m>\d\d)-(?<d>\d\d) (?<H>\d\d):(?<i>\d\d):(?<s>\d\d)(?:\.(?<u>\d{1,6}))? GMT\n?$/],
  ['TS_EXIF', /^(?<Y>\d{4}):(?<m>\d\d):(?<d>\d\d) (?<H>\d\d):(?<i>\d\d):(?<s>\d\d)$/],
  [
    'TS_RFC2822',
    new RegExp(
      `^${SP}*(?:(?<D>[A-Z][a-z]{2}),${SP}*)?(?<d>\\d\\d?)${SP}+(?<M>[A-Z][a-z]{2})${SP}+(?<Y>\\d{2,})${SP}+(?<H>\\d\\d)${SP}*:${SP}*(?<i>\\d\\d)${SP}*:${SP}*(?<s>\\d\\d)` +
        `(?:${SP}+(?<O>[+-]\\d{4}|UT|GMT|[ECMP][SD]T|[A-IK-Za-ik-z]))?(?:${SP}*;|\\n?$)`,
    ),
  ],
  ['TS_RFC850', /^(?<D>[A-Z][a-z]{5,8}), (?<d>\d\d)-(?<M>[A-Z][a-z]{2})-(?<y>\d{2}) (?<H>\d\d):(?<i>\d\d):(?<s>\d\d)(?: (?<O>[+-]\d{2}(?::?\d{2})?|[A-Z]{1,5}))?\n?$/],
  ['asctime', /^(?<D>[A-Z][a-z]{2}) (?<M>[A-Z][a-z]{2}) +(?<d>\d{1,2}) (?<H>\d\d):(?<i>\d\d):(?<s>\d\d) (?<Y>\d{4})[ \t\n\x0B\f\r]*$/],
];

// What createFromFormat makes of the names these patterns let through (found by trying them all).
const MONTHS: Record<string, number> = { Jan: 1, Feb: 2, Mar: 3, Apr: 4, May: 5, Jun: 6, Jul: 7, Aug: 8, Sep: 9, Oct: 10, Nov: 11, Dec: 12, Iii: 3, Vii: 7, Xii: 12 };
/** 'D': a weekday (or other relative-unit word) moves the date forward to that weekday (0 = Sunday). */
const WEEKDAYS: Record<string, number> = {
  Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Day: 1, Sec: 1, Min: 1,
  Sunday: 0, Sundays: 0, Monday: 1, Mondays: 1, Tuesday: 2, Tuesdays: 2, Wednesday: 3, Thursday: 4, Thursdays: 4,
  Friday: 5, Fridays: 5, Saturday: 6, Saturdays: 6, Weekday: 1, Weekdays: 1, Second: 1, Seconds: 1, Minute: 1, Minutes: 1,
  Months: 1, Fortnight: 14,
};

/** Milliseconds for a wall-clock date in UTC, fields overflowing as PHP lets them (year 0–99 kept as is). */
function utcMs(Y: number, m: number, d: number, H: number, i: number, s: number): number {
  const t = new Date(0);
  t.setUTCFullYear(Y, m - 1, d);
  t.setUTCHours(H, i, s, 0);
  return t.getTime();
}

/** 'O': `Z`, `±hh`, `±hhmm`, `±hh:mm` (minutes may overflow), or a zone name; null if PHP rejects it. */
function applyZone(wall: number, zone: string | undefined): number | null {
  if (zone === undefined || zone === 'Z') return wall;
  const m = /^([+-])(\d\d):?(\d\d)?$/.exec(zone);
  if (m) return wall - (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) * 60000;
  return zoneWallToUtc(zone, wall);
}

function fromFields(form: string, f: Fields, nowMs: number): number | null {
  let year = Number(f.Y ?? 0);
  if (form === 'TS_RFC850') {
    const pivot = new Date(nowMs).getUTCFullYear() + 50;
    year = pivot - (pivot % 100) + Number(f.y);
    if (year > pivot) year -= 100;
  } else if (form === 'TS_RFC2822') {
    if (year < 1000) year += year < 50 ? 2000 : 1900;
    else if (f.Y.length > 4) return null;
  }
  const month = f.M !== undefined ? MONTHS[f.M] : Number(f.m);
  if (month === undefined) return null;
  let wall = utcMs(year, month, Number(f.d), Number(f.H), Number(f.i), Number(f.s)) + Math.floor(Number((f.u ?? '').padEnd(6, '0')) / 1000);
  if (f.D !== undefined) {
    const weekday = WEEKDAYS[f.D];
    if (weekday === undefined) return null;
    // The weekday of the date after the fields overflowed (in the given zone's wall time).
    let diff = weekday - new Date(wall).getUTCDay();
    if (diff <= -1) diff += 7;
    wall += diff * 86400000;
  }
  let zone = f.O;
  if (form === 'TS_POSTGRES' && zone?.startsWith(' ')) zone = `+${zone.slice(1)}`;
  if (form === 'TS_RFC2822' && zone !== undefined) zone = zone === 'UT' ? 'UTC' : zone.length === 1 ? '+0000' : zone;
  return applyZone(wall, zone);
}

/**
 * Milliseconds since the epoch (UTC) for any timestamp ConvertibleTimestamp accepts, or null.
 * `now` (and what PHP finds falsy: `''`, `'0'`) is `nowMs`. Unless `anyYear` is set, results
 * outside years 0000–9999 are null too, as for every API timestamp parameter (TimestampDef
 * converts to TS_MW, which cannot hold them, and answers `badtimestamp`).
 */
export function parseTimestamp(value: string, nowMs: number, options: { anyYear?: boolean } = {}): number | null {
  let ms: number | null = null;
  if (value === 'now' || value === '' || value === '0' || value === '\0'.repeat(14)) ms = nowMs;
  else {
    for (const [form, re] of FORMS) {
      const m = re.exec(value);
      if (!m) continue;
      const g = m.groups!;
      if (form === 'TS_UNIX' || form === 'TS_UNIX_MICRO') {
        const sec = Number(g['U']);
        const frac = Number((g['u'] ?? '').padEnd(6, '0')) / 1000;
        ms = sec * 1000 + (sec < 0 ? -frac : frac);
        ms = Math.floor(ms);
      } else ms = fromFields(form, g as unknown as Fields, nowMs);
      break;
    }
  }
  if (ms === null || !Number.isFinite(ms)) return null;
  if (options.anyYear) return ms;
  const year = new Date(ms).getUTCFullYear();
  return year >= 0 && year <= 9999 ? ms : null;
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

function parts(ms: number): [string, string, string, string, string, string] {
  const d = new Date(Math.floor(ms / 1000) * 1000);
  return [pad(d.getUTCFullYear(), 4), pad(d.getUTCMonth() + 1), pad(d.getUTCDate()), pad(d.getUTCHours()), pad(d.getUTCMinutes()), pad(d.getUTCSeconds())];
}

/** TS_MW: `YYYYMMDDHHMMSS` (years 0–9999). */
export function toMw(ms: number): string {
  return parts(ms).join('');
}

/** TS_MW from the TS_ISO_8601 form (`2024-03-01T10:00:00Z` → `20240301100000`) the model keeps. */
function isoToMw(iso: string): string {
  return iso.replace(/[-:TZ]/g, '').slice(0, 14);
}

/**
 * An entity's timestamp as TS_MW, or `''` when no recording showed it (a list walked without its
 * timestamp prop). The order and the continuation token a list builds from it are then guesses,
 * which the module flags (needPropsOfAll: `<list>.timestamp`); they must not crash it.
 */
export function entityMw(iso: unknown): string {
  return typeof iso === 'string' ? isoToMw(iso) : '';
}

/** TS_ISO_8601: `YYYY-MM-DDTHH:MM:SSZ`. */
export function toIso(ms: number): string {
  const [Y, m, d, H, i, s] = parts(ms);
  return `${Y}-${m}-${d}T${H}:${i}:${s}Z`;
}

/** An HTTP date (RFC 9110 IMF-fixdate, PHP's gmdate('D, d M Y H:i:s') . ' GMT'): `Thu, 01 Jan 1970 00:00:00 GMT`. */
export function toHttpDate(ms: number): string {
  // Every answer has a Date header: the last second's text is kept.
  const second = Math.floor(ms / 1000);
  if (second !== lastHttpDate.second) lastHttpDate = { second, text: new Date(second * 1000).toUTCString() };
  return lastHttpDate.text;
}
let lastHttpDate = { second: NaN, text: '' };

/** Whether a string is a TS_MW timestamp (14 digits). */
export function isMwTimestamp(s: string): boolean {
  return /^\d{14}$/.test(s);
}
