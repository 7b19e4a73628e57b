import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snapshot } from '../../src/record/snapshot.js';
import { startServer } from '../../src/server.js';
import { FileCassetteStore } from '../../src/cassette/store.js';
import { idBounds } from '../../src/wiki/link-bounds.js';
import { LIST_ENTITIES, MODULES } from '../../src/modules/index.js';
import { loadCassettes } from '../../src/replay/cassette-index.js';
import { learnLinkIds } from '../../src/cassette/link-ids.js';
import { normalize } from '../support/differential.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

describe.each(LIVE_VERSIONS)('wikitape snapshot of MediaWiki %s', (version) => {
  it('records a complete cassette that replay synthesizes from, and resumes without asking again', async () => {
    const live = await liveWiki(version);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-snapshot-'));
    const first = await snapshot({ upstream: live.apiUrl, cassettes: dir });
    expect(first.reused).toBe(0);
    expect(first.entries).toBeGreaterThan(100);
    // every link's el_id learned from continuation tokens
    expect(first.unknownLinkIds).toBe(0);
    const again = await snapshot({ upstream: live.apiUrl, cassettes: dir });
    expect(again.reused).toBe(again.requests);

    const replay = await startServer({ cassettes: dir, onMiss: 'error' });
    for (const q of [
      'action=query&list=logevents&lelimit=3&ledir=newer&format=json',
      'action=query&list=blocks&bklimit=2&bkprop=id|user|range&format=json&formatversion=2',
      'action=query&list=protectedtitles&ptlevel=sysop&format=json',
      // continuation points nobody recorded: they name el_ids, which the snapshot learned
      'action=query&prop=extlinks&titles=Список ссылок|Beta|Alpha&ellimit=3&format=json&formatversion=2',
      'action=query&prop=extlinks&titles=Список ссылок&ellimit=4&elprotocol=https&format=json',
      // what list=allpages filters on beyond titles: the snapshot asked prop=info and prop=langlinks of every page
      'action=query&list=allpages&apminsize=300&aplimit=3&format=json',
      'action=query&list=allpages&apnamespace=0&apprtype=edit|move&apprlevel=sysop&format=json&formatversion=2',
      'action=query&list=allpages&apfilterlanglinks=withlanglinks&apmaxsize=400&format=json',
    ]) {
      const ours = await fetch(`${replay.url}?${q}`);
      expect(ours.headers.get('x-wikitape-source')).toBe('synthesized');
      expect(normalize(await ours.text())).toBe(normalize(await (await fetch(`${live.apiUrl}?${q}`)).text()));
    }
    // The snapshot asked where each redirect leads: `Zeta` (moved to `Зета`) is followed exactly.
    const q = 'action=query&prop=extlinks&titles=Zeta|Alpha&redirects=1&format=json';
    const ours = await fetch(`${replay.url}?${q}`);
    expect(ours.headers.get('x-wikitape-unknown')).toBeNull();
    expect(normalize(await ours.text())).toBe(normalize(await (await fetch(`${live.apiUrl}?${q}`)).text()));
    await replay.close();

    // The el_ids replay learned, each against the live wiki's own: a walk of every linked page one
    // link at a time (ellimit=1), whose every answer names the next link's id in its token.
    const index = await loadCassettes(new FileCassetteStore(dir, { entities: LIST_ENTITIES }), MODULES.query.list);
    learnLinkIds(index.model, () => [...index.interactions.values()].filter((i) => i.request['prop'] === 'extlinks'));
    const linked = index.model.pages.filter((p) => p.extlinks.length > 0);
    const liveIds = new Map<string, number>();
    for (let i = 0; i < linked.length; i += 50) {
      let token: string | undefined;
      for (let n = 0; n < 5000; n++) {
        const q = new URLSearchParams({ action: 'query', prop: 'extlinks', pageids: linked.slice(i, i + 50).map((p) => p.pageid).join('|'), ellimit: '1', format: 'json', formatversion: '2', ...(token ? { elcontinue: token } : {}) });
        const body = (await (await fetch(`${live.apiUrl}?${q}`)).json()) as { continue?: { elcontinue?: string }; query: { pages: { pageid: number; extlinks?: { url: string }[] }[] } };
        const shown = body.query.pages.find((p) => p.extlinks?.length);
        if (token && shown) liveIds.set(`${shown.pageid} ${shown.extlinks![0]!.url}`, Number(token.split('|').at(-1)));
        token = body.continue?.elcontinue;
        if (!token) break;
      }
    }
    const learned = new Map<string, number>();
    for (const p of linked) idBounds(p, version === '1.43').forEach((b, n) => b.lo === b.hi && learned.set(`${p.pageid} ${p.extlinks[n]!.url}`, b.lo));
    expect(liveIds.size).toBeGreaterThan(50);
    for (const [link, id] of liveIds) expect([link, learned.get(link)]).toEqual([link, id]);
  }, 300_000);
});
