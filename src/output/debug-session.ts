import type { SessionOutcome } from './session.js';

/**
 * The session and cookie lines of debuginfo's debug log (SessionManager, SessionBackend and
 * WebResponse::setCookie on a wiki where no session is ever stored): for a request without a
 * session cookie, and for one whose session id is well formed but unknown (it is reset).
 */
const SESSION_DIRTY_TRACE =
  'MediaWiki\\Session\\SessionManager->getSessionForRequest/MediaWiki\\Session\\SessionManager->getInitialSession/MediaWiki\\Session\\Session->getToken/MediaWiki\\Session\\Session->set/MediaWiki\\Session\\SessionBackend->dirty';

function cookieLine(kind: 'setcookie' | 'already deleted' | 'already set', name: string, value: string, expire: string, secure: boolean): string {
  const prefix = kind === 'setcookie' ? 'setcookie' : `${kind} setcookie`;
  return `[cookie] ${prefix}: "${name}", "${value}", "${expire}", "/", "", "${secure ? '1' : ''}", "1", ""`;
}

export function sessionLines(cookiePrefix: string, https: boolean, expiredMark: string | undefined, session: SessionOutcome, nowMs: number): string[] {
  const p = cookiePrefix;
  const names = [`${p}_session`, `${p}UserID`, `${p}Token`, 'forceHTTPS'];
  const secure = https;
  const expired = expiredMark ?? String(Math.floor(nowMs / 1000) - 365 * 86400);
  const sid = session.sessionId;
  const out: string[] = [];
  const sent = new Set(session.sentCookies);
  if (session.persistent && session.requestedId !== undefined) {
    const old = session.requestedId;
    out.push(
      `[session] Session "${old}" requested without UserID cookie`,
      `[session] SessionBackend "${old}" is unsaved, marking dirty in constructor`,
      `[session] SessionBackend "${sid}" metadata dirty due to ID reset (formerly "${old}")`,
      `[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=1 forcePersist=0`,
      '[session] Persisting session due to no pre-existing stored session',
    );
    const deleted = new Set<string>();
    for (let round = 0; round < 3; round++) {
      if (round === 1) out.push(`[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=1 forcePersist=0`);
      out.push(cookieLine(round === 0 ? 'setcookie' : 'already set', names[0]!, sid, '0', secure));
      for (const n of names.slice(1)) {
        if (n === 'forceHTTPS' && session.forceHTTPS) {
          out.push(cookieLine(round === 0 ? 'setcookie' : 'already set', n, 'true', '0', false));
          continue;
        }
        const first = sent.has(n) && !deleted.has(n);
        if (first) deleted.add(n);
        out.push(cookieLine(first ? 'setcookie' : 'already deleted', n, '', expired, n === 'forceHTTPS' ? false : secure));
      }
    }
    out.push(`[session] SessionBackend "${sid}" Taking over PHP session`);
    return out;
  }
  out.push(
    `[session] SessionBackend "${sid}" is unsaved, marking dirty in constructor`,
    `[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=1 forcePersist=0`,
  );
  for (const n of names) {
    out.push(cookieLine(sent.has(n) ? 'setcookie' : 'already deleted', n, '', expired, n === 'forceHTTPS' ? false : secure));
  }
  out.push(
    `[session] SessionBackend "${sid}" data dirty due to dirty(): ${SESSION_DIRTY_TRACE}`,
    `[session] SessionBackend "${sid}" save: dataDirty=1 metaDirty=0 forcePersist=0`,
  );
  return out;
}
