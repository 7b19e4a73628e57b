import { describe, it } from 'vitest';
import type { JsonObject } from '../../src/api/result.js';
import { bundledWalks } from '../support/bundled-walks.js';

/**
 * A complete walk of a filtered log (`letype=protect`, `leuser=Admin` …) answers every question
 * about that part of the log or a narrower one (other limits, continuation points, directions,
 * more filters, fewer props) as the whole log's walk does, and nothing else. The oracle is the
 * bundled wiki's recording (real MediaWiki 1.43 answers), whose whole walk of the log answers
 * any of these questions; the filtered walks are recorded from it, as `wikitape record` in front
 * of it stores them.
 */
const { askOracle, recordedWalk, expectAnswered, expectRefused } = bundledWalks('filtered-walks');

const LOG = 'action=query&list=logevents';

describe('a complete walk of a filtered log', () => {
  it('answers other limits, continuation points, directions, time windows, more filters and fewer props of its part', async () => {
    const dir = await recordedWalk(`${LOG}&letype=protect&lelimit=4`);
    const first = await askOracle(`${LOG}&letype=protect&lelimit=3`);
    const cont = (first.body['continue'] as Record<string, string>)['lecontinue']!;
    const newest = ((first.body['query'] as JsonObject)['logevents'] as JsonObject[])[1]!['timestamp'] as string;
    await expectAnswered(dir, [
      `${LOG}&letype=protect&lelimit=3`,
      `${LOG}&letype=protect&lelimit=max`,
      `${LOG}&letype=protect&lelimit=1&lecontinue=${encodeURIComponent(cont)}`,
      `${LOG}&letype=protect&lelimit=5&ledir=newer`,
      `${LOG}&letype=protect&leend=${encodeURIComponent(newest)}&lelimit=2`,
      `${LOG}&letype=protect&leuser=Admin&lelimit=6`,
      `${LOG}&letype=protect&lenamespace=0&lelimit=4`,
      `${LOG}&letype=protect&letitle=${encodeURIComponent('Москва')}`,
      `${LOG}&letype=protect&leprop=ids|title&lelimit=7`,
      `${LOG}&letype=protect&leuser=Nobody`,
    ]);
  });

  it('refuses the whole log, other parts and wider ones, and an action that sets the type itself', async () => {
    const dir = await recordedWalk(`${LOG}&letype=protect&leuser=Admin&lelimit=max`);
    await expectRefused(dir, [
      `${LOG}&lelimit=3`,
      `${LOG}&letype=protect&lelimit=3`,
      `${LOG}&leuser=Admin&lelimit=3`,
      `${LOG}&letype=block&leuser=Admin`,
      `${LOG}&letype=protect&leuser=Admin&leaction=delete/delete`,
    ], 'logevents.entries');
    await expectAnswered(dir, [`${LOG}&leuser=Admin&letype=protect&lelimit=2&ledir=newer`]);
  });

  it('answers from walks of two parts each question about either, and refuses the other parts', async () => {
    const dir = await recordedWalk(`${LOG}&letype=block&lelimit=max`, `${LOG}&leaction=move/move`);
    await expectAnswered(dir, [`${LOG}&letype=block&lelimit=3`, `${LOG}&leaction=move/move&lelimit=1`, `${LOG}&leaction=move/move&letype=delete`]);
    await expectRefused(dir, [`${LOG}&letype=move`, `${LOG}&letype=delete`, `${LOG}&leaction=block/block`], 'logevents.entries');
  });
});
