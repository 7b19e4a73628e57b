import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Replay's session cookies, signed: the cookie itself says what the session is (its nonce, the
 * identity it is logged in as), with an HMAC of a key every process serving the cassettes shares.
 * So any process answers any session, and nothing about a session lives in one process's memory
 * but the sessions logged out (SharedSessionState). The key is made at start (or handed over by
 * the primary of `--workers N` or a `--state-socket` holder); it is never written anywhere
 * (docs/decisions/0019-many-processes.md).
 *
 * The value is base64url, so it is a well-formed MediaWiki session id (`^[a-zA-Z0-9_-]{32,}$`,
 * CookieSessionProvider): a tampered or foreign one is an unknown session, answered as MediaWiki
 * answers an id that is not in its store.
 */

/** Bytes of the signature kept in the cookie (24 base64url characters). */
const SIG_BYTES = 18;
const SIG_CHARS = 24;
const NONCE_BYTES = 16;
/** The cookie's first byte: its format, and whether an identity follows the nonce. */
const FORMAT = 1;

/** A session a signed cookie names. */
export interface SignedSession {
  /** The account it is logged in as (`Name`, `Name@bot`), or null: not logged in (it holds a login token's secret). */
  identity: string | null;
  /** Names the session (hex) in the list of sessions logged out; not secret without the key. */
  nonce: string;
  /** Its tokens' secret, derived from the key and the cookie: any process finds the same. */
  secret: Buffer;
}

/** A key for session cookies: 32 random bytes. */
export function newSessionKey(): Buffer {
  return randomBytes(32);
}

/** Signs and reads the session cookies of one engine (`scope`: its suite, so one suite's cookie is no session of another's). */
export class SessionSigner {
  constructor(
    private readonly key: Buffer,
    private readonly scope: string,
  ) {}

  private mac(label: string, payload: Buffer): Buffer {
    return createHmac('sha256', this.key).update(`${label}\0${this.scope}\0`).update(payload).digest();
  }

  /** A new session's cookie value and what it names. */
  mint(identity: string | null): [string, SignedSession] {
    const nonce = randomBytes(NONCE_BYTES);
    const name = identity === null ? Buffer.alloc(0) : Buffer.from(identity, 'utf8');
    const payload = Buffer.concat([Buffer.from([FORMAT | (identity === null ? 0 : 2)]), nonce, name]);
    const value = payload.toString('base64url') + this.mac('cookie', payload).subarray(0, SIG_BYTES).toString('base64url');
    return [value, { identity, nonce: nonce.toString('hex'), secret: this.mac('tokens', payload).subarray(0, 16) }];
  }

  /** The session a cookie value names, or null: not one of ours (tampered, foreign, another key's or another suite's). */
  read(value: string): SignedSession | null {
    if (value.length < SIG_CHARS + 23 || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
    const body = value.slice(0, -SIG_CHARS);
    const payload = Buffer.from(body, 'base64url');
    // One encoding per payload: a value that decodes the same but is spelled otherwise is not ours.
    if (payload.toString('base64url') !== body || payload.length < 1 + NONCE_BYTES) return null;
    const sig = Buffer.from(value.slice(-SIG_CHARS), 'base64url');
    if (sig.length !== SIG_BYTES || !timingSafeEqual(sig, this.mac('cookie', payload).subarray(0, SIG_BYTES))) return null;
    const flags = payload[0]!;
    if ((flags & 1) !== FORMAT) return null;
    const identity = flags & 2 ? payload.subarray(1 + NONCE_BYTES).toString('utf8') : null;
    return { identity, nonce: payload.subarray(1, 1 + NONCE_BYTES).toString('hex'), secret: this.mac('tokens', payload).subarray(0, 16) };
  }
}
