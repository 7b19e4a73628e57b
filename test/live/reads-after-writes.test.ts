import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startServer } from '../../src/server.js';
import { Client } from '../support/cookie-client.js';
import { LIVE_VERSIONS, liveWiki } from '../support/live-wiki.js';

/**
 * A bot's logged-in life with writes in it: it reads a page of its own and the lists a write
 * changes, creates the page, appends to it, adds a section, saves it unchanged (nochange), moves
 * it, and reads everything again after each write; it asserts another name and the bot group, and
 * writes with another session's token; then it logs out and tries to write. The walk
 * runs through `wikitape record` on a live wiki (each read after a write is also asked of the wiki
 * directly, in the same session, right after: the recorder must say what the wiki says), then
 * against replay of what was recorded. Each answer is judged against the wiki's: equal (the same
 * JSON, debuginfo aside), flagged (`wikitape-miss`, or named in `X-Wikitape-Unknown`) or silently
 * wrong; the counts are printed and no answer may be silently wrong. Tokens are not compared
 * (each session's own); nothing else is ignored.
 */

type Verdict = 'equal' | 'flagged' | 'silently wrong';
interface Step {
  name: string;
  status: number;
  body: Record<string, any>;
  unknown: string | null;
}

function withoutDebuginfo(body: Record<string, any>): Record<string, any> {
  const { debuginfo: _, ...rest } = body;
  return rest;
}

function judge(wiki: Step, got: Step): Verdict {
  if (wiki.status === got.status && isDeepStrictEqual(withoutDebuginfo(wiki.body), withoutDebuginfo(got.body))) return 'equal';
  return got.body['error']?.code === 'wikitape-miss' || got.unknown !== null ? 'flagged' : 'silently wrong';
}

/** The reads a write to `titles` may change, as a bot asks them. */
function reads(titles: string[], user: string): [string, Record<string, string>][] {
  const t = titles.join('|');
  return [
    ['revisions', { action: 'query', prop: 'revisions', titles: t, rvprop: 'ids|timestamp|user|comment|size|flags|sha1|tags|content', rvslots: 'main', rvlimit: '5' }],
    ['revisions newer', { action: 'query', prop: 'revisions', titles: titles[0]!, rvprop: 'ids|size', rvdir: 'newer', rvlimit: '2' }],
    ['info', { action: 'query', prop: 'info', titles: t, inprop: 'watched|notificationtimestamp|displaytitle' }],
    ['extlinks', { action: 'query', prop: 'extlinks', titles: t }],
    ['recentchanges', { action: 'query', list: 'recentchanges', rctitle: titles[0]!, rcprop: 'title|ids|sizes|flags|user|comment|loginfo', rcshow: '!bot', rclimit: '10' }],
    ['logevents', { action: 'query', list: 'logevents', letitle: titles[0]!, leprop: 'title|type|user|comment|details', lelimit: '10' }],
    ['allpages', { action: 'query', list: 'allpages', apprefix: titles[0]!.slice(0, -2), aplimit: '10' }],
    ['usercontribs', { action: 'query', list: 'usercontribs', ucuser: user, ucprop: 'title|comment|size|sizediff|flags', uclimit: '1' }],
    ['userinfo', { action: 'query', meta: 'userinfo', uiprop: 'editcount|groups' }],
    ['parse', { action: 'parse', page: titles[0]!, prop: 'wikitext|externallinks' }],
  ];
}

/**
 * The walk. With `alsoAsk` (the wiki's api.php), each read is asked of the wiki directly too, in the
 * same session, right after: `wiki` holds those answers (and the writes' and sessions' answers,
 * which the recorder always forwards), `recorder` how the recorder's read compares with it.
 */
