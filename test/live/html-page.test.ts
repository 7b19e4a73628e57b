import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';

/** The answer without `format` is a page a person reads: opened in a real (headless) Chromium. */
const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', 'artifacts');

describe('the HTML "API result" page in a browser', () => {
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
