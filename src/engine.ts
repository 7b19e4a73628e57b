import type { IncomingHttpHeaders } from 'node:http';
import { failWith, runApi } from './api/main.js';
import { ApiUsageError, apiMessage } from './api/errors.js';
import { computeCoverage, isCovered, type ListCoverage } from './replay/coverage.js';
import { ApiRequest } from './api/request.js';
import type { ActionModule } from './api/action-module.js';
import type { QueryModules } from './api/query.js';
import { runQuery } from './api/query.js';
import { blocks } from './modules/blocks.js';
import { extlinks } from './modules/extlinks.js';
import { logevents } from './modules/logevents.js';
import { parse } from './modules/parse.js';
import { protectedtitles } from './modules/protectedtitles.js';
import { spamblacklist } from './modules/spamblacklist.js';
import { userinfo } from './modules/userinfo.js';
import { siteinfo } from './modules/siteinfo.js';
import { render, type Rendered } from './output/render.js';
import { parseBody } from './request/body.js';
import { mergeParams, parseUrlEncoded, type ParamMap } from './request/params.js';
import type { Interaction } from './cassette/format.js';
import type { WikiModel } from './wiki/model.js';
import type { WikiProfile } from './wiki/profile.js';
import type { Source } from './options.js';
import { canonicalKey } from './request/canonical.js';
import type { CassetteIndex } from './replay/cassette-index.js';
import { recordedOutcome } from './replay/render-recorded.js';
import { MARKS, makeTemplate, type HitTemplate } from './replay/hit-template.js';
import { isFrozenBytes } from './output/json.js';

/** One HTTP request to api.php, as the engine needs it. */
export interface HttpRequest {
  method: string;
  /** Path and query as received (`/wiki/api.php?action=…`). */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** When handling started (process.hrtime.bigint()), for debuginfo `time`. */
  startedAt: bigint;
}

export const QUERY_MODULES: QueryModules = {
  prop: [extlinks],
  list: [logevents, blocks, protectedtitles],
  meta: [userinfo, siteinfo],
};

const query: ActionModule = {
  name: 'query',
  params: () => ({}),
  execute: (ctx) => runQuery(ctx, QUERY_MODULES),
};

export const ACTION_MODULES: readonly ActionModule[] = [query, parse, spamblacklist];

/** An answer and where it came from. */
export interface Answer extends Rendered {
  source: Source;
  /** The canonical key of the question (for logs). */
  key: string;
}

/**
 * Replay: answers each api.php request from the recorded cassettes when the exact question
 * was recorded, else from the built-in modules over the model (fixtures plus harvested entities).
 */
export class ReplayEngine {
  constructor(
    readonly profile: WikiProfile,
    readonly model: WikiModel,
    /** The clock ("now" in ms). */
    readonly now: () => number,
    readonly cassettes?: CassetteIndex,
    readonly onMiss: 'builtin' | 'error' = 'builtin',
  ) {
  }

  /** Keys (and `list:<module>` for synthesized answers) that answered, for `--track-usage`. */
  readonly used = new Set<string>();

  private coverageMap: Map<string, ListCoverage> | undefined;

  /**
   * Lists the cassettes hold complete walks of (see replay/coverage.ts), worked out when first
   * needed: cassette hits never need it, and it reads every recorded list page.
   */
  get coverage(): Map<string, ListCoverage> {
    this.coverageMap ??= this.cassettes ? computeCoverage(this.cassettes.interactions.values((k) => k.includes('list='))) : new Map();
    return this.coverageMap;
  }

  /** Closes the cassette files kept open for reading. */
  close(): void {
    this.cassettes?.interactions.close();
  }

  private readonly encoded = new WeakMap<Interaction, Map<string, Buffer>>();

  /**
   * The printing cache of a recorded answer: its data only changes with what the request adds to
   * it (requestid, curtimestamp, the spelling of titles), so those requests print afresh.
   */
  private encodedFor(i: Interaction, params: ParamMap): { encoded?: Map<string, Buffer> } {
    if (params.has('requestid') || params.has('curtimestamp') || params.has('titles')) return {};
    let m = this.encoded.get(i);
    if (!m) this.encoded.set(i, (m = new Map()));
    return { encoded: m };
  }

  /** Whether a GET with this query string is answered from a cassette (the hot path's test). */
  isHit(query: string): boolean {
    return this.keyOfQuery(query) !== null;
  }

  /** Canonical keys of recorded GET query strings, remembered (tests repeat the same URLs). */
  private readonly hitKeys = new Map<string, string | null>();

