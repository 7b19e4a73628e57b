import type { WikiProfile } from '../wiki/profile.js';
import { apiUrl, atLeast } from '../wiki/profile.js';
import { contentLanguage, getLanguage, sanitizeLangCode, userLanguage, type Language } from '../i18n/language.js';
import { namespacesKnown } from '../wiki/namespaces.js';
import type { Knowledge, WikiModel } from '../wiki/model.js';
import type { ActionModule, RanModule } from './action-module.js';
import { cacheModeForUselang, type ApiContext, type CacheMode } from './context.js';
import { ErrorFormatter, ERROR_FORMATS, type ErrorFormat } from './error-formatter.js';
import { ApiUsageError, apiMessage, WIKITAPE_INTERNAL, type ApiMessage } from './errors.js';
import { badValueMessage, readParams, SETUP_ERRORS } from './param-reader.js';
import { pv, type ParamSpec, type ParamValues } from './param-spec.js';
import { ApiRequest } from './request.js';
import { escapeWikiText } from '../util/escape.js';
import { ApiResult, type JsonObject } from './result.js';
import { actionsOf, FORMATS } from './main-params.js';
import { FORMAT_VERSIONS, printerParams, readPrinter, type Printer } from './printer.js';
import type { ApiFaultHook, FaultFacts, FaultStage } from './fault-hook.js';
import { anonymousSession, type Caller, type SessionPort, type TokenType } from './session.js';
import { titleContext } from '../wiki/site-tables.js';

export interface ApiEnvironment {
  profile: WikiProfile;
  model: WikiModel;
  /** What the recordings prove about the model (see ApiContext.knows); null: a model of fixtures only. */
  knows: Knowledge | null;
  /** "Now" in milliseconds. */
  now: number;
  actions: readonly ActionModule[];
  /** The caller's session; default: an anonymous caller without one. */
  session?: SessionPort;
  /** Faults asked for (faults/api.ts): each is raised at the stage where ApiMain raises it. */
  fault?: ApiFaultHook;
  /** Stop before the module runs: only whether a fault fires is wanted (the answer then comes from elsewhere). */
  faultProbe?: boolean;
}

/** Thrown where the module would run when only a fault probe is wanted. */
const PROBED = Symbol('probed');

/** What running one API call produced: the data to print and how to print it. */
export interface ApiOutcome {
  /** Result data in formatversion=2 shape, without debuginfo. */
  data: JsonObject;
  isError: boolean;
  errorCodes: string[];
  status: number;
  headers: Record<string, string>;
  cacheMode: CacheMode;
  /** The mode the modules asked ApiMain::setCacheMode for (before its uselang downgrade); null when none did. */
  requestedCacheMode: CacheMode | null;
  printer: Printer;
  /** The user language the answer was printed in (uselang, see i18n/language.ts userLanguage). */
  userLang: Language;
  /** Module that ran (`query`, `parse` …) or `main` when the call failed early. */
  action: string;
  maxage: number;
  smaxage: number;
  /** What the answer needed that the model does not know (see ApiContext.unknown), sorted. */
  unknown: string[];
  /** Of `unknown`, what the answer's body says itself (ApiContext.unknown's `said`): never a miss. */
  said: string[];
  /** The modules that ran, in order, with their values (none when the call failed). */
  modules: RanModule[];
  /** The fault that gave this answer (as written), if one did. */
  fault?: string;
}

/** ApiMain's constructor: `errorlang` (raw) is `uselang`, `content` or a code, sanitized; BC is English. */
function errorLanguage(format: ErrorFormat, errorlang: string | undefined, profile: WikiProfile, userLang: Language): Language {
  if (format === 'bc') return getLanguage('en', profile.version);
  const code = errorlang ?? 'uselang';
  if (code === 'uselang') return userLang;
  return getLanguage(code === 'content' ? profile.language : sanitizeLangCode(code, profile.language), profile.version);
}

/**
 * The request's error formatter (ApiMain's constructor reads errorformat and errorlang raw, before
 * anything can fail). `unknown` is told what a text needs that wikitape cannot render.
 */
export function requestErrorFormatter(params: ReadonlyMap<string, string>, profile: WikiProfile, userLang: Language, unknown?: (what: string) => void): ErrorFormatter {
  const rawFormat = params.get('errorformat') ?? 'bc';
  const errorFormat: ErrorFormat = (ERROR_FORMATS as readonly string[]).includes(rawFormat) && rawFormat !== 'bc' ? (rawFormat as ErrorFormat) : 'bc';
  return new ErrorFormatter(errorFormat, errorLanguage(errorFormat, params.get('errorlang'), profile, userLang), contentLanguage(profile), profile.version, unknown);
}

