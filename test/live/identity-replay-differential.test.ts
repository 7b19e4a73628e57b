import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { asQuestions, countAnswers, flagReasons, othersWalks, Session, sessionQuestion, type Counts, type Identity } from '../support/identity-hunt.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';
import { liveFacts, randomQuestions, recordedWalks, Rng, withinFirstPages, type LiveFacts } from '../support/random-replay-questions.js';
import type { ReadQuestion } from '../support/read-questions.js';

/**
 * The logged-in hunt of replay against both live wikis: bots log in through `wikitape record` as
 * the live wiki's bot passwords (`Admin@wikitape`: basic and high-volume grants; `Admin@wikitape-admin`:
 * also blocks, so `hideuser` shows it hidden blocks) and walk lists at random (some only their
 * first pages), an anonymous client too; then each identity, and nobody, logs in to replay through replay's own login (any password:
 * replay cannot check one) and asks random questions (test/support/random-replay-questions.ts,
 * near the walks of every identity and far from them), questions whose answer depends on who asks
 * (userinfo, tokens, `assert`, `assertuser`, limits between the two maxima), questions within its
 * own walks stopped early, the first pages of the other identities' walks, and the same after logging out (and with the cookies kept past the
 * logout); the live wiki is asked the same in a
 * session of the same identity. A login replay has no recordings of (`Admin@wikitape-editor`) must
 * be refused or flagged. Each answer is equal, flagged or silently wrong; none may be silently wrong.
 * `WIKITAPE_IDHUNT_SEED` and `WIKITAPE_IDHUNT_N` (questions per area and identity) draw another hunt;
 * the counts are printed per identity and area.
 */
const SEED = Number(process.env['WIKITAPE_IDHUNT_SEED'] ?? 20261128);
const PER_AREA = Number(process.env['WIKITAPE_IDHUNT_N'] ?? 8);
/**
 * The least share of equal answers: the lowest measured when this was set was 0.45 (1.39, seed 1,
 * 118 of 261); the default seed's were 0.69 on 1.39 and 0.49 on 1.43.
 */
const EQUAL_SHARE = 0.3;

type P = Record<string, string>;

/** What may change under the hunt when other tests write to the live wiki: the newest log entry and the blocks. */
const liveState = (f: LiveFacts) => `${f.events[0]?.logid}:${f.blocks.map((b) => b.id).join(',')}`;

