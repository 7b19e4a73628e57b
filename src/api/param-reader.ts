import { parseTimestamp, toMw } from '../util/timestamp.js';
import type { ApiContext } from './context.js';
import { ApiUsageError, apiMessage, type ApiMessage } from './errors.js';
import {
  LIMIT_SML1,
  LIMIT_SML2,
  type ParamSpec,
  type ParamValue,
  type ParamValues,
} from './param-spec.js';
import { cleanUp } from './unicode.js';
import { parseUser } from './user-param.js';

/** Where a module sits: its path for messages (`query+logevents`), its prefix, its name. */
export interface ModuleInfo {
  path: string;
  prefix: string;
  name: string;
}

class Invalid extends Error {
  constructor(readonly msg: ApiMessage) {
    super(msg.code);
  }
}

const INTEGER = /^[+-]?\d+$/;

/** The namespaces of a default install (NamespaceDef's enum; -1 and -2 only where a module adds them). */
const NAMESPACE_IDS = Array.from({ length: 16 }, (_, i) => i);

/** ParamValidator::explodeMultiValue. */
export function explodeMultiValue(value: string, limit: number): string[] {
  if (value === '' || value === '\u001f') return [];
  const [sep, body] = value.startsWith('\u001f') ? ['\u001f', value.slice(1)] : ['|', value];
  // PHP explode with a limit keeps the rest in the last element (and never splits what it keeps).
  const parts: string[] = [];
  let from = 0;
  while (parts.length < limit - 1) {
    const at = body.indexOf(sep, from);
    if (at < 0) break;
    parts.push(body.slice(from, at));
    from = at + 1;
  }
  parts.push(body.slice(from));
  return parts;
}

/**
 * The values of a module's parameters as the request spells them, without validation: lists
 * split, booleans by presence, defaults where absent. For modules that ran on the wiki (a recorded
 * answer), where only their cache mode and debuginfo trace need the values.
 */
export function looseParamValues(params: ReadonlyMap<string, string>, prefix: string, specs: Record<string, ParamSpec>): ParamValues {
  const values: ParamValues = {};
  for (const [short, spec] of Object.entries(specs)) {
    const raw = params.get(prefix + short);
    if (spec.type === 'boolean') values[short] = raw !== undefined;
    else if (raw === undefined) {
      const d = 'default' in spec ? spec.default : undefined;
      values[short] = d === undefined ? null : 'multi' in spec && spec.multi && typeof d === 'string' ? explodeMultiValue(d, LIMIT_SML2) : d;
    } else values[short] = 'multi' in spec && spec.multi ? explodeMultiValue(raw, LIMIT_SML2) : raw;
  }
  return values;
}

/**
 * ApiBase::extractRequestParams: reads and validates every declared parameter in declaration
 * order, recording warnings as it goes; the first error (in declaration order) is thrown only
 * after all were read, so warnings of later parameters survive into the error response.
 */
export function readParams(ctx: ApiContext, mod: ModuleInfo, specs: Record<string, ParamSpec>): ParamValues {
  const values: ParamValues = {};
  let first: ApiUsageError | null = null;
  for (const [short, spec] of Object.entries(specs)) {
    const name = mod.prefix + short;
    try {
      values[short] = readOne(ctx, mod, name, spec);
    } catch (e) {
      if (!(e instanceof Invalid)) throw e;
      first ??= new ApiUsageError(e.msg, mod.path);
      values[short] = null;
    }
  }
  if (first) throw first;
  return values;
}

function readOne(ctx: ApiContext, mod: ModuleInfo, name: string, spec: ParamSpec): ParamValue {
  const req = ctx.request;
  if (spec.type === 'boolean') return req.check(name);
  const multi = 'multi' in spec && spec.multi === true;
  // A U+001F-prefixed value keeps its separators; each piece is cleaned on its own.
  let raw = req.raw(name);
  raw = raw === undefined ? undefined : raw.startsWith('\u001f') ? raw.split('\u001f').map(cleanUp).join('\u001f') : req.get(name);
  if (raw !== undefined && req.wasNormalized(name)) {
    ctx.addWarning(mod.path, apiMessage('badutf8', 'apiwarn-badutf8', [name]));
  }
  if (raw === undefined) {
    if ('required' in spec && spec.required) {
      throw new Invalid(apiMessage('missingparam', 'paramvalidator-missingparam', [{ plaintext: name }]));
    }
    if (!('default' in spec) || spec.default === undefined) return null;
    raw = String(spec.default);
  }
  if (!multi) {
    if (raw.startsWith('\u001f')) {
      throw new Invalid(apiMessage('badvalue', 'paramvalidator-notmulti', [{ plaintext: name }, { plaintext: raw }]));
    }
    return validateScalar(ctx, mod, name, spec, raw);
  }
  const list = explodeMultiValue(raw, LIMIT_SML2 + 1);
  if (spec.type === 'enum' && spec.allowAll && list.length === 1 && list[0] === '*') return [...spec.values];
  const limit = ctx.highLimits ? LIMIT_SML2 : LIMIT_SML1;
  if (list.length > limit) {
    throw new Invalid(
      apiMessage('toomanyvalues', 'paramvalidator-toomanyvalues', [{ plaintext: name }, { num: limit }], {
        limit,
        lowlimit: LIMIT_SML1,
        highlimit: LIMIT_SML2,
      }),
    );
  }
  const valid: (string | number)[] = [];
  const bad: string[] = [];
  for (const v of list) {
    try {
      valid.push(validateScalar(ctx, mod, name, spec, v) as string | number);
    } catch (e) {
      if (e instanceof Invalid && e.msg.code === 'badvalue') bad.push(v);
      else throw e;
    }
  }
  if (bad.length > 0) {
    ctx.addWarning(
      mod.path,
      apiMessage(
        'unrecognizedvalues',
        'paramvalidator-unrecognizedvalues',
        [{ plaintext: name }, { plaintext: raw }, { list: bad, type: 'comma', plaintextItems: true }, { num: bad.length }],
        { values: bad },
      ),
    );
  }
  const unique = [...new Set(valid)];
  return unique as string[] | number[];
}