/** One call while it runs: what ApiMain keeps in its fields between its steps. */
interface Call {
  request: ApiRequest;
  env: ApiEnvironment;
  ctx: ApiContext;
  outcome: ApiOutcome;
  /** What the answer needed that the model does not know (ApiContext.unknown). */
  unknown: Set<string>;
  /** Of those, what the answer's body says itself (ApiContext.unknown's `said`). */
  said: Set<string>;
  /** Actions asked for that wikitape does not implement. */
  notImplemented: string[];
  /**
   * The call failed with an exception of wikitape's own (not an API error): the error is no answer
   * the wiki would give, and what the modules needed before it stays unknown.
   */
  crashed: boolean;
  /** ApiMain's cache mode: the one set (after the uselang downgrade) and the one a module asked for. */
  cache: { mode: CacheMode; requested: CacheMode | null };
  /** ApiMain's mModule: the action once setupModule has made it (after the asserts and the token); null before. */
  module: ActionModule | null;
}

/**
 * ApiMain::execute for one request: never throws for anything a client can send. Its steps are
 * MediaWiki's: the constructor's setup (startCall), executeAction, handleException, and the
 * answer's last touches (finishCall).
 */
export function runApi(request: ApiRequest, env: ApiEnvironment, internal = false): ApiOutcome {
  const call = startCall(request, env);
  try {
    executeAction(call, internal);
  } catch (e) {
    if (e === PROBED) return call.outcome;
    handleException(call, e);
  }
  return finishCall(call);
}

/** ApiMain's constructor: the user language and error formatter (read raw, before anything can fail), the caller, the context. */
function startCall(request: ApiRequest, env: ApiEnvironment): Call {
  const { profile } = env;
  // uselang and errorformat are read raw before anything can fail (ApiMain constructor).
  const userLang = userLanguage(request.params.get('uselang'), profile);
  const unknown = new Set<string>();
  const said = new Set<string>();
  const formatter = requestErrorFormatter(request.params, profile, userLang, (what) => void unknown.add(what));
  const result = new ApiResult();
  const cache: Call['cache'] = { mode: 'private', requested: null };
  const modules: RanModule[] = [];
  const session = env.session ?? anonymousSession();
  const caller = session.caller;
  // A logged-in caller whose rights nobody recorded: limits and rights checks cannot be known.
  if (!caller.anon && caller.rights === null) unknown.add('session.rights');
  const titles = titleContext(profile, env.model, env.knows);
  // A content language whose namespace names wikitape cannot all know (a grammar class, variants).
  if (!namespacesKnown(titles)) unknown.add(`i18n.${profile.language}.namespaces`);
  const ctx: ApiContext = {
    request,
    profile,
    model: env.model,
    knows: env.knows,
    now: env.now,
    userLang,
    titles,
    result,
    formatter,
    highLimits: caller.rights?.includes('apihighlimits') ?? false,
    session,
    addWarning: (module: string, msg: ApiMessage) => formatter.addWarning(result, { ...msg, module }),
    setCacheMode: (mode) => {
      cache.requested = mode;
      cache.mode = cacheModeForUselang(mode, request.params.get('uselang'));
    },
    unknown: (what, how) => {
      unknown.add(what);
      if (how === 'said') said.add(what);
    },
    ran: (m) => void modules.push(m),
  };
  const outcome: ApiOutcome = {
    data: result.data,
    isError: false,
    errorCodes: [],
    status: 200,
    headers: {},
    cacheMode: cache.mode,
    requestedCacheMode: null,
    printer: readPrinter(request),
    userLang,
    action: 'main',
    maxage: 0,
    smaxage: 0,
    unknown: [],
    said: [],
    modules,
  };
  request.onArray = (name) => ctx.addWarning('main', apiMessage('unsupportedarray', 'apiwarn-unsupportedarray', [name]));
  return { request, env, ctx, outcome, unknown, said, notImplemented: [], crashed: false, cache, module: null };
}

