/**
 * MediaWiki timestamps (wikimedia/timestamp ConvertibleTimestamp): parsing every input form
 * the API accepts, and the TS_MW / ISO 8601 outputs.
 */

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const ZONES: Record<string, number> = { UT: 0, GMT: 0, EST: -5, EDT: -4, CST: -6, CDT: -5, MST: -7, MDT: -6, PST: -8, PDT: -7 };

type Parts = { Y: number; m: number; d: number; H: number; i: number; s: number; u?: string; O?: string };

const FORMS: Array<[RegExp, (m: RegExpExecArray) => Parts | number | null]> = [
  [/^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/, (m) => parts(m, [1, 2, 3, 4, 5, 6])],
  [/^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/, (m) => parts(m, [1, 2, 3, 4, 5, 6], 7, 8)],
  [/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(?:[.,](\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/, (m) => parts(m, [1, 2, 3, 4, 5, 6], 7, 8)],
  [/^(-?\d{1,13})$/, (m) => Number(m[1]) * 1000],
  [/^(-?\d{1,13})\.(\d{1,6})$/, (m) => Number(m[1]) * 1000 + (m[1]!.startsWith('-') ? -1 : 1) * Math.floor(Number(`0.${m[2]}`) * 1000)],
  [/^(\d{2})-(\d{2})-(\d{4}) (\d{2}):(\d{2}):(\d{2})\.(\d{6})$/, (m) => parts(m, [3, 2, 1, 4, 5, 6], 7)],
  [/^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?([+\- ]\d\d)$/, (m) => parts(m, [1, 2, 3, 4, 5, 6], 7, 8)],
  [/^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))? GMT$/, (m) => parts(m, [1, 2, 3, 4, 5, 6], 7)],
  [/^(\d{4}):(\d\d):(\d\d) (\d\d):(\d\d):(\d\d)$/, (m) => parts(m, [1, 2, 3, 4, 5, 6])],
  [
    /^[ \t\r\n]*(?:([A-Z][a-z]{2}),[ \t\r\n]*)?(\d\d?)[ \t\r\n]+([A-Z][a-z]{2})[ \t\r\n]+(\d{2,})[ \t\r\n]+(\d\d)[ \t\r\n]*:[ \t\r\n]*(\d\d)[ \t\r\n]*:[ \t\r\n]*(\d\d)(?:[ \t\r\n]+([+-]\d{4}|UT|GMT|[ECMP][SD]T|[A-IK-Za-ik-z]))?(?:[ \t\r\n]*;|$)/,
    (m) => named(m, 4, 3, 2, 5, 6, 7, 8),
  ],
  [
    /^[A-Z][a-z]{5,8}, (\d\d)-([A-Z][a-z]{2})-(\d{2}) (\d\d):(\d\d):(\d\d)(?: ([+-]\d{2}(?::?\d{2})?|[A-Z]{1,5}))?$/,
    (m) => named(m, 3, 2, 1, 4, 5, 6, 7),
  ],
  [/^[A-Z][a-z]{2} ([A-Z][a-z]{2}) +(\d{1,2}) (\d\d):(\d\d):(\d\d) (\d{4})\s*$/, (m) => named(m, 6, 1, 2, 3, 4, 5)],
];

function parts(m: RegExpExecArray, idx: number[], u?: number, o?: number): Parts {
  const n = idx.map((i) => Number(m[i]));
  const p: Parts = { Y: n[0]!, m: n[1]!, d: n[2]!, H: n[3]!, i: n[4]!, s: n[5]! };
  if (u !== undefined && m[u] !== undefined) p.u = m[u];
  if (o !== undefined && m[o] !== undefined) p.O = m[o];
  return p;
}

function named(m: RegExpExecArray, y: number, mon: number, d: number, h: number, i: number, s: number, o?: number): Parts | null {
  const month = MONTHS.indexOf(m[mon]!) + 1;
  if (month === 0) return null;
  let year = Number(m[y]);
  if (m[y]!.length === 2) year += year < 70 ? 2000 : 1900;
  const p: Parts = { Y: year, m: month, d: Number(m[d]), H: Number(m[h]), i: Number(m[i]), s: Number(m[s]) };
  if (o !== undefined && m[o] !== undefined) p.O = m[o];
  return p;
}

function offsetMinutes(o: string | undefined): number | null {
  if (o === undefined || o === 'Z') return 0;
  const z = ZONES[o];
  if (z !== undefined) return z * 60;
  const mm = /^([+\- ])(\d{2}):?(\d{2})?$/.exec(o);
  if (mm) return (mm[1] === '-' ? -1 : 1) * (Number(mm[2]) * 60 + Number(mm[3] ?? 0));
  if (/^[A-IK-Za-ik-z]$/.test(o)) return 0; // military zones: PHP reads them as UTC offsets; rare, taken as UTC
  return null;
}

/** Parses any timestamp MediaWiki accepts into milliseconds (UTC), or null; `now` is `nowMs`. */
export function parseTimestamp(value: string, nowMs: number): number | null {
  if (value === 'now') return nowMs;
  for (const [re, build] of FORMS) {
    const m = re.exec(value);
    if (!m) continue;
    const r = build(m);
    if (r === null) return null;
    if (typeof r === 'number') return r;
    const off = offsetMinutes(r.O);
    if (off === null) return null;
    const ms = Date.UTC(r.Y, r.m - 1, r.d, r.H, r.i, r.s) + (r.u ? Math.floor(Number(`0.${r.u}`) * 1000) : 0) - off * 60000;
    // Years 0–99 need setUTCFullYear: Date.UTC maps them to 1900–1999.
    if (r.Y < 100) {
      const d = new Date(ms);
      d.setUTCFullYear(d.getUTCFullYear() - 1900);
      return d.getTime();
    }
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** TS_MW: `YYYYMMDDHHMMSS`. */
export function toMw(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

/** TS_ISO_8601: `YYYY-MM-DDTHH:MM:SSZ`. */
export function toIso(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}Z`;
}

export function isMwTimestamp(s: string): boolean {
  return /^\d{14}$/.test(s);
}
