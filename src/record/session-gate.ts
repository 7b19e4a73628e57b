/**
 * One session's requests reach the wiki one at a time where the recorder adds its own. MediaWiki
 * saves a session's data whole at the end of each request (SessionBackend::save), so two requests
 * of one session that overlap can lose what the first wrote: a csrf token's secret, made by the
 * client's `meta=tokens`, was lost to the recorder's own `meta=userinfo` asked at the same moment
 * in that session, and the client's edit then met `badtoken` (MediaWiki 1.43 behind PHP's server
 * with workers, about one recording in three). A client's own requests overlap only as the client
 * sends them; a question the recorder asks with a session's cookies (who it is, its rights, an
 * answer asked again as formatversion=2) waits until no request of the client's in that session is
 * at the wiki, and the client's next requests in it wait until that question is answered.
 * Sessions are told apart by their session cookies' values (identity.ts sessionIds), held in memory
 * only while a request is in flight.
 */
export class SessionGate {
  /** Per session id: the client's requests now at the wiki. */
  private readonly inFlight = new Map<string, number>();
  /** Per session id: the recorder's last question queued (settled, never rejected). */
  private readonly queued = new Map<string, Promise<void>>();
  /** Per session id: own questions waiting for the client's requests to end. */
  private readonly waiting = new Map<string, (() => void)[]>();

  /** Waits until no own question of these sessions is pending; resolves to `done`, called when the wiki has answered. */
  async client(ids: readonly string[]): Promise<() => void> {
    if (ids.length === 0) return () => undefined;
    for (;;) {
      const pending = this.pending(ids);
      if (pending.length === 0) break;
      await Promise.all(pending);
    }
    for (const id of ids) this.inFlight.set(id, (this.inFlight.get(id) ?? 0) + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      for (const id of ids) this.leave(id);
    };
  }

  /** Asks `ask` once no client request of these sessions is at the wiki (and after own questions queued before it). */
  own<T>(ids: readonly string[], ask: () => Promise<T>): Promise<T> {
    if (ids.length === 0) return ask();
    const before = this.pending(ids);
    const asked = (async () => {
      await Promise.all(before);
      await Promise.all(ids.map((id) => this.idle(id)));
      return ask();
    })();
    const settled = asked.then(
      () => undefined,
      () => undefined,
    );
    for (const id of ids) this.queued.set(id, settled);
    void settled.then(() => {
      for (const id of ids) if (this.queued.get(id) === settled) this.queued.delete(id);
    });
    return asked;
  }

  private pending(ids: readonly string[]): Promise<void>[] {
    const out: Promise<void>[] = [];
    for (const id of ids) {
      const p = this.queued.get(id);
      if (p) out.push(p);
    }
    return out;
  }

  private idle(id: string): Promise<void> {
    if (!this.inFlight.has(id)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.waiting.get(id);
      if (list) list.push(resolve);
      else this.waiting.set(id, [resolve]);
    });
  }

  private leave(id: string): void {
    const n = (this.inFlight.get(id) ?? 1) - 1;
    if (n > 0) {
      this.inFlight.set(id, n);
      return;
    }
    this.inFlight.delete(id);
    const list = this.waiting.get(id);
    this.waiting.delete(id);
    for (const resolve of list ?? []) resolve();
  }
}