/** ApiMain::executeAction: the main parameters, the module, its checks (setupExecuteAction, checkAsserts, setupModule, checkExecutePermissions), then the module itself. */
function executeAction(call: Call, internal: boolean): void {
  const { ctx, outcome, env } = call;
  addRequestedFields(ctx);
  const mainSpec: Record<string, ParamSpec> = mainParams(env.profile, internal ? env.actions.map((a) => a.name) : actionsOf(env.profile));
  const v = readParams(ctx, { path: 'main', prefix: '', name: 'main' }, mainSpec);
  outcome.maxage = pv.num(v['maxage']) ?? 0;
  outcome.smaxage = pv.num(v['smaxage']) ?? 0;
  outcome.printer = readPrinter(call.request, pv.str(v['format']) ?? 'jsonfm');
  const actionName = pv.str(v['action']) ?? 'help';
  outcome.action = actionName;
  const action = env.actions.find((a) => a.name === actionName);
  if (!action) {
    throw new ApiUsageError(apiMessage('wikitape-notimplemented', 'wikitape-notimplemented', [`action=${actionName}`]));
  }
  checkExecute(call, action, v);
  if (env.faultProbe) throw PROBED;
  executeModule(call, action);
}

/** The checks before a module runs, in ApiMain's order, with the faults asked for raised at each stage. */
function checkExecute(call: Call, action: ActionModule, v: ParamValues): void {
  const { ctx, outcome, env } = call;
  const { profile } = env;
  const caller = ctx.session.caller;
  // maxlag never trips unless a fault says so: like a single-database wiki (no replicas), there
  // is no lag to exceed, even for a negative maxlag (checked on MediaWiki 1.39).
  const facts: FaultFacts = { action, profile, maxlag: pv.num(v['maxlag']) ?? null, assert: pv.str(v['assert']) ?? null };
  const fault = (stage: FaultStage) => {
    const fired = env.fault?.(stage, facts);
    if (!fired) return;
    outcome.fault = fired.fault;
    throw fired.error;
  };
  fault('asserts');
  checkAsserts(caller, pv.str(v['assert']), pv.str(v['assertuser']), (what) => call.unknown.add(what), atLeast(profile, '1.43'));
  if (action.needsToken) checkToken(ctx, action.needsToken, `${action.prefix ?? ''}token`);
  fault('token');
  call.module = action;
  // ApiMain::checkExecutePermissions: writing needs `writeapi` (1.39; every user has it by default).
  if (action.writeMode && caller.rights !== null && !caller.rights.includes('writeapi') && !atLeast(profile, '1.43')) {
    throw new ApiUsageError(apiMessage('writeapidenied', 'apierror-writeapidenied'));
  }
  fault('permissions');
  fault('maxlag');
  // ApiMain::setupExternalResponse, after the asserts, the token (setupModule: a GET without one
  // is missingparam, with one in its query string mustpostparams) and the permissions: a module
  // that must be posted fails a GET (checked on both live wikis: GET action=logout is
  // missingparam, GET action=login&assert=user assertuserfailed).
  if ((action.mustBePosted || action.needsToken) && !call.request.http.posted) {
    throw new ApiUsageError(apiMessage('mustbeposted', 'apierror-mustbeposted', [action.name]));
  }
  fault('execute');
}

/** The module runs; then its cache mode, the unused parameters and the printer's own parameters. */
function executeModule(call: Call, action: ActionModule): void {
  const { ctx, outcome, request } = call;
  // Noted before it runs: its own trace comes before those of the submodules it runs.
  const ran: RanModule = { path: action.name, values: {}, ...(action.debug ? { debug: action.debug } : {}) };
  outcome.modules.push(ran);
  const values = (ran.values = inAction(action.name, () => action.execute(ctx)) ?? {});
  const mode = action.cacheMode?.(values, ctx.session.caller);
  if (mode) ctx.setCacheMode(mode);
  reportUnusedParams(ctx, outcome.printer);
  // The printer reads its parameters when it prints: a bad formatversion fails the call.
  const printerError = printerParamError(request, outcome.printer);
  if (printerError) throw printerError;
  // The printer reads `callback` through ApiBase::getParameter: an array (`callback[]=x`, no
  // JSONP then) warns as unsupported, a value that needed cleaning as bad UTF-8.
  if (outcome.printer.format !== 'none') request.raw('callback');
  if (outcome.printer.callback !== null && request.wasNormalized('callback')) {
    ctx.addWarning(outcome.printer.format, apiMessage('badutf8', 'apiwarn-badutf8', ['callback']));
  }
}

/**
 * Runs an action module: what it dies with names it (ApiBase::dieWithError uses the module's
 * path: clientlogin's missingparam says `"module": "clientlogin"` on 1.39 and 1.43), unless it
 * named another.
 */
function inAction<T>(path: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof ApiUsageError && e.module === 'main') throw e.withModule(path);
    throw e;
  }
}

