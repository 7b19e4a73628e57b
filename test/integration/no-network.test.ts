import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliTest, startCli } from '../support/cli.js';

/** Replay is offline: the process opens no connection and looks up no host while it answers. */
const WATCH = join(import.meta.dirname, '..', 'support', 'watch-network.mjs');

describe('replay', () => {
  it('opens no network connection while answering hits, synthesized, built-in and miss questions', cliTest(1), async () => {
    const cli = await startCli(['replay', '--quiet'], { nodeArgs: ['--import', WATCH] });
    // Binding the listening socket looks its address up; only what happens while answering counts.
    const before = cli.stderr().length;
    for (const q of [
      'action=query&list=logevents&format=json',
      'action=query&list=logevents&lelimit=3&format=json',
      'action=query&prop=extlinks&titles=Beta&format=json',
      'action=query&list=allusers&format=json',
      'action=parse&summary=[[X]]&format=json',
      'action=query&list=protectedtitles',
    ]) {
      expect((await fetch(`${cli.url}?${q}`)).status).toBe(200);
    }
    await cli.stop();
    expect(cli.stderr().slice(before).split('\n').filter((l) => l.startsWith('OUTBOUND') || l.startsWith('DNS'))).toEqual([]);
  });
});
