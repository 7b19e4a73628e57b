import { ARRAY_VALUE, type ParamMap } from '../request/params.js';
import { cleanUp } from './unicode.js';

/**
 * The parameters of one API call, as ApiMain sees them: lookups mark a parameter as used
 * (what is never looked up ends as an "Unrecognized parameter" warning), values are
 * Unicode-cleaned, and `$wgRequest->getCheck()` semantics back the presence booleans.
 */
export class ApiRequest {
  readonly used = new Set<string>();
  /** Parameters read that were sent in PHP array syntax (`list[]=…`): ApiMain::getVal warns of each when it reads it. */
  readonly arrays = new Set<string>();
  /** Told of each such parameter when it is first read (runApi adds the warning then, in MediaWiki's order). */
  onArray: ((name: string) => void) | null = null;

  private sawArray(name: string): void {
    if (this.arrays.has(name)) return;
    this.arrays.add(name);
    this.onArray?.(name);
  }

  /**
   * @param params merged parameters (`$_POST + $_GET`)
   * @param lossy names whose raw bytes were not valid UTF-8 (their value was cleaned already)
   */
  constructor(
    readonly params: ParamMap,
    readonly lossy: ReadonlySet<string> = new Set(),
    /**
     * How it came: POSTed or not, the names in its query string (ApiMain's POST checks), and its
     * `Accept-Language` header (`meta=userinfo&uiprop=acceptlang` shows the caller's own).
     */
    readonly http: { posted: boolean; queryNames: ReadonlySet<string>; acceptLanguage?: string } = { posted: false, queryNames: new Set(params.keys()) },
  ) {}

  /** The cleaned value, or undefined when absent. Marks the name as used. */
  get(name: string): string | undefined {
    this.used.add(name);
    const v = this.params.get(name);
    // ApiMain::getVal: an array is no value (the default applies), and the caller is told.
    if (v === ARRAY_VALUE) this.sawArray(name);
    if (v === undefined || v === ARRAY_VALUE) return undefined;
    return cleanUp(v);
  }

  /** The value without Unicode clean-up (multi-values keep their U+001F). */
  raw(name: string): string | undefined {
    this.used.add(name);
    const v = this.params.get(name);
    if (v === ARRAY_VALUE) this.sawArray(name);
    return v === ARRAY_VALUE ? undefined : v;
  }

  /** True when the cleaned value differs from what was sent (apiwarn-badutf8). */
  wasNormalized(name: string): boolean {
    const v = this.params.get(name);
    if (v === undefined || v === ARRAY_VALUE) return false;
    if (this.lossy.has(name)) return true;
    if (v.startsWith('\u001f')) return v.split('\u001f').some((p) => cleanUp(p) !== p);
    return cleanUp(v) !== v;
  }

  /** Presence boolean (`WebRequest::getCheck`): any value, even `0` or empty, means true; an array (`name[]=…`) is no value. */
  check(name: string): boolean {
    this.used.add(name);
    const v = this.params.get(name);
    return v !== undefined && v !== ARRAY_VALUE;
  }

  has(name: string): boolean {
    return this.params.has(name);
  }

  /** Request parameters that no module looked at, in request order. */
  unused(): string[] {
    return [...this.params.keys()].filter((k) => !this.used.has(k));
  }
}
