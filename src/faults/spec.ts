import { isSecretParam } from '../util/secrets.js';
import { Glob } from './glob.js';
import { mulberry32 } from '../util/random.js';

/**
 * Faults on demand (a wiki's bad days), spelled `NAME[:KEY=VALUE,…]`: on the command line
 * (`--fault`, repeatable), in the library's `faults` option, and per request in the
 * `X-Wikitape-Fault` header. Which requests a fault may hit is the fault's own rule (maxlag only
 * those that send `maxlag`, readonly only writes …); among those, the trigger keys pick: every one
 * (default), `first=N`, `rate=R` (with `seed=S`, repeatable), `match=PARAM=VALUE` (`*` in VALUE
 * matches any text; `match=PARAM` any value).
 */

/** Faults MediaWiki's API gives, in its own error shape (faults/api.ts). */
const API_FAULTS = ['maxlag', 'readonly', 'ratelimited', 'badtoken', 'assertuserfailed', 'assertbotfailed', 'internal_api_error'] as const;
/** Faults of the transport: a front cache's error pages, latency, a reset, an answer cut off (faults/transport.ts). */
const TRANSPORT_FAULTS = ['503', '429', 'latency', 'reset', 'cutoff'] as const;
export const FAULT_NAMES = [...API_FAULTS, ...TRANSPORT_FAULTS] as const;
type FaultName = (typeof FAULT_NAMES)[number];
export type ApiFaultName = (typeof API_FAULTS)[number];

const TRIGGER_KEYS = ['first', 'rate', 'seed', 'match'] as const;
/** The keys each fault reads besides the trigger's. */
const FAULT_KEYS: Record<FaultName, readonly string[]> = {
  maxlag: ['lag', 'host'],
  readonly: ['reason'],
  ratelimited: [],
  badtoken: [],
  assertuserfailed: [],
  assertbotfailed: [],
  internal_api_error: ['class'],
  '503': ['retry-after'],
  '429': ['retry-after'],
  latency: ['ms'],
  reset: [],
  cutoff: ['at'],
};

/** A fault as asked for: its name, its own settings and when it fires. */
export interface FaultSpec {
  /** As written (for error texts and logs), a secret parameter's value in `match` as `***`. */
  text: string;
  /** As written, for the answer's `X-Wikitape-Fault` header (other than printable ASCII percent-encoded). */
  header: string;
  name: FaultName;
  options: Readonly<Record<string, string>>;
  first: number | null;
  rate: number | null;
  seed: number;
  /** `match=PARAM[=GLOB]`: the parameter, and the glob its value must match (null: any value). */
  match: { param: string; value: Glob | null } | null;
}

/** A fault spelled wrongly: the message says what is allowed. */
export class FaultSpecError extends Error {}

/** Reads `NAME[:KEY=VALUE,…]`; throws FaultSpecError naming what is wrong. */
export function parseFault(text: string): FaultSpec {
  // A match on a secret parameter (`match=lgpassword=…`) never shows its value, not even in an error.
  const t = text.trim();
  const safe = t.replace(/(match=([^=,]*)=)[^,]*/g, (all, head: string, param: string) => (isSecretParam(param.trim()) ? `${head}***` : all));
  const colon = t.indexOf(':');
  const name = (colon < 0 ? t : t.slice(0, colon)).trim();
  if (!(FAULT_NAMES as readonly string[]).includes(name)) {
    throw new FaultSpecError(`unknown fault "${name}" in "${safe}"; faults are ${FAULT_NAMES.join(', ')}`);
  }
  const fault = name as FaultName;
  const options: Record<string, string> = {};
  let first: number | null = null;
  let rate: number | null = null;
  let seed = 1;
  let match: FaultSpec['match'] = null;
  const rest = colon < 0 ? '' : t.slice(colon + 1);
  for (const part of rest === '' ? [] : rest.split(',')) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1).trim();
    if (eq < 0 && key !== 'match') throw new FaultSpecError(`"${part}" in "${safe}" is not KEY=VALUE`);
    const allowed = [...TRIGGER_KEYS, ...FAULT_KEYS[fault]];
    if (!allowed.includes(key)) throw new FaultSpecError(`fault ${fault} has no key "${key}" (in "${safe}"); its keys are ${allowed.join(', ')}`);
    if (key === 'first') first = wholeNumber(value, key, safe);
    else if (key === 'seed') seed = wholeNumber(value, key, safe);
    else if (key === 'rate') {
      rate = Number(value);
      if (value === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) throw new FaultSpecError(`rate must be a number from 0 to 1, not "${value}" (in "${safe}")`);
    } else if (key === 'match') match = readMatch(value, safe);
    else options[key] = value;
  }
  checkOptions(fault, options, safe);
  const header = safe.replace(/[^\x20-\x7e]+/g, (c) => encodeURIComponent(c));
  return { text: safe, header, name: fault, options, first, rate, seed, match };
}