  /** The canonical key of a GET query string when the cassettes hold it, else null. */
  private keyOfQuery(query: string): string | null {
    if (!this.cassettes || this.cassettes.interactions.size === 0) return null;
    let key = this.hitKeys.get(query);
    if (key === undefined) {
      const k = canonicalKey(parseUrlEncoded(query));
      key = this.cassettes.interactions.has(k) ? k : null;
      if (this.hitKeys.size >= 10_000) this.hitKeys.clear();
      this.hitKeys.set(query, key);
    }
    return key;
  }

  /** Printed cassette hits by exact request (URL and headers), oldest first; see hit-template.ts. */
  private readonly templates = new Map<string, HitTemplate>();
  private templateBytes = 0;
  /** Bytes the kept templates may own (recorded data is shared with the printing cache). */
  templateBudget = 256 << 20;

  /**
   * The template of a GET that a cassette answers, made on first use; null when the request is
   * not a hit or is answered otherwise (cookies make a session, curtimestamp changes the data).
   */
  hitTemplate(url: string, headers: IncomingHttpHeaders, rawHeaders: readonly string[]): HitTemplate | null {
    const cacheKey = rawHeaders.length === 0 ? url : `${url}\n${rawHeaders.join('\n')}`;
    const now = this.now();
    const kept = this.templates.get(cacheKey);
    if (kept && (kept.second === null || kept.second === Math.floor(now / 1000))) return kept;
    if (kept) this.dropTemplate(cacheKey, kept);
    if (headers.cookie !== undefined || cacheKey.includes('wikitapemark')) return null;
    const q = url.indexOf('?');
    const query = q < 0 ? '' : url.slice(q + 1);
    const key = this.keyOfQuery(query);
    const recorded = key === null ? undefined : this.cassettes?.interactions.get(key);
    if (key === null || !recorded) return null;
    const params = parseUrlEncoded(query);
    if (params.has('curtimestamp')) return null;
    const outcome = recordedOutcome(recorded, params, this.profile, now);
    const http = { method: 'GET', url, headers, params, startedAt: process.hrtime.bigint() };
    const rendered = render({ profile: this.profile, outcome, http, now, marks: MARKS, ...this.encodedFor(recorded, params) });
    const clocked = rendered.headers.some(([k, v]) => k === 'Expires' && !v.startsWith('Thu, 01 Jan 1970'));
    const t = makeTemplate(rendered, { key, userLang: outcome.userLang, source: 'cassette', second: clocked ? Math.floor(now / 1000) : null, shared: isFrozenBytes });
    if (t.ownBytes > this.templateBudget) return t;
    for (const [k, old] of this.templates) {
      if (this.templateBytes + t.ownBytes <= this.templateBudget) break;
      this.dropTemplate(k, old);
    }
    this.templates.set(cacheKey, t);
    this.templateBytes += t.ownBytes;
    return t;
  }

  private dropTemplate(cacheKey: string, t: HitTemplate): void {
    this.templates.delete(cacheKey);
    this.templateBytes -= t.ownBytes;
  }

  handle(req: HttpRequest): Answer {
    const lossy = new Set<string>();
    const q = req.url.indexOf('?');
    const get = parseUrlEncoded(q < 0 ? '' : req.url.slice(q + 1), new Map(), lossy);
    const post = parseBody(req.method, req.headers['content-type'], req.body, lossy);
    const params = mergeParams(get, post);
    const now = this.now();
    const query = q < 0 ? '' : req.url.slice(q + 1);
    const key = (post.size === 0 ? this.keyOfQuery(query) : null) ?? canonicalKey(params);
    const recorded = this.cassettes?.interactions.get(key);
    const http = { ...req, params };
    if (recorded) {
      this.used.add(key);
      const outcome = recordedOutcome(recorded, params, this.profile, now);
      return { ...render({ profile: this.profile, outcome, http, now, ...this.encodedFor(recorded, params) }), source: 'cassette', key };
    }
    const env = { profile: this.profile, model: this.model, now, actions: ACTION_MODULES };
    const request = new ApiRequest(params, lossy);
    const source: Source = isCovered(params, this.coverage) ? 'synthesized' : 'builtin';
    if (source === 'synthesized') this.used.add(`list:${params.get('list')}`);
    if (source === 'builtin' && this.onMiss === 'error') {
      const upstream = this.cassettes?.upstream ?? 'URL';
      const miss = new ApiUsageError(apiMessage('wikitape-miss', 'wikitape-miss', [key, upstream]));
      return { ...render({ profile: this.profile, outcome: failWith(request, env, miss), http, now }), source: 'miss', key };
    }
    return { ...render({ profile: this.profile, outcome: runApi(request, env), http, now }), source, key };
  }
}
