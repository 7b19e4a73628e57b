import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/server.js';

// Record mode stores an answer without its debuginfo (most of the bytes on a wiki with
// $wgDebugToolbar) and learns the wiki's profile from it. The stored copy is parsed keeping key
// order; debuginfo comes from the plain parse that checked the answer before it was passed on.
// These answers are written as MediaWiki writes them (debuginfo last) and in shapes it does not
// write (a "debuginfo" key deeper down, members after debuginfo), where the whole text must be read.

/** siteinfo-style namespaces: integer-like keys, in PHP's order (JavaScript would list "0" first). */
const namespaces = '{"-2":{"id":-2,"name":"Media"},"-1":{"id":-1,"name":"Special"},"0":{"id":0,"name":""}}';
const debuginfo = (extra = '') => `{"mwVersion":"1.39.17","phpEngine":"PHP","phpVersion":"8.2.36",${extra}"includes":[{"name":"/srv/mw/api.php","size":"1 KB"}]}`;
const ANSWERS: Record<string, string> = {
  last: `{"batchcomplete":true,"query":{"namespaces":${namespaces}},"debuginfo":${debuginfo()}}`,
  // the request's echo holds a parameter named debuginfo: its key is the last one in the text
  nested: `{"batchcomplete":true,"query":{"namespaces":${namespaces}},"debuginfo":${debuginfo('"request":{"params":{"debuginfo":"1"}},')}}`,
  first: `{"debuginfo":${debuginfo()},"batchcomplete":true,"query":{"namespaces":${namespaces}}}`,
  // members after it: the text up to it, closed, is valid JSON, but lacks them
  middle: `{"batchcomplete":true,"debuginfo":${debuginfo()},"query":{"namespaces":${namespaces}}}`,
};

let upstream: Server;
let recorder: RunningServer;
let dir: string;
const errors: string[] = [];

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const shape = new URL(req.url ?? '/', 'http://x').searchParams.get('shape');
    const body = shape && shape in ANSWERS ? ANSWERS[shape]! : '{"batchcomplete":true,"query":{"general":{"generator":"MediaWiki 1.39.17","sitename":"T","lang":"en"}}}';
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  dir = await mkdtemp(join(tmpdir(), 'wikitape-record-debuginfo-'));
  const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/w/api.php`;
  recorder = await startServer({ mode: 'record', upstream: url, cassettes: dir, cassette: 'c', recordMode: 'all', onError: (m) => errors.push(m) });
});
afterAll(async () => {
  await recorder?.close();
  upstream?.close();
});

describe('record mode stores an answer without its debuginfo', () => {
  it.each(Object.keys(ANSWERS))('keeps the data and its key order, and learns the profile from debuginfo (debuginfo %s)', async (shape) => {
    const r = await fetch(`${recorder.url}?action=query&meta=siteinfo&siprop=namespaces&format=json&formatversion=2&shape=${shape}`);
    // the client gets the wiki's bytes as they are
    expect(await r.text()).toBe(ANSWERS[shape]);
    await recorder.flush();
    const text = await readFile(join(dir, 'c.json'), 'utf8');
    const cassette = JSON.parse(text) as { meta: { profile: Record<string, unknown> }; interactions: Array<{ key: string; body: unknown }> };
    const stored = cassette.interactions.find((i) => i.key.includes(`shape=${shape}`))!;
    expect(stored.body).toEqual({ batchcomplete: true, query: { namespaces: JSON.parse(namespaces) } });
    // PHP's order of the integer-like keys, as the wiki wrote them
    expect(text).toMatch(/"-2": \{[^]*"-1": \{[^]*"0": \{/);
    expect(text).not.toContain('mwVersion');
    expect(cassette.meta.profile).toMatchObject({ version: '1.39.17', runtimeVersion: '8.2.36', installPath: '/srv/mw', debugInfo: true });
  });
});