function wholeNumber(value: string, key: string, safe: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new FaultSpecError(`${key} must be a whole number, not "${value}" (in "${safe}")`);
  return Number(value);
}

function readMatch(value: string, safe: string): NonNullable<FaultSpec['match']> {
  const eq = value.indexOf('=');
  const param = (eq < 0 ? value : value.slice(0, eq)).trim();
  if (param === '') throw new FaultSpecError(`match needs a parameter, as in match=list=blocks (in "${safe}")`);
  if (eq < 0) return { param, value: null };
  // Matched in linear time, never as a regular expression made from the client's text (glob.ts).
  return { param, value: new Glob(value.slice(eq + 1)) };
}

/** The most seconds a fault's lag or Retry-After may say: 2^31 - 1. */
const MAX_SECONDS = 2_147_483_647;

function checkOptions(fault: FaultName, o: Record<string, string>, safe: string): void {
  const num = (key: string, min: number) => {
    const v = o[key];
    if (v !== undefined && (v === '' || !Number.isFinite(Number(v)) || Number(v) < min)) throw new FaultSpecError(`${key} must be a number of at least ${min}, not "${v}" (in "${safe}")`);
  };
  // Seconds a wiki could report: plain digits up to 2^31 - 1 (1e308 would print as 1e+308 in
  // X-Database-Lag and Retry-After, which no wiki sends).
  const seconds = (key: string) => {
    const v = o[key];
    if (v !== undefined && (!/^\d{1,10}(?:\.\d{1,6})?$/.test(v) || Number(v) > MAX_SECONDS)) throw new FaultSpecError(`${key} must be a number of seconds from 0 to ${MAX_SECONDS}, not "${v}" (in "${safe}")`);
  };
  if (fault === 'maxlag') seconds('lag');
  if (fault === '503' || fault === '429') seconds('retry-after');
  if (fault === 'cutoff') {
    num('at', 0);
    if (o['at'] !== undefined && Number(o['at']) >= 1) throw new FaultSpecError(`at is the share of the body sent before the cut, from 0 to below 1, not "${o['at']}" (in "${safe}")`);
  }
  if (fault === 'latency') {
    const ms = o['ms'];
    if (ms === undefined || !/^\d{1,7}(?:-\d{1,7})?$/.test(ms)) throw new FaultSpecError(`latency needs ms=N or ms=MIN-MAX (milliseconds), not "${ms ?? ''}" (in "${safe}")`);
    const [lo, hi] = ms.split('-').map(Number);
    if (hi !== undefined && hi < lo!) throw new FaultSpecError(`latency ms=MIN-MAX needs MIN at most MAX, not "${ms}" (in "${safe}")`);
  }
}

/** A fault with its state: how many requests it could have hit so far, and its random sequence. */
export class ArmedFault {
  private seen = 0;
  private readonly random: () => number;
  constructor(readonly spec: FaultSpec) {
    this.random = mulberry32(spec.seed);
  }

  /** Whether the request's parameters match the fault's `match` (true without one). */
  matches(params: ReadonlyMap<string, string>): boolean {
    const m = this.spec.match;
    if (!m) return true;
    const v = params.get(m.param);
    return v !== undefined && (m.value === null || m.value.matches(v));
  }

  /** Called once per request the fault could hit: whether it fires on this one. */
  fires(): boolean {
    this.seen++;
    const { first, rate } = this.spec;
    if (first !== null && this.seen > first) return false;
    if (rate !== null) return this.random() < rate;
    return true;
  }

  /** A number from the fault's sequence (latency's spread). */
  next(): number {
    return this.random();
  }
}

/** The faults a server was started with, and those a request's header adds. */
export class FaultPlan {
  readonly armed: ArmedFault[];
  constructor(specs: readonly string[]) {
    this.armed = specs.map((s) => new ArmedFault(parseFault(s)));
  }

  get empty(): boolean {
    return this.armed.length === 0;
  }

  /** The server's faults, then the header's (fresh for this request; a bad one is thrown as FaultSpecError). */
  forRequest(header: string | string[] | undefined): ArmedFault[] {
    const own = header === undefined ? [] : (Array.isArray(header) ? header : [header]).flatMap((h) => splitHeader(h)).map((s) => new ArmedFault(parseFault(s)));
    return own.length === 0 ? this.armed : [...own, ...this.armed];
  }
}

/** `X-Wikitape-Fault: a:k=v, b` may name several faults; a comma inside a fault's keys is not a split. */
function splitHeader(h: string): string[] {
  const out: string[] = [];
  for (const part of h.split(',')) {
    const p = part.trim();
    if (p === '') continue;
    const name = p.split(':')[0]!.trim();
    if (out.length > 0 && !(FAULT_NAMES as readonly string[]).includes(name)) out[out.length - 1] += `,${p}`;
    else out.push(p);
  }
  return out;
}
