import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { emptyHarvest } from '../../src/cassette/format.js';
import { ENTITY_KINDS } from '../../src/modules/index.js';
import { harvest } from '../../src/record/harvest.js';
import { readFixturePage } from '../../src/wiki/fixtures.js';
import { NO_CASSETTES, TEST_CLOCK } from '../support/app.js';

/**
 * A page's content model (page_content_model): action=parse of a title without `contentmodel`
 * reads the page's own (Title::getContentModel), which a fixture's `contentmodel` gives, or a
 * recording's prop=info; without it, the title's default (a `.css` page in the MediaWiki namespace
 * is CSS), never wikitext for a page whose title says otherwise.
 */
const PAGES = [
  // A page changed to CSS (Special:ChangeContentModel): its title alone says wikitext.
  { pageid: 1, ns: 0, title: 'Стили', contentmodel: 'css' },
  // A .json page changed to wikitext.
  { pageid: 2, ns: 8, title: 'MediaWiki:Настройки.json', contentmodel: 'wikitext' },
  // No model given: its title's default (css).
  { pageid: 3, ns: 8, title: 'MediaWiki:Common.css' },
  { pageid: 4, ns: 0, title: 'Alpha' },
];

async function app() {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-content-model-'));
  const file = join(dir, 'wiki.json');
  await writeFile(file, JSON.stringify({ profile: { version: '1.43.9', language: 'ru' }, pages: PAGES }));
  return request(createApp({ fixtures: [file], clock: TEST_CLOCK, cassettes: NO_CASSETTES, onMiss: 'builtin' }));
}

describe('content models', () => {
  it('parses a title as its page\'s own model: a fixture page changed to CSS is not rendered as wikitext, one changed to wikitext is', async () => {
    const agent = await app();
    const ask = (params: Record<string, string>) => agent.get('/wiki/api.php').query({ action: 'parse', summary: 'x', format: 'json', formatversion: '2', ...params });
    expect((await ask({ title: 'Стили', prop: 'text' })).headers['mediawiki-api-error']).toBe('wikitape-notimplemented');
    expect((await ask({ title: 'MediaWiki:Common.css', prop: 'text' })).headers['mediawiki-api-error']).toBe('wikitape-notimplemented');
    const wikitext = await ask({ title: 'MediaWiki:Настройки.json', prop: 'text', disablelimitreport: '1' });
    expect(JSON.parse(wikitext.text)['parse']['text']).toContain('mw-parser-output');
    // The content format is checked against the page's model (ApiParse: apierror-badformat-generic).
    expect((await ask({ title: 'Стили', contentformat: 'text/css', prop: '' })).headers['mediawiki-api-error']).toBeUndefined();
    expect(JSON.parse((await ask({ title: 'Стили', contentformat: 'text/x-wiki', prop: '' })).text)['error']['info']).toBe('The requested format text/x-wiki is not supported for content model css.');
    expect(JSON.parse((await ask({ title: 'MediaWiki:Настройки.json', contentformat: 'application/json', prop: '' })).text)['error']['info']).toBe('The requested format application/json is not supported for content model wikitext.');
  });

  it('says which model an edit saved: the page\'s, or the one named', async () => {
    const agent = await app();
    const login = await agent.get('/wiki/api.php').query({ action: 'query', meta: 'tokens', format: 'json' });
    const token = JSON.parse(login.text)['query']['tokens']['csrftoken'] as string;
    const edit = async (title: string, extra: Record<string, string> = {}) =>
      JSON.parse((await agent.post('/wiki/api.php').type('form').send({ action: 'edit', title, text: 'x', token, format: 'json', formatversion: '2', ...extra })).text)['edit']?.['contentmodel'];
    expect(await edit('Стили')).toBe('css');
    expect(await edit('User:A/common.js')).toBe('javascript');
    expect(await edit('Alpha')).toBe('wikitext');
    expect(await edit('Alpha', { contentmodel: 'text' })).toBe('text');
  });

  it('refuses a fixture page whose contentmodel is not a model\'s name', () => {
    expect(readFixturePage({ pageid: 1, title: 'A', contentmodel: 3 }, () => 0)).toMatch(/"contentmodel" must be/);
    expect(readFixturePage({ pageid: 1, title: 'A', contentmodel: 'json' }, () => 0)).toMatchObject({ contentmodel: 'json' });
  });

  it('keeps the model prop=info showed of a page a recording holds', () => {
    const into = emptyHarvest(ENTITY_KINDS);
    harvest(into, { query: { pages: [{ pageid: 7, ns: 0, title: 'Стили', contentmodel: 'css', pagelanguage: 'ru' }] } }, { prop: 'info' });
    harvest(into, { query: { pages: [{ pageid: 7, ns: 0, title: 'Стили', extlinks: [{ url: 'https://example.org/' }] }] } }, { prop: 'extlinks' });
    expect(into['pages']).toEqual([{ pageid: 7, ns: 0, title: 'Стили', extlinks: [{ id: 0, url: 'https://example.org/' }], contentmodel: 'css' }]);
  });
});
