import { fileURLToPath } from 'node:url';
import type { SharedSessionState } from './api/session.js';
import type { FixtureFile } from './wiki/fixtures.js';
import type { WikiProfile } from './wiki/profile.js';

export const MODES = ['replay', 'record'] as const;
export type Mode = (typeof MODES)[number];

export const RECORD_MODES = ['new', 'all', 'none'] as const;
export type RecordMode = (typeof RECORD_MODES)[number];

export const SOURCES = ['cassette', 'synthesized', 'builtin', 'upstream', 'miss', 'fault'] as const;
export type Source = (typeof SOURCES)[number];

/** Options of `createApp` / `startServer`; the CLI maps its flags onto these. */
export interface WikitapeOptions {
  /** `replay` answers offline; `record` proxies to `upstream` and stores cassettes. Default `replay`. */
  mode?: Mode;
  /**
   * Folder of cassette files. Replay reads it only when given (then it must exist), or when
   * `cassetteNames` or `suites` name cassettes of `./cassettes`; record mode writes it. Default `./cassettes`.
   */
  cassettes?: string;
  /**
   * Fixture files (JSON) with wiki data for the built-in modules. Default none; given neither
   * fixtures, cassettes nor a model, replay serves the spec's wiki (DEFAULTS.wiki).
   */
  fixtures?: string[];
  /** Wiki data given directly, in a fixture file's shape (merged after the fixture files). Default none. */
  model?: FixtureFile;
  /** Profile fields that override what cassettes and fixtures say. Default none. */
  profile?: Partial<WikiProfile>;
  /**
   * "Now" for expiry and timestamps: `real`, `recorded`, or an ISO time. Default `recorded` when
   * cassettes hold recordings, the time of its data for the spec's wiki (DEFAULTS.wiki), else `real`.
   */
  clock?: string;
  /**
   * Replay: what answers a question whose answer would need something no recording shows: the
   * `wikitape-miss` error (`error`, the default: as VCR and Polly refuse an unmatched request), or
   * the built-in's best effort flagged with `X-Wikitape-Unknown` (`builtin`). Default `error`.
   */
  onMiss?: 'builtin' | 'error';
  /**
   * Record: the format of a cassette made new: pretty JSON (`<name>.json`, the default: small
   * cassettes kept in git) or a database (`<name>.sqlite`: big ones; docs/decisions/0018-database-cassettes.md).
   * A cassette already there keeps its own.
   */
  store?: 'json' | 'sqlite';
  /** Replay: a file that collects which recordings answered (for `cassettes prune`); merged with what it holds. Default none. */
  trackUsage?: string;
  /**
   * Replay: the processes this one serves the same cassettes with (`--workers N`, `--state-socket`):
   * the key session cookies are signed with, and the shared write log and logouts of each engine
   * (`scope`: a suite's cassette names joined by commas, '' for the server's own).
   * Default: this process alone, with a key of its own (docs/decisions/0019-many-processes.md).
   */
  sharing?: { key: Buffer; state(scope: string): SharedSessionState };
  /** Called once per answered api.php request (the CLI prints it). Default none. */
  onRequest?: (entry: RequestLogEntry) => void;
  /**
   * Record mode: called with a line for each recording that could not be stored (the cassette file
   * and why). Default: the line is written to stderr. `flush()` and `close()` reject as well.
   */
  onError?: (message: string) => void;
  /** Port for `startServer`; 0 picks a free one. Default 8080 in the CLI, 0 in the library. */
  port?: number;
  /** Address to bind. Default `127.0.0.1`. */
  host?: string;
  /** Record mode: the live wiki's api.php URL, the only address wikitape then talks to. */
  upstream?: string;
  /** Record mode: the cassette to write (`<cassettes>/<name>.json`). Default `default`. */
  cassette?: string;
  /** Record mode: store again what is already recorded. Default false. Same as `recordMode: 'all'`. */
  reRecord?: boolean;
  /**
   * Record mode, in VCR's words: `new` answers what the cassette holds from it and asks the wiki
   * (and records) only the rest; `all` asks the wiki everything and stores every answer again;
   * `none` only replays. Default `new`.
   */
  recordMode?: RecordMode;
  /** Replay: only these cassettes of the folder (default: every one). */
  cassetteNames?: string[];
  /**
   * Replay: path prefixes that pick a set of cassettes, e.g. `{ "suite-a": ["a", "shared"] }`
   * answers `/suite-a/wiki/api.php` from those two only. `/<cassette>/wiki/api.php` picks that
   * one cassette without being listed here. Default none.
   */
  suites?: Record<string, string[]>;
  /**
   * Replay: faults to serve, each `NAME[:KEY=VALUE,…]` as `--fault` takes them (`maxlag:lag=7`,
   * `readonly:rate=0.2,seed=1`, `503:first=3`); see the README's "A bot's bad days". One request
   * can ask for its own with the `X-Wikitape-Fault` header. Default none.
   */
  faults?: string[];
  /** Record mode: how long to wait for the upstream, in ms. Default 30 000. */
  upstreamTimeoutMs?: number;
}

