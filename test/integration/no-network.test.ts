import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Replay is offline: the process opens no connection and looks up no host while it answers. */
const ROOT = join(import.meta.dirname, '..', '..');

describe('replay', () => {
  it('opens no network connection while answering hits, synthesized, built-in and miss questions', async () => {
    const child = spawn(process.execPath, ['--import', join(ROOT, 'test', 'support', 'watch-network.mjs'), join(ROOT, 'dist', 'cli.js'), 'replay', '--port', '0', '--quiet'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const url = await new Promise<string>((resolve) => child.stdout.once('data', (d: Buffer) => resolve(/http\S+/.exec(d.toString())![0])));
    // Binding the listening socket looks its address up; only what happens while answering counts.
    stderr = '';
    for (const q of [
      'action=query&list=logevents&format=json',
      'action=query&list=logevents&lelimit=3&format=json',
      'action=query&prop=extlinks&titles=Beta&format=json',
      'action=query&list=allusers&format=json',
      'action=parse&summary=[[X]]&format=json',
      'action=query&list=protectedtitles',
    ]) {
      expect((await fetch(`${url}?${q}`)).status).toBe(200);
    }
    child.kill();
    await new Promise((r) => child.once('exit', r));
    expect(stderr.split('\n').filter((l) => l.startsWith('OUTBOUND') || l.startsWith('DNS'))).toEqual([]);
  });
});
