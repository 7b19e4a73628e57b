import { describe, expect, it } from 'vitest';
import { builtin } from '../support/app.js';

/** The HTML page's styles come from load.php, as on the wiki (live: test/live/html-page.test.ts compares the pages in Chromium). */
const STYLES = { modules: 'mediawiki.apipretty|mediawiki.skinning.interface', only: 'styles', skin: 'apioutput' };

describe('load.php for the API result page', () => {
  it('serves the styles the page links, per version and language', async () => {
    const page = await builtin({ version: '1.43.5' }).get('/wiki/api.php').query({ action: 'query', list: 'logevents' });
    const href = /<link rel="stylesheet" href="([^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, '&');
    const css = await builtin({ version: '1.43.5' }).get(href);
    expect([css.status, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);
    expect(css.text).toContain('.api-pretty-content{white-space:pre-wrap}');
    expect(css.text).toContain("content:'скрыть'");
    const en39 = await builtin({ version: '1.39.17' }).get('/wiki/load.php').query({ ...STYLES, lang: 'en' });
    expect(en39.text).toContain("content:'hide'");
    expect(en39.text).not.toBe(css.text);
    const script = /<script async="" src="([^"]+)"/.exec(page.text)![1]!.replace(/&amp;/g, '&');
    expect((await builtin().get(script)).status).toBe(200);
  });

  it('answers 404 for modules the page does not load', async () => {
    const r = await builtin().get('/wiki/load.php').query({ modules: 'jquery', only: 'scripts' });
    expect(r.status).toBe(404);
    expect(r.text).toContain('load.php serves only what the API result page loads');
  });
});