/** One answered request, for logs. */
export interface RequestLogEntry {
  method: string;
  /** The canonical key (the question without rendering parameters). */
  key: string;
  source: Source;
  status: number;
  /** Handling time in milliseconds. */
  ms: number;
  /** Record mode: why the answer was passed on without being recorded (`action=login is not a read action`). */
  note?: string;
  /** A miss: the recorded questions closest to this one, and how each differs (`lelimit 7 ≠ 10`, `+ meta=userinfo`). */
  nearMisses?: { key: string; differences: string[] }[];
}

/**
 * The defaults of the options. `cassettes` is the folder record mode writes (and the cassettes
 * commands read); replay reads it only when asked to (`cassettes`, `cassetteNames`, `suites`).
 * `wiki` is what replay serves when it is given nothing to serve (no cassettes, fixtures or model):
 * the wiki the spec describes (docs/spec/wiki-query-api.md), MediaWiki 1.44 in Russian
 * (fixtures/spec-wiki.json, made by scripts/spec-wiki.mjs), answering as of the time its data was
 * taken, so that it answers the same any day (its blocks do not expire under it).
 */
export const DEFAULTS = {
  mode: 'replay',
  cassettes: './cassettes',
  host: '127.0.0.1',
  wiki: {
    fixtures: [fileURLToPath(new URL('../fixtures/spec-wiki.json', import.meta.url))],
    clock: '2026-11-24T21:49:19Z',
  },
} as const satisfies Partial<WikitapeOptions> & { wiki: Pick<WikitapeOptions, 'fixtures' | 'clock'> };

/** What a replay server loaded at start (`RunningServer.sources`; the CLI says it on stderr). */
export interface LoadedSources {
  /** The cassette files read, each with how many interactions it holds (none: no cassettes). */
  cassettes: { file: string; interactions: number }[];
  /** The fixture files read, each with how many entries (pages and list entries) it holds. */
  fixtures: { file: string; entries: number }[];
  /** Whether wiki data was given directly (the `model` option). */
  model: boolean;
  /** True when nothing was given and the spec's wiki (DEFAULTS.wiki) is served. */
  defaultWiki: boolean;
  /** The clock it answers on: `real`, `recorded` (each recording as of its own time) or an ISO time. */
  clock: string;
}

/** What replay reads (see replaySources). */
export interface ReplaySources {
  /** The cassettes folder, or null: none. */
  cassettes: string | null;
  fixtures: readonly string[];
  /** The clock option, or the default wiki's own time. */
  clock: string | undefined;
  /** True when nothing was given and the default wiki (DEFAULTS.wiki) is served. */
  defaultWiki: boolean;
}

/**
 * The sources replay reads for these options: only what they name (a named suite or cassette
 * name reads the default folder); when they name nothing, the default wiki (DEFAULTS.wiki).
 */
export function replaySources(options: WikitapeOptions): ReplaySources {
  const { cassettes, fixtures, model, cassetteNames, suites, clock } = options;
  if (cassettes === undefined && fixtures === undefined && model === undefined && cassetteNames === undefined && suites === undefined) {
    return { cassettes: null, fixtures: DEFAULTS.wiki.fixtures, clock: clock ?? DEFAULTS.wiki.clock, defaultWiki: true };
  }
  const folder = cassettes ?? (cassetteNames !== undefined || suites !== undefined ? DEFAULTS.cassettes : null);
  return { cassettes: folder, fixtures: fixtures ?? [], clock, defaultWiki: false };
}
