/**
 * Walks a question to its end through its own continuation (`formatversion=2`), as a client
 * crawling a wiki does: one answer per page (at most `most`: a client that reads no further).
 * Used by the live tests to record crawls.
 */
export async function crawl(base: string, params: Record<string, string>, most = 200): Promise<Record<string, any>[]> {
  const pages: Record<string, any>[] = [];
  let cont: Record<string, string> = {};
  for (let i = 0; i < most; i++) {
    const body = (await (await fetch(`${base}?${new URLSearchParams({ format: 'json', formatversion: '2', ...params, ...cont })}`)).json()) as Record<string, any>;
    pages.push(body);
    if (!body['continue']) break;
    cont = body['continue'];
  }
  return pages;
}