/** ApiMain::handleException: the result replaced by the error, in the request's error format. */
function handleException(call: Call, e: unknown): void {
  const { ctx, outcome, request } = call;
  const err = e instanceof ApiUsageError ? e : internalError(e);
  if (!(e instanceof ApiUsageError)) call.crashed = true;
  substituteWithError(ctx, err);
  // The printer reads `callback` for an error too (an array warns: `callback[]=x`).
  if (outcome.printer.format !== 'none') request.raw('callback');
  call.cache.mode = 'private';
  outcome.isError = true;
  outcome.modules = [];
  outcome.errorCodes = [err.code];
  if (err.code === 'wikitape-notimplemented') call.notImplemented.push(String(err.params[0]));
  outcome.status = err.status;
  outcome.headers = { ...err.headers };
  // ApiMain::sendCacheHeaders of a private answer: the maxage asked for only once a module that
  // does not write was set up (1.39; an error before the asserts, the action, its own parameters
  // or the token are through is max-age=0); from 1.43 on never for an error.
  const held = call.module !== null && !SETUP_ERRORS.has(err);
  if (atLeast(call.env.profile, '1.43') || !held || call.module?.writeMode === true) outcome.maxage = 0;
  // The error printer fails on the same parameter, says so, and prints again with its
  // parameters at their defaults (formatversion 1, no utf8, ascii or callback).
  const printerError = printerParamError(request, outcome.printer);
  if (printerError) {
    ctx.addWarning('main', apiMessage('errorprinterfailed', 'apiwarn-errorprinterfailed'));
    ctx.addWarning(printerError.module, printerError);
    outcome.printer = { ...outcome.printer, formatversion: 1, utf8: false, ascii: false, callback: null };
  }
}

/** The outcome as printed: its data, cache mode, and what it needed that wikitape does not know. */
function finishCall(call: Call): ApiOutcome {
  const { outcome, unknown } = call;
  outcome.data = call.ctx.result.data;
  outcome.cacheMode = call.cache.mode;
  outcome.requestedCacheMode = call.cache.requested;
  // An error answer follows from the request alone, whatever the modules had needed before it,
  // except that a module wikitape does not implement is itself what the recordings lack.
  // What the caller's rights decide (a permission error's text, limits) stays unknown in an error
  // too, and so does a text wikitape cannot render in the error's language.
  // A crash of wikitape's own is no error the wiki gives: the answer says it is wikitape's
  // (WIKITAPE_INTERNAL), and what was needed before it stays unknown (a comment formatted from a
  // comment no recording showed).
  if (call.crashed) unknown.add(WIKITAPE_INTERNAL);
  outcome.unknown = outcome.isError && !call.crashed ? [...call.notImplemented, ...[...unknown].filter((u) => /^(?:permissions|session|i18n)\./.test(u)).sort()] : [...unknown].sort();
  outcome.said = outcome.unknown.filter((u) => call.said.has(u));
  return outcome;
}

/** An outcome that is only this error, in the request's error format and language. */
export function failWith(request: ApiRequest, env: ApiEnvironment, error: ApiUsageError): ApiOutcome {
  const failing: ActionModule = {
    name: 'wikitape-fail',
    params: () => ({}),
    execute: () => {
      throw error;
    },
  };
  const params = new Map(request.params);
  params.set('action', failing.name);
  return runApi(new ApiRequest(params, request.lossy), { ...env, actions: [failing] }, true);
}

function mainParams(profile: WikiProfile, actions: readonly string[]): Record<string, ParamSpec> {
  const spec: Record<string, ParamSpec> = {
    action: { type: 'enum', values: actions, default: 'help' },
    format: { type: 'enum', values: FORMATS, default: 'jsonfm' },
    maxlag: { type: 'integer' },
    // 1.43 keeps them at 0 or more (a warning and 0 for a negative value); 1.39 takes any integer.
    smaxage: { type: 'integer', default: 0, ...(atLeast(profile, '1.43') ? { min: 0 } : {}) },
    maxage: { type: 'integer', default: 0, ...(atLeast(profile, '1.43') ? { min: 0 } : {}) },
    assert: { type: 'enum', values: ['anon', 'user', 'bot'] },
    assertuser: { type: 'user', kinds: ['name'] },
    requestid: { type: 'string' },
    servedby: { type: 'boolean' },
    curtimestamp: { type: 'boolean' },
    responselanginfo: { type: 'boolean' },
    origin: { type: 'string' },
    uselang: { type: 'string', default: 'user' },
    variant: { type: 'string' },
    errorformat: { type: 'enum', values: ERROR_FORMATS, default: 'bc' },
    errorlang: { type: 'string', default: 'uselang' },
    errorsuselocal: { type: 'boolean' },
  };
  if (atLeast(profile, '1.44')) spec['crossorigin'] = { type: 'boolean' };
  return spec;
}

