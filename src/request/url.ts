/**
 * The request URL as MediaWiki sees it (WebRequest::getGlobalRequestURL), for the HTML page's
 * links and debuginfo: an absolute-form request line (`GET http://host/wiki/api.php?… HTTP/1.1`)
 * loses its scheme and host, leading slashes collapse to one, a fragment is dropped.
 */
export function globalRequestUrl(url: string): string {
  const hash = url.indexOf('#');
  const base = hash >= 0 ? url.slice(0, hash) : url;
  if (base.startsWith('/')) return base.replace(/^\/+/, '/');
  return base.replace(/^[^:]+:\/\/[^/]+\/+/, '/');
}
