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
import { atLeast } from '../wiki/profile.js';
import { parseUser } from './user-param.js';

/** Where a module sits: its path for messages (`query+logevents`), its prefix, its name. */
export interface ModuleInfo {
  path: string;
  prefix: string;
  name: string;
  /** A query submodule's group (`prop`, `list`, `meta`): deprecation warnings name the feature by it. */
  group?: string;
}

class Invalid extends Error {
  constructor(readonly msg: ApiMessage) {
    super(msg.code);
  }
}

const INTEGER = /^[+-]?\d+$/;

/** The namespaces of a default install (NamespaceDef's enum; -1 and -2 only where a module adds them). */
const NAMESPACE_IDS = Array.from({ length: 16 }, (_, i) => i);

/** NamespaceDef::getEnumValues: the wiki's namespaces and the module's extra ones, sorted. */
function namespaceIds(spec: { extra?: readonly number[] }): number[] {
  return NAMESPACE_IDS.concat(spec.extra ?? []).sort((a, b) => a - b);
}

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
/**
 * The errors of an action module's own parameters (and the page set's, for action=query), which
 * ApiMain::setupModule reads (extractRequestParams) before it holds the module: such an error is
 * sent with max-age=0 (main.ts handleException).
 */
export const SETUP_ERRORS = new WeakSet<ApiUsageError>();

export function readParams(ctx: ApiContext, mod: ModuleInfo, specs: Record<string, ParamSpec>, options: { setup?: boolean } = {}): ParamValues {
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
  if (first) {
    if (options.setup === true) SETUP_ERRORS.add(first);
    throw first;
  }
  return values;
}

/**
 * ApiBase::addDeprecation, as ApiParamValidatorCallbacks::recordCondition calls it: the warning,
 * with the feature it names (`action=parse&generatexml`, `action=query&prop=extlinks&elexpandurl`),
 * then main's pointer to the announcement list (once).
 */
function addDeprecation(ctx: ApiContext, mod: ModuleInfo, msg: ApiMessage, feature: string): void {
  const path = mod.path === 'main' ? '' : mod.group ? `action=query&${mod.group}=${mod.name}&` : `action=${mod.name}&`;
  ctx.addWarning(mod.path, { ...msg, data: { feature: `${path}${feature}` } });
  ctx.addWarning('main', apiMessage('deprecation-help', 'api-usage-mailinglist-ref'));
}

/** EnumDef: a deprecated value given (not the default) warns with its own message. */
function checkDeprecatedValue(ctx: ApiContext, mod: ModuleInfo, name: string, spec: ParamSpec, value: string, given: boolean): void {
  const key = spec.type === 'enum' && given ? spec.deprecatedValues?.[value] : undefined;
  if (key !== undefined) addDeprecation(ctx, mod, apiMessage('deprecation', key), `${name}=${value}`);
}

function readOne(ctx: ApiContext, mod: ModuleInfo, name: string, spec: ParamSpec): ParamValue {
  const req = ctx.request;
  // ParamValidator::getValue: a deprecated parameter warns whenever it is given, before its value is validated.
  if (spec.deprecated && req.has(name)) {
    // A boolean's value is PHP's true by then, whatever was sent: "1".
    const value = spec.type === 'boolean' ? '1' : (req.get(name) ?? '');
    addDeprecation(ctx, mod, apiMessage('deprecation', 'paramvalidator-param-deprecated', [{ plaintext: name }, { plaintext: value }]), name);
  }
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
    const value = validateScalar(ctx, mod, name, spec, raw);
    checkDeprecatedValue(ctx, mod, name, spec, raw, req.has(name));
    return value;
  }
  const list = explodeMultiValue(raw, LIMIT_SML2 + 1);
  // PARAM_ALL: `*` alone is every value (NamespaceDef gives it to every multi-valued namespace parameter).
  if (list.length === 1 && list[0] === '*') {
    if (spec.type === 'enum' && spec.allowAll) return [...spec.values];
    if (spec.type === 'namespace') return namespaceIds(spec);
  }
  const limit = ctx.highLimits ? LIMIT_SML2 : LIMIT_SML1;
  if (list.length > limit) {
    // 1.43's ParamValidator names the parameter in the error's data too.
    const data = { ...(atLeast(ctx.profile, '1.43') ? { parameter: name } : {}), limit, lowlimit: LIMIT_SML1, highlimit: LIMIT_SML2 };
    throw new Invalid(apiMessage('toomanyvalues', 'paramvalidator-toomanyvalues', [{ plaintext: name }, { num: limit }], data));
  }
  const valid: (string | number)[] = [];
  const bad: string[] = [];
  for (const v of list) {
    try {
      valid.push(validateScalar(ctx, mod, name, spec, v) as string | number);
      checkDeprecatedValue(ctx, mod, name, spec, v, req.has(name));
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

/** EnumDef's failure for a single value: the allowed values and their count ride along as parameters $3 and $4. */
export function badValueMessage(name: string, value: string, allowed: readonly (string | number)[]): ApiMessage {
  const list = allowed.map(String);
  // Namespace numbers stay numbers in errorformat=raw.
  const numericItems = allowed.some((a) => typeof a === 'number');
  return apiMessage('badvalue', 'paramvalidator-badvalue-enumnotmulti', [
    { plaintext: name },
    { plaintext: value },
    { list, type: 'text', plaintextItems: true, ...(numericItems ? { numericItems } : {}) },
    { num: list.length },
  ]);
}

function badvalue(name: string, value: string, allowed: readonly (string | number)[]): Invalid {
  return new Invalid(badValueMessage(name, value, allowed));
}

function validateScalar(ctx: ApiContext, mod: ModuleInfo, name: string, spec: ParamSpec, value: string): ParamValue {
  switch (spec.type) {
    case 'string':
      return value;
    case 'enum':
      if (!spec.values.includes(value)) throw badvalue(name, value, spec.values);
      return value;
    case 'namespace': {
      const ok = namespaceIds(spec);
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
  // IntegerDef::checkRange: both bounds are the message's number parameters, '' for the one a range lacks.
  const params = [{ plaintext: name }, { plaintext: raw }, { num: min ?? ('' as const) }, { num: curMax ?? ('' as const) }];
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
