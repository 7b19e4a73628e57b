/**
 * A message parameter as the API keeps it. `plaintext` and `num` mirror MediaWiki's
 * Message::plaintextParam()/numParam(): they show as such in `errorformat=raw`.
 */
export type MessageParam =
  | string
  | number
  | { plaintext: string }
  | { num: number | '' }
  | {
      list: readonly string[];
      type?: 'comma' | 'text';
      plaintextItems?: boolean;
      /** The items are numbers (namespace ids): errorformat=raw prints them as numbers. */
      numericItems?: boolean;
      /**
       * The items' keys in the PHP array when they are not 0…n-1 (an array_diff keeps them):
       * 1.39's errorformat=raw prints such a list as an object, `{"4":"foo"}`.
       */
      keys?: readonly number[];
    };

/** A message as the API carries it: a key, its parameters, an API code and optional data. */
export interface ApiMessage {
  /** The API code (`badvalue`, `unrecognizedvalues` …). */
  code: string;
  /** The i18n message key. */
  key: string;
  params: readonly MessageParam[];
  /** Extra API data (`limit`, `lowlimit` …), merged into BC errors and shown as `data` otherwise. */
  data?: Record<string, unknown>;
}

/** A warning as recorded by a module: the message plus the module path that raised it. */
export interface ApiWarning extends ApiMessage {
  /** Module path: `main`, `query`, `query+logevents`, `parse` … */
  module: string;
}

/**
 * An error that ends the request with MediaWiki's error shape (ApiUsageException).
 * `status` is the HTTP status; MediaWiki answers 200 for nearly all of them.
 */
export class ApiUsageError extends Error {
  readonly code: string;
  readonly key: string;
  readonly params: readonly MessageParam[];
  readonly data: Record<string, unknown> | undefined;
  readonly module: string;
  readonly status: number;
  /** Extra response headers (maxlag's Retry-After and X-Database-Lag). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    msg: ApiMessage,
    module = 'main',
    options: { status?: number; headers?: Record<string, string> } = {},
  ) {
    super(`${msg.code}: ${msg.key}`);
    this.name = 'ApiUsageError';
    this.code = msg.code;
    this.key = msg.key;
    this.params = msg.params;
    this.data = msg.data;
    this.module = module;
    this.status = options.status ?? 200;
    this.headers = options.headers ?? {};
  }

  withModule(module: string): ApiUsageError {
    return new ApiUsageError(this, module, { status: this.status, headers: { ...this.headers } });
  }
}

/** Shorthand for an ApiMessage. */
export function apiMessage(
  code: string,
  key: string,
  params: readonly MessageParam[] = [],
  data?: Record<string, unknown>,
): ApiMessage {
  return data === undefined ? { code, key, params } : { code, key, params, data };
}

/**
 * What `X-Wikitape-Unknown` names when an answer is an error of wikitape's own in place of the
 * wiki's: a computation that threw (a bug; `internal_api_error_<Class>`), or replay that could not
 * start or read a recording (`wikitape-setup`). Never a miss on its own: no recording is missing
 * (docs/decisions/0024-wikitapes-own-failures.md).
 */
export const WIKITAPE_INTERNAL = 'wikitape.internal';
