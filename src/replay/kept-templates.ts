import { SeenBefore } from '../util/seen-before.js';
import type { HitTemplate } from './hit-template.js';

/** Templates are not kept for requests (URL and headers) longer than this, nor for answers larger than MAX_BYTES. */
const MAX_REQUEST = 32 << 10;
const MAX_BYTES = 4 << 20;
/** Characters of requests remembered as asked once, per generation (see SeenBefore). */
const SEEN_CHARS = 4 << 20;

/**
 * The hit templates (hit-template.ts) kept by exact request, within a memory budget. When the
 * budget is full, a template chosen at random makes room (a suite that walks through more questions
 * than fit, over and over, still finds most of them; dropping the oldest would find none).
 */
export class KeptTemplates {
  /** Each kept template by request, with its place in `requests` and the memory it holds. */
  private readonly byRequest = new Map<string, { t: HitTemplate; at: number; size: number }>();
  private readonly requests: string[] = [];
  private held = 0;
  /** Memory the kept templates may hold (their own bytes and objects; shared fragments not counted). */
  budget = 192 << 20;
  /**
   * The requests whose computed answer's template was made while the budget was full: such a
   * template then makes room from the second time its request is asked. A stream of distinct
   * computed questions (other limits, other continuation points, a `requestid` per request)
   * otherwise kept each answer in place of another, until it was dropped in turn: memory that
   * outlived V8's young generation, so every answer was promoted and collected by a full
   * collection (marked on V8's helper threads), costing the cores `--workers` needs.
   */
  private readonly askedBefore = new SeenBefore(SEEN_CHARS);

  /** Memory the kept templates hold. */
  get bytes(): number {
    return this.held;
  }

  get(request: string): HitTemplate | undefined {
    return this.byRequest.get(request)?.t;
  }

  /**
   * Keeps a template just made, for questions a suite repeats: not for huge requests or answers.
   * Once the budget is full, not for a computed answer asked once either (see askedBefore); a
   * recorded answer's is kept at once: the cassettes hold the suite's own questions, asked again
   * at each replay.
   */
  offer(request: string, t: HitTemplate, recorded: boolean): void {
    const size = t.ownBytes + request.length;
    if (size > this.budget || request.length > MAX_REQUEST || t.ownBytes > MAX_BYTES) return;
    const full = this.held + size > this.budget;
    if (full && !recorded && !this.askedBefore.check(request)) return;
    while (this.held + size > this.budget && this.requests.length > 0) {
      this.drop(this.requests[Math.floor(Math.random() * this.requests.length)]!);
    }
    this.byRequest.set(request, { t, at: this.requests.length, size });
    this.requests.push(request);
    this.held += size;
  }

  drop(request: string): void {
    const e = this.byRequest.get(request);
    if (!e) return;
    const last = this.requests.pop()!;
    if (last !== request) {
      this.requests[e.at] = last;
      this.byRequest.get(last)!.at = e.at;
    }
    this.byRequest.delete(request);
    this.held -= e.size;
  }
}
