import { describe, expect, it } from 'vitest';
import { bundledWalks } from '../support/bundled-walks.js';

/**
 * A complete walk of the blocks with their flags but without their targets (`bkprop` without
 * `user`): the flags tell which blocks are autoblocks, and every other block shows its `userid`,
 * 0 for an address or range (MediaWiki 1.39: such a walk once answered `bkprop=id|userid` without
 * the userid of every block, as if each were an autoblock). The oracle is the bundled wiki's
 * recording (real MediaWiki 1.43 answers); the walk is recorded from it, as `wikitape record` in
 * front of it stores it.
 */
const { recordedWalk, expectAnswered, expectRefused } = bundledWalks('blocks-without-targets');

describe('a complete walk of the blocks without their targets', () => {
  it('answers their user ids as the whole walk does', async () => {
    const dir = await recordedWalk('action=query&list=blocks&bkprop=id|userid|by|timestamp|expiry|flags&bklimit=max');
    const wanted = await expectAnswered(dir, ['action=query&list=blocks&bkprop=id|userid&bklimit=5', 'action=query&list=blocks&bkprop=userid|flags&bkdir=newer&bklimit=max']);
    for (const want of wanted) expect(JSON.stringify(want.body)).toContain('"userid":0');
  });

  it('without their flags either: the user ids shown tell the autoblocks, and a walk of ranges alone is a miss', async () => {
    // (the walk once printed every block as an autoblock: `{id}` without the user id the wiki shows)
    const ids = await recordedWalk('action=query&list=blocks&bkprop=id|userid|timestamp|expiry&bklimit=max');
    const wanted = await expectAnswered(ids, ['action=query&list=blocks&bkprop=id|userid&bklimit=5', 'action=query&list=blocks&bkprop=userid&bkdir=newer&bklimit=max']);
    for (const want of wanted) expect(JSON.stringify(want.body)).toMatch(/"userid":[1-9]/);
    const ranges = await recordedWalk('action=query&list=blocks&bkprop=id|range|timestamp|expiry&bklimit=max');
    await expectRefused(ranges, ['action=query&list=blocks&bkprop=id|range&bklimit=5'], 'blocks.user');
  });

  it('with their ranges and user ids: each range as recorded (MediaWiki 1.43 shows the bounds of ranges alone)', async () => {
    // (replay once printed no range at all: without the target it could not tell a range)
    const dir = await recordedWalk('action=query&list=blocks&bkprop=id|userid|range|timestamp|expiry&bklimit=max');
    const wanted = await expectAnswered(dir, ['action=query&list=blocks&bkprop=id|range|userid', 'action=query&list=blocks&bkprop=range|userid&bkdir=newer&bklimit=max']);
    for (const want of wanted) expect(JSON.stringify(want.body)).toContain('"rangestart"');
  });
});
