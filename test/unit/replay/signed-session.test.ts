import { describe, expect, it } from 'vitest';
import { newSessionKey, SessionSigner } from '../../../src/replay/signed-session.js';

describe('signed session cookies', () => {
  const key = newSessionKey();
  const signer = new SessionSigner(key, '');

  it('are read back by any signer with the same key and scope: identity, nonce and token secret', () => {
    for (const identity of [null, 'Admin', 'Admin@wikitape', 'Ёжик в тумане@bot']) {
      const [value, minted] = signer.mint(identity);
      // A well-formed MediaWiki session id (CookieSessionProvider: ^[a-zA-Z0-9_-]{32,}$).
      expect(value).toMatch(/^[A-Za-z0-9_-]{32,}$/);
      const read = new SessionSigner(key, '').read(value);
      expect(read).toEqual(minted);
      expect(read!.identity).toBe(identity);
    }
  });

  it('give every session its own nonce and token secret', () => {
    const [, a] = signer.mint('Admin');
    const [, b] = signer.mint('Admin');
    expect(a.nonce).not.toBe(b.nonce);
    expect(a.secret.equals(b.secret)).toBe(false);
  });

  it('are no session when changed anywhere, signed with another key, of another scope, or not ours at all', () => {
    const [value] = signer.mint('Admin@wikitape');
    for (let i = 0; i < value.length; i++) {
      const c = value[i] === 'A' ? 'B' : 'A';
      expect(signer.read(`${value.slice(0, i)}${c}${value.slice(i + 1)}`)).toBeNull();
    }
    expect(signer.read(value.slice(0, -1))).toBeNull();
    expect(signer.read(`${value}A`)).toBeNull();
    expect(new SessionSigner(newSessionKey(), '').read(value)).toBeNull();
    expect(new SessionSigner(key, 'other-suite').read(value)).toBeNull();
    for (const junk of ['', 'deleted', '0123456789abcdefghijklmnopqrstuv', 'a'.repeat(200), 'ab.cd+ef/gh==']) expect(signer.read(junk)).toBeNull();
  });

  it('never hold the key', () => {
    const [value] = signer.mint('Admin');
    const raw = Buffer.from(value, 'base64url');
    expect(raw.includes(key)).toBe(false);
    expect(value).not.toContain(key.toString('base64url'));
  });
});
