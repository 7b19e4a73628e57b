/**
 * Which strings were seen before, within a bounded memory: two generations of a set, the older
 * dropped whole when the newer fills (by characters, not by count: distinct huge strings must not
 * pile up). A string counts as seen while it is in either generation, so one seen within the last
 * `chars` characters of distinct strings is always found; older ones may be forgotten.
 */
export class SeenBefore {
  private current = new Set<string>();
  private previous = new Set<string>();
  private currentChars = 0;
  private previousChars = 0;

  /** @param chars Characters one generation holds (two are kept). */
  constructor(private readonly chars: number) {}

  /** Whether `s` was seen before; notes it as seen either way. */
  check(s: string): boolean {
    if (this.current.has(s)) return true;
    const seen = this.previous.has(s);
    if (s.length > this.chars) return seen;
    if (this.currentChars + s.length > this.chars) {
      this.previous = this.current;
      this.previousChars = this.currentChars;
      this.current = new Set();
      this.currentChars = 0;
    }
    this.current.add(s);
    this.currentChars += s.length;
    return seen;
  }

  /** Characters held by both generations together (at most twice the constructor's `chars`). */
  get heldChars(): number {
    return this.currentChars + this.previousChars;
  }
}
