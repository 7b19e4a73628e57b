import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import type { WikiProfile } from '../../src/wiki/profile.js';

export const MINI_WIKI = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'mini-wiki.json');

/** "Now" for tests: after every fixture entry, before any fixture expiry in 2099. */
export const TEST_CLOCK = '2024-03-10T00:00:00Z';

/** An empty cassettes folder: tests about the built-in wiki alone point replay at it. */
export const NO_CASSETTES = join(tmpdir(), 'wikitape-no-cassettes');
mkdirSync(NO_CASSETTES, { recursive: true });

/**
 * A supertest agent on the built-in wiki with the mini-wiki fixture (profile 1.39.17 unless
 * overridden), serving what it flags (`onMiss: 'builtin'`): these tests check the built-in's
 * answers and flags themselves, not the miss a default replay makes of a flagged one.
 */
export function builtin(profile: Partial<WikiProfile> = {}) {
  // No cassettes: these tests are about the built-in wiki alone.
  return request(createApp({ fixtures: [MINI_WIKI], clock: TEST_CLOCK, profile, cassettes: NO_CASSETTES, onMiss: 'builtin' }));
}

/** GET api.php with the given parameters and format=json (unless `format` is given). */
export async function api(params: Record<string, string>, profile: Partial<WikiProfile> = {}) {
  const res = await builtin(profile).get('/wiki/api.php').query({ format: 'json', ...params });
  return res;
}

/** The JSON body without debuginfo. */
export function data(res: { text: string }): Record<string, unknown> {
  const j = JSON.parse(res.text) as Record<string, unknown>;
  delete j['debuginfo'];
  return j;
}
