/**
 * The result under construction, in formatversion=2 shape (real booleans, content keys under
 * their own names). Key order follows ApiResult: new keys are appended, "on top" writes
 * (continue, batchcomplete, the first warnings/errors) go to the front.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export class ApiResult {
  data: JsonObject = {};

  /** Appends (or replaces in place) a top-level key. */
  add(key: string, value: Json): void {
    this.data[key] = value;
  }

  /** Puts a key first (ApiResult::ADD_ON_TOP); an existing key moves to the front. */
  addOnTop(key: string, value: Json): void {
    const rest = { ...this.data };
    delete rest[key];
    this.data = { [key]: value, ...rest };
  }

  get(key: string): Json | undefined {
    return this.data[key];
  }

  /** The `query` object, created at the end when first needed. */
  query(): JsonObject {
    let q = this.data['query'];
    if (!q || typeof q !== 'object' || Array.isArray(q)) {
      q = {};
      this.data['query'] = q;
    }
    return q;
  }

  /**
   * ApiResult::addParsedLimit: `limits` goes after `query` when that exists, else before it
   * (it is simply appended at the moment the limit is parsed).
   */
  addParsedLimit(moduleName: string, limit: number): void {
    const limits = (this.data['limits'] as JsonObject | undefined) ?? {};
    limits[moduleName] = limit;
    this.data['limits'] = limits;
  }

  /** Empties the result, as ApiResult::reset() before an error is written. */
  reset(): void {
    this.data = {};
  }
}

export function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
