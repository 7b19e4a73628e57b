/// <reference lib="dom" />
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { LIVE_ONCE, LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/** The answer without `format` is a page a person reads: opened in a real (headless) Chromium. */
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

describe.runIf(LIVE_ONCE)('the HTML "API result" page in a browser', () => {
  it('shows the title, the advice to set format, and the pretty JSON', async () => {
    const wiki = await startServer({ cassettes: 'cassettes' });
    const browser = await chromium.launch({
      executablePath: process.env['CHROMIUM'] ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      // The page links ResourceLoader styles on the recorded wiki; nothing may leave this machine.
      await page.route('**/*', (route) => (route.request().url().startsWith(wiki.url) ? route.continue() : route.abort()));
      await page.goto(`${wiki.url}?action=query&list=logevents&lelimit=2`);
      expect(await page.title()).toBe('Результат MediaWiki API — Тестовая вики');
      const header = await page.locator('.api-pretty-header').innerText();
      expect(header).toContain('Это HTML-представление формата JSON');
      expect(await page.locator('.api-pretty-header a', { hasText: 'format=json' }).getAttribute('href')).toContain('format=json');
      const json = JSON.parse(await page.locator('pre.api-pretty-content').innerText()) as { query: { logevents: unknown[] } };
      expect(json.query.logevents).toHaveLength(2);
      await mkdir(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'api-result-page.png'), fullPage: false });
    } finally {
      await browser.close();
      await wiki.close();
    }
  });
});

/** What the eye sees of the page: the styles and boxes of its parts (the JSON itself differs: times, ports). */
async function looks(page: import('playwright-core').Page) {
  return page.evaluate(() => {
    const pick = (sel: string) => {
      const el = document.querySelector(sel);
      if (!el) return null;
      const s = getComputedStyle(el);
      const r = el.getBoundingClientRect();
      return {
        font: `${s.fontFamily} ${s.fontSize} ${s.lineHeight} ${s.fontWeight}`,
        color: s.color,
        background: s.backgroundColor,
        margin: s.margin,
        padding: s.padding,
        border: s.border,
        whiteSpace: s.whiteSpace,
        display: s.display,
        box: [Math.round(r.x), Math.round(r.y), Math.round(r.width)],
      };
    };
    return { body: pick('body'), heading: pick('#firstHeading'), content: pick('.mw-body'), header: pick('.api-pretty-header'), pre: pick('pre.api-pretty-content') };
  });
}

describe.each(LIVE_VERSIONS)('the HTML page beside MediaWiki %s\'s', (v) => {
  it('loads its styles from load.php (none missing) and looks the same: fonts, box, wrapping', async () => {
    const live = await liveWiki(v);
    const version = ((await (await fetch(`${live.apiUrl}?action=query&meta=siteinfo&format=json`)).json()) as { query: { general: { generator: string } } }).query.general.generator.replace('MediaWiki ', '');
    const wiki = await startServer({ cassettes: 'cassettes', profile: { version } });
    const browser = await chromium.launch({ executablePath: process.env['CHROMIUM'] ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    try {
      const shots: Record<string, unknown> = {};
      for (const [who, api] of [['live', live.apiUrl], ['wikitape', wiki.url]] as const) {
        const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
        const origin = new URL(api).origin;
        const failed: string[] = [];
        await page.route('**/*', (route) => (route.request().url().startsWith(origin) ? route.continue() : route.abort()));
        page.on('response', (r) => {
          if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
        });
        await page.goto(`${api}?action=query&list=logevents&lelimit=2&leprop=ids|title|type`, { waitUntil: 'networkidle' });
        expect(failed, who).toEqual([]);
        shots[who] = await looks(page);
        await mkdir(ARTIFACTS, { recursive: true });
        await page.screenshot({ path: join(ARTIFACTS, `api-page-${v}-${who}.png`) });
        await page.close();
      }
      expect(shots['wikitape']).toEqual(shots['live']);
      // the styles are MediaWiki's (pre-wrap wraps long lines), not the browser's defaults
      expect((shots['wikitape'] as { pre: { whiteSpace: string } }).pre.whiteSpace).toBe('pre-wrap');
    } finally {
      await browser.close();
      await wiki.close();
    }
  });
});

/**
 * The header's format link holds the question, and MediaWiki parses the header's message with it as
 * wikitext: the parse removes the double-underscore magic words it finds there. Each question with
 * what replay does (refuses it as page.header, or prints it) and whether its header is then the
 * wiki's. `__foo__` is no magic word of these wikis, nor `__hiddencat__` (that word minds its case,
 * `__notoc__` does not), but replay cannot know a wiki's words (its content language's and its
 * extensions'), so it refuses any name the link can hold between double underscores.
 */
const LINK_CASES: ReadonlyArray<[method: 'GET' | 'POST', query: string, refused: boolean, sameAsWiki: boolean]> = [
  ['GET', 'x=__NOTOC__', true, false],
  ['GET', 'x=__notoc__', true, false],
  ['GET', 'x=__HIDDENCAT__', true, false],
  ['GET', 'x=__hiddencat__', true, true],
  ['GET', 'x=a+__NOCC__+b', true, false],
  ['GET', 'x=__TOC__', true, false],
  ['GET', '_.NOTOC._=1', true, false],
  ['GET', 'x=__foo__', true, true],
  ['GET', `x=${encodeURIComponent('__БЕЗ_ОГЛАВЛЕНИЯ__')}`, false, true],
  ['GET', 'x=__NOTOC%20__', false, true],
  ['POST', 'x=__NOTOC__', false, true],
];

describe.each(LIVE_VERSIONS)("the header's format link beside MediaWiki %s's", (v) => {
  it('is printed as the wiki prints it, or refused (page.header) where it may hold a magic word', async () => {
    const live = await liveWiki(v);
    const version = ((await (await fetch(`${live.apiUrl}?action=query&meta=siteinfo&format=json`)).json()) as { query: { general: { generator: string } } }).query.general.generator.replace('MediaWiki ', '');
    const wiki = await startServer({ cassettes: 'cassettes', profile: { version }, onMiss: 'builtin' });
    try {
      const header = async (api: string, method: string, query: string) => {
        const q = `action=query&meta=siteinfo&siprop=general&${query}`;
        const res = method === 'GET' ? await fetch(`${api}?${q}`) : await fetch(api, { method, body: new URLSearchParams(q) });
        const html = /<div class="api-pretty-header">([\s\S]*?)<\/div>/.exec(await res.text())?.[1] ?? '(no header)';
        return { html: html.replace(/http:\/\/127\.0\.0\.1:\d+/g, 'ORIGIN'), refused: (res.headers.get('x-wikitape-unknown') ?? '').split(', ').includes('page.header') };
      };
      const seen = [];
      for (const [method, query] of LINK_CASES) {
        const [theirs, ours] = [await header(live.apiUrl, method, query), await header(wiki.url, method, query)];
        seen.push([method, query, ours.refused, ours.html === theirs.html]);
      }
      expect(seen).toEqual(LINK_CASES);
    } finally {
      await wiki.close();
    }
  });
});
