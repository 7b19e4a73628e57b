import type { ServerResponse } from 'node:http';

/**
 * The answer when the upstream wiki fails (refused, timed out, 5xx, not JSON, cut off): a
 * MediaWiki-shaped error with status 502; nothing is recorded.
 */
export function sendUpstreamError(res: ServerResponse, reason: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({
    error: {
      code: 'wikitape-upstream',
      info: `wikitape could not get a usable answer from the upstream wiki (${reason}); nothing was recorded. Check that the wiki behind --upstream answers, then try again.`,
    },
  });
  res.writeHead(502, {
    'Content-Type': 'application/json; charset=utf-8',
    'MediaWiki-API-Error': 'wikitape-upstream',
    'X-Wikitape-Source': 'upstream',
    'Cache-Control': 'private, must-revalidate, max-age=0',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