async function walk(url: string, login: { user: string; password: string }, title: string, alsoAsk: string | null): Promise<{ steps: Step[]; wiki: Step[]; recorder: Verdict[] }> {
  const c = new Client(url);
  const steps: Step[] = [];
  const wikiSays: Step[] = [];
  const recorder: Verdict[] = [];
  const step = async (name: string, params: Record<string, string>, how: 'GET' | 'POST' = 'GET'): Promise<Step> => {
    const r = await c.call(params, how);
    const s = { name, status: r.status, body: r.body, unknown: r.headers.get('x-wikitape-unknown') };
    steps.push(s);
    wikiSays.push(s);
    return s;
  };
  const readAll = async (tag: string, titles: string[]) => {
    for (const [name, params] of reads(titles, login.user.split('@')[0]!)) {
      const got = await step(`${tag}: ${name}`, params);
      if (alsoAsk === null) continue;
      const r = await c.call(params, 'GET', alsoAsk);
      const wiki = { name: got.name, status: r.status, body: r.body, unknown: null };
      wikiSays[wikiSays.length - 1] = wiki;
      recorder.push(judge(wiki, got));
    }
  };
  await step('login', { action: 'login', lgname: login.user, lgpassword: login.password, lgtoken: await c.token('login') }, 'POST');
  const csrf = await c.token('csrf');
  const moved = `${title}-2`;
  await readAll('before', [title, moved]);
  const edit = (name: string, params: Record<string, string>) => step(name, { action: 'edit', title, token: csrf, ...params }, 'POST');
  // Sessions and tokens: another name asserted, another session's token (an anonymous one), the bot group asserted.
  await step('assertuser of another name', { action: 'query', meta: 'userinfo', assertuser: 'Hunt-writes nobody' });
  await edit('edit: with assertuser of another name', { text: 'x', assertuser: 'Hunt-writes nobody' });
  await edit('edit: with the anonymous token', { text: 'x', token: '+\\' });
  await edit('edit: with assert=bot', { text: 'x', assert: 'bot', nocreate: '1' });
  await edit('edit: create', { text: 'Первая [http://example.org/hunt-writes one]', summary: "'''Создана''' [[страница]] ✓", createonly: '1' });
  await readAll('after create', [title, moved]);
  await edit('edit: createonly again', { text: 'x', createonly: '1' });
  await edit('edit: append, minor', { appendtext: '\n[http://example.org/hunt-writes/2 two]', summary: 'append', minor: '1' });
  await edit('edit: new section', { section: 'new', sectiontitle: 'Раздел', text: 'текст', summary: '' });
  await readAll('after append and section', [title, moved]);
  // The page's text as the last read showed it (action=parse's wikitext): saved again, it changes nothing.
  const text = (steps.at(-1)?.body['parse']?.wikitext as string | undefined) ?? '';
  await edit('edit: the same text (nochange)', { text });
  await readAll('after nochange', [title, moved]);
  await step('move', { action: 'move', from: title, to: moved, reason: 'hunt-writes', token: csrf }, 'POST');
  await readAll('after move', [title, moved]);
  await step('logout', { action: 'logout', token: csrf }, 'POST');
  await step('after logout: assert=user', { action: 'query', meta: 'userinfo', assert: 'user' });
  await step('after logout: edit with the old token', { action: 'edit', title, appendtext: 'x', token: csrf }, 'POST');
  return { steps, wiki: wikiSays, recorder };
}

function counts(verdicts: Verdict[]): Record<Verdict, number> {
  const out: Record<Verdict, number> = { equal: 0, flagged: 0, 'silently wrong': 0 };
  for (const v of verdicts) out[v]++;
  return out;
}

/** The area of the report a step belongs to. */
function area(step: string): string {
  if (step.startsWith('before:')) return 'reads before a write';
  if (step.startsWith('after ') && !step.startsWith('after logout')) return 'reads after a write';
  if (/^(edit|move)\b/.test(step) && !step.includes('assert') && !step.includes('token')) return 'writes';
  return 'sessions and tokens';
}

describe.each(LIVE_VERSIONS)('a bot that writes, on MediaWiki %s', (version) => {
  it('reads after each write what the wiki says through the recorder, and from replay the same or a refusal, never a silently wrong answer', async () => {
    const live = await liveWiki(version);
    const login = await live.editorCredentials();
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-after-writes-'));
    try {
      const title = `Hunt-writes ${version} ${Date.now()}-1`;
      const recorder = await startServer({ mode: 'record', upstream: live.apiUrl, cassettes: dir });
      let wiki: Awaited<ReturnType<typeof walk>>;
      try {
        wiki = await walk(recorder.url, login, title, live.apiUrl);
      } finally {
        await recorder.close();
      }
      const replay = await startServer({ cassettes: dir, onMiss: 'error' });
      let replayed: Awaited<ReturnType<typeof walk>>;
      try {
        replayed = await walk(replay.url, { user: login.user, password: 'not the password' }, title, null);
      } finally {
        await replay.close();
      }
      const judged = wiki.wiki.map((s, i) => ({ name: s.name, verdict: judge(s, replayed.steps[i]!) }));
      const fromRecorder = counts(wiki.recorder);
      const lines = [`MediaWiki ${version}: reads through the recorder, against the wiki asked at once: ${JSON.stringify(fromRecorder)}`];
      for (const a of new Set(judged.map((j) => area(j.name)))) lines.push(`  from replay, ${a}: ${JSON.stringify(counts(judged.filter((j) => area(j.name) === a).map((j) => j.verdict)))}`);
      for (const j of judged) if (j.verdict === 'silently wrong') lines.push(`  silently wrong: ${j.name}`);
      console.log(lines.join('\n'));
      expect(fromRecorder['silently wrong']).toBe(0);
      // The walk's own checks: the writes did on the wiki what a bot expects (the text saved again
      // is the one the recorder said the page has).
      const by = (name: string) => wiki.steps.find((s) => s.name === name)!.body;
      expect(by('edit: create')['edit']).toMatchObject({ result: 'Success', new: true });
      expect(by('edit: createonly again')['error']?.code).toBe('articleexists');
      expect(by('edit: the same text (nochange)')['edit']).toMatchObject({ result: 'Success', nochange: true });
      expect(by('move')['move']).toMatchObject({ from: title, to: `${title}-2` });
      expect(judged.filter((j) => j.verdict === 'silently wrong')).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
