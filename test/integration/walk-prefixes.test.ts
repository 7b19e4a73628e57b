import { describe, expect, it } from 'vitest';
import { bundledWalks } from '../support/bundled-walks.js';

/**
 * The first pages of a walk, recorded without its last (a bot that read the newest entries and
 * went no further): they show every entry of the list from its first up to the row their last
 * `continue` names, so a page of the list that lies within them, at any limit, continuation point
 * or filter, is computed from them; one that reaches that row or past it is a miss. The oracle is
 * the bundled wiki's recording (real MediaWiki 1.43 answers); the pages are recorded from it, as
 * `wikitape record` in front of it stores them.
 */
const { recordedFirstPages, recordedWalk, askOracle, expectAnswered, expectRefused } = bundledWalks('walk-prefixes');

describe('the first pages of a walk', () => {
  it('answer the pages of the log within them, at other limits, continuation points and filters', async () => {
    // Two pages of ten: the newest twenty log events.
    const dir = await recordedFirstPages(2, 'action=query&list=logevents&lelimit=10');
    const first = await askOracle('action=query&list=logevents&lelimit=4');
    const cont = new URLSearchParams(first.body['continue'] as Record<string, string>).toString();
    await expectAnswered(dir, [
      'action=query&list=logevents&lelimit=5',
      // (rows 1–19 and the 20th, whose key the continuation names)
      'action=query&list=logevents&lelimit=19',
      `action=query&list=logevents&lelimit=4&${cont}`,
      'action=query&list=logevents&lelimit=5&letype=protect&leprop=ids|title|type|timestamp',
      // (the three block events are the 18th to the 20th)
      'action=query&list=logevents&lelimit=2&letype=block',
      'action=query&list=logevents&lelimit=2&leuser=Admin&leprop=user|comment',
      'action=query&list=logevents&lelimit=5&formatversion=1',
    ]);
    // The row after the twentieth nobody recorded; the oldest events neither.
    await expectRefused(
      dir,
      ['action=query&list=logevents&lelimit=20', 'action=query&list=logevents&lelimit=max', 'action=query&list=logevents&lelimit=3&ledir=newer', 'action=query&list=logevents&lelimit=3&letype=block', 'action=query&list=logevents&lelimit=5&letype=delete'],
      'logevents.entries',
    );
  });

  it('answer the pages of the other lists within them', async () => {
    const pages = await recordedFirstPages(1, 'action=query&list=allpages&aplimit=5');
    await expectAnswered(pages, ['action=query&list=allpages&aplimit=2', 'action=query&list=allpages&aplimit=4', 'action=query&list=allpages&aplimit=2&apfrom=Beta', 'action=query&list=allpages&aplimit=1&apdir=ascending']);
    await expectRefused(pages, ['action=query&list=allpages&aplimit=4&apfrom=Beta', 'action=query&list=allpages&aplimit=2&apdir=descending', 'action=query&list=allpages&aplimit=2&apnamespace=10'], 'allpages.entries');
    const blocks = await recordedFirstPages(1, 'action=query&list=blocks&bklimit=6');
    await expectAnswered(blocks, ['action=query&list=blocks&bklimit=3', 'action=query&list=blocks&bklimit=5&bkprop=id|user|timestamp']);
    await expectRefused(blocks, ['action=query&list=blocks&bklimit=6&bkprop=id|timestamp', 'action=query&list=blocks&bklimit=2&bkdir=newer'], 'blocks.entries');
    const titles = await recordedFirstPages(1, 'action=query&list=protectedtitles&ptlimit=5&ptprop=timestamp|level|user|expiry');
    await expectAnswered(titles, ['action=query&list=protectedtitles&ptlimit=2&ptprop=level', 'action=query&list=protectedtitles&ptlimit=4&ptprop=user|expiry']);
    await expectRefused(titles, ['action=query&list=protectedtitles&ptlimit=5&ptprop=level'], 'protectedtitles.entries');
  });

  it('answer a page that ends early within them: at the end of its window (leend, apto, apprefix)', async () => {
    const dir = await recordedFirstPages(2, 'action=query&list=logevents&lelimit=10');
    const top = (await askOracle('action=query&list=logevents&lelimit=21&leprop=timestamp')).body['query'] as { logevents: { timestamp: string }[] };
    // The row the pages' last continuation names, and the oldest second wholly before it.
    const until = top.logevents[20]!.timestamp;
    const end = top.logevents.filter((e) => e.timestamp > until).at(-1)!.timestamp;
    await expectAnswered(dir, [`action=query&list=logevents&lelimit=50&leend=${end}`, `action=query&list=logevents&lelimit=50&leend=${end}&letype=protect&leprop=ids|title`]);
    // (a window that takes in the second of that row: the rows of that second nobody recorded)
    await expectRefused(dir, [`action=query&list=logevents&lelimit=50&leend=${until}`], 'logevents.entries');
    // Five pages of the main namespace, the row after them Theta.
    const pages = await recordedFirstPages(1, 'action=query&list=allpages&aplimit=5');
    await expectAnswered(pages, ['action=query&list=allpages&aplimit=10&apprefix=D', 'action=query&list=allpages&aplimit=10&apto=Epsilon', 'action=query&list=allpages&aplimit=10&apfrom=Beta&apto=Gamma']);
    await expectRefused(pages, ['action=query&list=allpages&aplimit=10&apprefix=T', 'action=query&list=allpages&aplimit=10&apto=Theta'], 'allpages.entries');
  });

  it('of a filtered walk answer within that filter alone', async () => {
    const dir = await recordedFirstPages(1, 'action=query&list=logevents&lelimit=5&letype=protect');
    await expectAnswered(dir, ['action=query&list=logevents&lelimit=2&letype=protect']);
    await expectRefused(dir, ['action=query&list=logevents&lelimit=2', 'action=query&list=logevents&lelimit=2&letype=block'], 'logevents.entries');
  });

  it('count for nothing once the walk is recorded to its end', async () => {
    // (a complete walk answers every page; its first pages recorded again at another limit change nothing)
    const dir = await recordedWalk('action=query&list=logevents&lelimit=max', 'action=query&list=logevents&lelimit=3');
    const answered = await expectAnswered(dir, ['action=query&list=logevents&lelimit=3&ledir=newer', 'action=query&list=logevents&lelimit=30']);
    expect(answered.every((a) => a.body['continue'] !== undefined)).toBe(true);
  });
});