/** EnumDef's failure: the allowed values and their count ride along as parameters $3 and $4. */
function badvalue(name: string, value: string, allowed: readonly (string | number)[]): Invalid {
  const list = allowed.map(String);
  return new Invalid(
    apiMessage('badvalue', 'paramvalidator-badvalue-enumnotmulti', [
      { plaintext: name },
      { plaintext: value },
      { list, type: 'text', plaintextItems: true },
      { num: list.length },
    ]),
  );
}

function validateScalar(ctx: ApiContext, mod: ModuleInfo, name: string, spec: ParamSpec, value: string): ParamValue {
  switch (spec.type) {
    case 'string':
      return value;
    case 'enum':
      if (!spec.values.includes(value)) throw badvalue(name, value, spec.values);
      return value;
    case 'namespace': {
      const ok = NAMESPACE_IDS.concat(spec.extra ?? []);
      const n = INTEGER.test(value) ? Number(value) : NaN;
      if (!ok.includes(n)) throw badvalue(name, value, ok);
      return n;
    }
    case 'integer':
      return checkRange(ctx, mod, name, parseInteger(name, value), value, spec.min, spec.max, spec.max, spec.enforceRange);
    case 'limit': {
      const max = ctx.highLimits ? spec.highMax : spec.max;
      if (value === 'max') {
        ctx.result.addParsedLimit(mod.name, max);
        return max;
      }
      return checkRange(ctx, mod, name, parseInteger(name, value), value, 1, max, spec.max, false, spec.highMax);
    }
    case 'timestamp':
      return readTimestamp(ctx, mod, name, value);
    case 'user': {
      const user = parseUser(value, ctx.titles);
      if (!user || !spec.kinds.includes(user.kind)) {
        throw new Invalid(apiMessage('baduser', 'paramvalidator-baduser', [{ plaintext: name }, { plaintext: value }]));
      }
      return user.name;
    }
    case 'boolean':
      return true;
  }
}

function parseInteger(name: string, value: string): number {
  const n = INTEGER.test(value) ? Number(value) : NaN;
  // Beyond 2^53 a number is not exact any more; PHP's own limit (PHP_INT_MAX) is larger still.
  if (!Number.isSafeInteger(n)) {
    throw new Invalid(apiMessage('badinteger', 'paramvalidator-badinteger', [{ plaintext: name }, { plaintext: value }]));
  }
  return n;
}

/** NumericDef::checkRange with the API's PARAM_IGNORE_RANGE default: clamp and warn. */
function checkRange(
  ctx: ApiContext,
  mod: ModuleInfo,
  name: string,
  n: number,
  raw: string,
  min: number | undefined,
  curMax: number | undefined,
  max: number | undefined,
  enforce = false,
  highMax = max,
): number {
  let clamped = n;
  if (min !== undefined && n < min) clamped = min;
  if (curMax !== undefined && n > curMax) clamped = curMax;
  if (clamped === n) return n;
  const data = { min: min ?? null, curmax: curMax ?? null, max: max ?? null, highmax: highMax ?? null };
  const params =
    min !== undefined && curMax !== undefined
      ? [{ plaintext: name }, { plaintext: raw }, { num: min }, { num: curMax }]
      : [{ plaintext: name }, { plaintext: raw }, { num: min ?? curMax ?? 0 }];
  const key =
    min !== undefined && curMax !== undefined
      ? 'paramvalidator-outofrange-minmax'
      : min !== undefined
        ? 'paramvalidator-outofrange-min'
        : 'paramvalidator-outofrange-max';
  const msg = apiMessage('outofrange', key, params, data);
  if (enforce) throw new Invalid(msg);
  ctx.addWarning(mod.path, msg);
  return clamped;
}

function readTimestamp(ctx: ApiContext, mod: ModuleInfo, name: string, value: string): string {
  let v = value;
  if (v === '' || v === '0') {
    ctx.addWarning(
      mod.path,
      apiMessage('unclearnowtimestamp', 'paramvalidator-unclearnowtimestamp', [{ plaintext: name }, { plaintext: v }]),
    );
    v = 'now';
  }
  const ms = parseTimestamp(v, ctx.now);
  if (ms === null) {
    throw new Invalid(apiMessage('badtimestamp', 'paramvalidator-badtimestamp', [{ plaintext: name }, { plaintext: v }]));
  }
  return toMw(ms);
}
