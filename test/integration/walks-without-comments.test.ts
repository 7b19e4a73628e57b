import { describe, it } from 'vitest';
import { bundledWalks } from '../support/bundled-walks.js';

/**
 * A complete walk without comments, asked for parsed comments: the comment no recording showed
 * cannot be formatted, and the answer is a miss naming it (MediaWiki 1.39, 1.43: a walk of
 * `list=protectedtitles&ptprop=level|userid` asked `ptprop=parsedcomment` once answered an
 * internal error of wikitape's own, `internal_api_error_TypeError`, unflagged). The oracle is the
 * bundled wiki's recording (real MediaWiki 1.43 answers); the walks are recorded from it, as
 * `wikitape record` in front of it stores them.
 */
const { recordedWalk, expectRefused } = bundledWalks('walks-without-comments');

describe('a complete walk without comments, asked for parsed comments', () => {
  it('of the protected titles: a miss naming them', async () => {
    const dir = await recordedWalk('action=query&list=protectedtitles&ptprop=timestamp|level&ptlimit=max');
    await expectRefused(dir, ['action=query&list=protectedtitles&ptprop=parsedcomment&ptlimit=3', 'action=query&list=protectedtitles&ptprop=parsedcomment|level&ptdir=newer'], 'protectedtitles.parsedcomment');
  });

  it('of the log: a miss naming them', async () => {
    const dir = await recordedWalk('action=query&list=logevents&leprop=ids|title|type|timestamp&lelimit=max');
    await expectRefused(dir, ['action=query&list=logevents&leprop=parsedcomment&lelimit=3', 'action=query&list=logevents&leprop=parsedcomment|ids&letype=create'], 'logevents.parsedcomment');
  });
});
