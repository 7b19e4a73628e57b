import { describe, it } from 'vitest';
import { bundledWalks } from '../support/bundled-walks.js';

/**
 * A walk of the log without `ids`, or of the blocks without `id`, shows rows that name no entry
 * (harvest keeps none of them): however complete, it proves nothing about its list, and a
 * question about that list is a miss naming its entries, never an answer computed from other,
 * narrower walks (MediaWiki 1.39, 1.43: a walk of the whole log with
 * leprop=comment|details|tags|timestamp|type|userid beside one of `letype=create` once answered
 * every question about the whole log with the create entries alone). The oracle is the bundled
 * wiki's recording (real MediaWiki 1.43 answers); the walks are recorded from it, as `wikitape
 * record` in front of it stores them.
 */
const { recordedWalk, expectAnswered, expectRefused } = bundledWalks('walks-without-ids');

const LOG = 'action=query&list=logevents';
const BLOCKS = 'action=query&list=blocks';

describe('a complete walk whose rows show no ids', () => {
  it('of the whole log, beside a walk of one type: questions about the whole log refused, about that type answered', async () => {
    const dir = await recordedWalk(`${LOG}&leprop=comment|details|tags|timestamp|type|userid&lelimit=max`, `${LOG}&letype=protect&leprop=ids|title|type|user|timestamp|comment|details&lelimit=max`);
    await expectRefused(dir, [`${LOG}&leprop=type|timestamp&lelimit=3`, `${LOG}&leprop=type&letype=block`, `${LOG}&leprop=timestamp&ledir=newer&lelimit=5`], 'logevents.entries');
    await expectAnswered(dir, [`${LOG}&letype=protect&leprop=type|timestamp&lelimit=3`]);
  });

  it('of the blocks: questions about them refused', async () => {
    const dir = await recordedWalk(`${BLOCKS}&bkprop=user|by|timestamp|expiry|reason|flags&bklimit=max`);
    await expectRefused(dir, [`${BLOCKS}&bkprop=user|timestamp&bklimit=2`, `${BLOCKS}&bkprop=user&bkdir=newer`], 'blocks.entries');
  });
});