/** requestid, curtimestamp, responselanginfo: appended before anything else is written. */
function addRequestedFields(ctx: ApiContext): void {
  const id = ctx.request.get('requestid');
  if (id !== undefined) ctx.result.add('requestid', id);
  if (ctx.request.check('curtimestamp')) ctx.result.add('curtimestamp', new Date(ctx.now).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  if (ctx.request.check('responselanginfo')) {
    ctx.result.add('uselang', ctx.userLang.code);
    ctx.result.add('errorlang', ctx.formatter.lang.code);
  }
}

/** The error the printer module (json, php and their HTML forms) raises for a formatversion it does not know, or null. */
function printerParamError(request: ApiRequest, printer: Printer): ApiUsageError | null {
  const fv = request.params.get('formatversion');
  if (!/^(?:json|php)(?:fm)?$/.test(printer.format) || fv === undefined || (FORMAT_VERSIONS as readonly string[]).includes(fv)) return null;
  return new ApiUsageError(badValueMessage('formatversion', fv, FORMAT_VERSIONS), printer.format);
}

/** ApiMain::checkAsserts for the caller: `assert=anon|user|bot` first, then `assertuser=<name>` (1.39 and 1.43). */
function checkAsserts(caller: Caller, assert: string | null, assertuser: string | null, unknown: (what: string) => void, modern: boolean): void {
  if (assert === 'anon' && !caller.anon) throw new ApiUsageError(apiMessage('assertanonfailed', 'apierror-assertanonfailed'));
  if (assert === 'user' && caller.anon) throw new ApiUsageError(apiMessage('assertuserfailed', 'apierror-assertuserfailed'));
  if (assert === 'bot') {
    if (caller.rights === null && !caller.anon) unknown('session.rights');
    else if (!caller.rights?.includes('bot')) throw new ApiUsageError(apiMessage('assertbotfailed', 'apierror-assertbotfailed'));
  }
  if (assertuser !== null && assertuser !== '' && (caller.anon || caller.name !== assertuser)) {
    throw new ApiUsageError(apiMessage('assertnameduserfailed', 'apierror-assertnameduserfailed', [escapeWikiText(assertuser, modern)]));
  }
}

/** ApiMain::setupModule's token check: the `token` parameter is there, in the POST body, and the session's. */
function checkToken(ctx: ApiContext, type: TokenType, name: string): void {
  const token = ctx.request.get(name);
  if (token === undefined) throw new ApiUsageError(apiMessage('missingparam', 'paramvalidator-missingparam', [{ plaintext: name }]));
  if (ctx.request.http.queryNames.has(name)) throw new ApiUsageError(apiMessage('mustpostparams', 'apierror-mustpostparams', [name, 1]));
  if (!ctx.session.tokenValid(type, token)) throw new ApiUsageError(apiMessage('badtoken', 'apierror-badtoken'));
}

function reportUnusedParams(ctx: ApiContext, printer: Printer): void {
  const ignore = new Set(printerParams(printer));
  const unused = ctx.request.unused().filter((n) => !ignore.has(n));
  if (unused.length === 0) return;
  // array_diff keeps each name's place among the request's parameters (errorformat=raw shows it in 1.39).
  const names = [...ctx.request.params.keys()];
  const keys = unused.map((n) => names.indexOf(n));
  ctx.addWarning('main', apiMessage('unrecognizedparams', 'apierror-unrecognizedparams', [{ list: unused.map((n) => escapeWikiText(n, atLeast(ctx.profile, '1.43'))), type: 'comma', keys }, unused.length]));
}

/** Any non-API failure becomes MediaWiki's internal_api_error shape, never a crash. */
function internalError(e: unknown): ApiUsageError {
  const cls = e instanceof Error ? e.constructor.name : 'Error';
  return new ApiUsageError(
    apiMessage(`internal_api_error_${cls}`, 'apierror-exceptioncaughttype', ['wikitape', cls], { errorclass: cls }),
  );
}

/** ApiMain::substituteResultWithError: reset, keep warnings, error on top, docref, requested fields. */
function substituteWithError(ctx: ApiContext, err: ApiUsageError): void {
  const warnings = ctx.result.get('warnings');
  ctx.result.reset();
  if (warnings !== undefined) ctx.result.add('warnings', warnings);
  ctx.formatter.addError(ctx.result, err);
  const docref = ctx.formatter.docref(apiUrl(ctx.profile));
  if (!err.code.startsWith('internal_api_error_')) {
    if (ctx.formatter.format === 'bc') (ctx.result.get('error') as JsonObject)['docref'] = docref;
    else ctx.result.add('docref', docref);
  }
  addRequestedFields(ctx);
}
