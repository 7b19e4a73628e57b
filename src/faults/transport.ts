import type { ArmedFault } from './spec.js';

/**
 * Faults of the way to the wiki rather than of the wiki: the error pages a wiki's front caches
 * send (503 when the backends are down, 429 when a client sends too much), latency, a connection
 * reset before any answer, an answer cut off in the middle of its body.
 */
export interface TransportFaults {
  /** Milliseconds to wait before answering (latency faults that fired, added up). */
  delayMs: number;
  /** The fault that ends the request without an answer (a reset). */
  reset: string | null;
  /** A front cache's error page sent instead of the API's answer. */
  page: { fault: string; status: 503 | 429; headers: Record<string, string>; body: string } | null;
  /** Send only this share of the answer's body (its full Content-Length announced), then close. */
  cutoff: { fault: string; at: number } | null;
}

const TRANSPORT = new Set(['503', '429', 'latency', 'reset', 'cutoff']);

/** Which transport faults fire on a request (each counts only the requests its `match` lets through). */
export function transportFaults(faults: readonly ArmedFault[], params: ReadonlyMap<string, string>): TransportFaults {
  const out: TransportFaults = { delayMs: 0, reset: null, page: null, cutoff: null };
  for (const f of faults) {
    const { name, options, header: text } = f.spec;
    if (!TRANSPORT.has(name) || !f.matches(params) || !f.fires()) continue;
    if (name === 'latency') out.delayMs += latencyOf(options['ms']!, f);
    else if (out.reset || out.page || out.cutoff) continue; // the first of these that fires decides
    else if (name === 'reset') out.reset = text;
    else if (name === 'cutoff') out.cutoff = { fault: text, at: Number(options['at'] ?? 0.5) };
    else out.page = { fault: text, ...errorPage(name === '503' ? 503 : 429, options['retry-after'] ?? '5') };
  }
  return out;
}

/** `ms=N`, or `ms=MIN-MAX`: uniform in that range, from the fault's seeded sequence. */
function latencyOf(ms: string, f: ArmedFault): number {
  const [lo, hi] = ms.split('-').map(Number) as [number, number | undefined];
  return hi === undefined ? lo : Math.round(Math.min(lo, hi) + f.next() * Math.abs(hi - lo));
}

/**
 * The page a Wikimedia-style front cache (Varnish / Apache Traffic Server) sends when it cannot
 * get an answer (503) or refuses one (429): HTML, not the API's JSON, with Retry-After. Modelled
 * on Wikimedia's error page; no real front cache was at hand to compare it with.
 */
function errorPage(status: 503 | 429, retryAfter: string): { status: 503 | 429; headers: Record<string, string>; body: string } {
  const reason = status === 503 ? 'Service Unavailable' : 'Too Many Requests';
  const text =
    status === 503
      ? 'Our servers are currently under maintenance or experiencing a technical problem. Please <a href="" title="Reload this page" onclick="window.location.reload(false); return false">try again</a> in a few&nbsp;minutes.'
      : 'Too many requests. Please slow down and try again in a few&nbsp;minutes.';
  const body = `<!DOCTYPE html>
<html lang="en">
<meta charset="utf-8">
<title>Wikimedia Error</title>
<style>
* { margin: 0; padding: 0; }
body { background: #fff; font: 15px/1.6 sans-serif; color: #333; }
.content { margin: 7% auto 0; padding: 2em 1em 1em; max-width: 640px; }
.footer { clear: both; margin-top: 14%; border-top: 1px solid #e5e5e5; background: #f9f9f9; padding: 2em 0; font-size: 0.8em; text-align: center; }
h1 { font-weight: normal; font-size: 2.2em; padding-bottom: 0.4em; }
</style>
<div class="content" role="main">
<h1>Error</h1>
<p>${text}</p><p>See the error message at the bottom of this page for more&nbsp;information.</p>
</div>
<div class="footer"><p>If you report this error to the Wikimedia System Administrators, please include the details below.</p><p class="text-muted"><code>Request served via cp0000 cp0000, Varnish XID 0<br>Upstream caches: cp0000 int<br>Error: ${status}, ${reason} at ${new Date().toUTCString()}</code></p>
</div>
</html>
`;
  return {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Retry-After': retryAfter, 'Cache-Control': 'private, s-maxage=0, max-age=0, must-revalidate' },
    body,
  };
}