describe.each(LIVE_VERSIONS)('a logged-in random hunt of replay against MediaWiki %s', (version) => {
  it(`seed ${SEED}: every identity's answers equal or flagged, none silently wrong`, { timeout: 900_000 }, async () => {
    const live = await liveWiki(version);
    const facts = await liveFacts(live.apiUrl);
    const rng = new Rng(SEED);
    const identities: Identity[] = [{ label: 'anonymous' }, { label: 'bot', credentials: await live.credentials() }, { label: 'admin', credentials: await live.adminCredentials() }];
    // (`WIKITAPE_IDHUNT_DIR`: a folder to keep the recordings in, to look at them afterwards)
    const dir = await mkdtemp(join(process.env['WIKITAPE_IDHUNT_DIR'] ?? tmpdir(), 'wikitape-identity-hunt-'));

    // 1. Each identity walks some lists through the recorder, logged in as a bot logs in.
    const walksBy = new Map<string, P[]>();
    // Some walks of lists stop after their first pages, as a bot that reads the newest entries does
    // (drawn apart, so that a seed's walks and questions stay those it drew before).
    const stops = new Rng(SEED + 1);
    const firstPagesBy = new Map<string, Map<P, number>>();
    const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir, cassette: 'walks' });
    try {
      for (const who of identities) {
        const bot = new Session(recorder.url);
        expect((await bot.login(who)).result, who.label).toBe(who.credentials ? 'Success' : 'anonymous');
        const walks = recordedWalks(rng, facts).filter(() => rng.chance(0.6));
        const stopped = new Map<P, number>();
        for (const w of walks) {
          const pages = w['list'] !== undefined && stops.chance(0.35) ? stops.int(1, 3) : undefined;
          if (pages !== undefined) stopped.set(w, pages);
          await bot.crawl(w, pages);
        }
        walksBy.set(who.label, walks);
        firstPagesBy.set(who.label, stopped);
      }
    } finally {
      await recorder.close();
    }
    for (const [who, walks] of walksBy) console.log(`MediaWiki ${version}, seed ${SEED}: ${who} recorded ${walks.length} walks:\n${walks.map((w) => `${new URLSearchParams(w).toString()}${firstPagesBy.get(who)?.has(w) ? ` (its first ${firstPagesBy.get(who)!.get(w)} pages)` : ''}`).join('\n')}`);
    const allWalks = [...walksBy.values()].flat();

    const replay = await startServer({ cassettes: dir });
    const counts = new Map<string, Counts>();
    const silent: string[] = [];
    const count = async (label: string, liveSide: Session, ours: Session, questions: readonly ReadQuestion[]) => {
      const c = counts.get(label) ?? { equal: 0, flagged: 0, silent: 0 };
      silent.push(...(await countAnswers(liveSide, ours, questions, c)).map((s) => `[${label}] ${s}`));
      counts.set(label, c);
    };
    try {
      // 2. Each identity (and nobody) asks both sides, each in its own session.
      for (const who of identities) {
        const liveSide = new Session(live.apiUrl);
        const ours = new Session(replay.url);
        const lowerFirst = rng.chance(0.3);
        expect((await liveSide.login(who, lowerFirst)).result, who.label).toBe(who.credentials ? 'Success' : 'anonymous');
        expect((await ours.login(who, lowerFirst)).result, who.label).toBe(who.credentials ? 'Success' : 'anonymous');
        const areas = await randomQuestions(rng, facts, live.apiUrl, allWalks, PER_AREA, (p) => liveSide.json(p));
        areas['session'] = asQuestions(rng, Array.from({ length: PER_AREA * 2 }, () => sessionQuestion(rng, facts)));
        const others = [...walksBy].filter(([w]) => w !== who.label).flatMap(([, ws]) => ws);
        areas["others' walks"] = asQuestions(rng, othersWalks(rng, others, PER_AREA));
        // Questions within its own walks stopped early: what their first pages answer.
        const within: ReadQuestion[] = [];
        for (const [w, pages] of firstPagesBy.get(who.label) ?? []) within.push(...(await withinFirstPages(stops, facts, w, pages, Math.ceil(PER_AREA / 4), (p) => liveSide.json(p))));
        if (within.length > 0) areas['first pages'] = within;
        for (const [area, questions] of Object.entries(areas)) await count(`${who.label}, ${area}`, liveSide, ours, questions);
        // 3. The session logs out on both sides: what it asks then is anonymous (`assert=user` fails).
        // A bot that kept its cookies past the logout (the session they name is over): anonymous too.
        if (who.credentials) {
          const [liveKept, oursKept] = [new Session(live.apiUrl), new Session(replay.url)];
          liveKept.client.jar = new Map(liveSide.client.jar);
          oursKept.client.jar = new Map(ours.client.jar);
          await liveSide.logout();
          await ours.logout();
          const after = (): P[] => [{ action: 'query', format: 'json', meta: 'userinfo', assert: 'user' }, { action: 'query', format: 'json', formatversion: '2', meta: 'userinfo', uiprop: 'groups|rights' }, ...Array.from({ length: PER_AREA }, () => sessionQuestion(rng, facts))];
          await count(`${who.label}, after logout`, liveSide, ours, asQuestions(rng, after()));
          await count(`${who.label}, cookies kept past logout`, liveKept, oursKept, asQuestions(rng, after().slice(0, 2 + PER_AREA / 2)));
        }
      }
      // 4. A bot password no recording shows: replay must refuse or flag its login (or answer it right).
      const editor: Identity = { label: 'unrecorded bot', credentials: await live.editorCredentials() };
      const liveSide = new Session(live.apiUrl);
      const ours = new Session(replay.url);
      expect((await liveSide.login(editor)).result).toBe('Success');
      const theirs = await ours.login(editor);
      if (theirs.result === 'Success' && !theirs.flagged) {
        const qs = Array.from({ length: PER_AREA * 2 }, () => sessionQuestion(rng, facts)).concat(othersWalks(rng, allWalks, PER_AREA));
        await count('unrecorded bot, questions', liveSide, ours, asQuestions(rng, qs));
      }
      counts.set('unrecorded bot, login', { equal: 0, flagged: theirs.flagged ? 1 : 0, silent: theirs.flagged || theirs.result === 'Success' ? 0 : 1 });
      if (!theirs.flagged && theirs.result !== 'Success') silent.push(`[unrecorded bot] replay's login failed unflagged (${String(theirs.result)}) where the wiki's succeeded`);
    } finally {
      await replay.close();
    }
    for (const [label, c] of counts) console.log(`MediaWiki ${version}, seed ${SEED}, ${label}: ${c.equal} equal, ${c.flagged} flagged, ${c.silent} silently wrong`);
    const all = [...counts.values()];
    const total = (k: keyof Counts) => all.reduce((n, c) => n + c[k], 0);
    console.log(`MediaWiki ${version}, seed ${SEED}: ${total('equal')} equal, ${total('flagged')} flagged, ${total('silent')} silently wrong`);
    console.log(`MediaWiki ${version}, seed ${SEED}, flagged as: ${[...flagReasons].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ${n}`).join(', ')}`);
    flagReasons.clear();
    if (silent.length > 0) console.log(`silently wrong:\n${silent.join('\n')}`);
    // Other tests may write to the live wiki meanwhile (blocks, log entries): then answers about them may differ for that reason.
    const now = await liveFacts(live.apiUrl);
    if (liveState(now) !== liveState(facts)) console.log(`MediaWiki ${version}: the live wiki's log or blocks changed during the hunt (${liveState(facts)} then ${liveState(now)})`);
    expect(silent).toEqual([]);
    // Replay must answer, not refuse everything: every area asked by every identity, and a share answered equal.
    expect([...counts].filter(([, c]) => c.equal + c.flagged + c.silent === 0).map(([a]) => a)).toEqual([]);
    expect(total('equal') / (total('equal') + total('flagged') + total('silent'))).toBeGreaterThan(EQUAL_SHARE);
  });
});
