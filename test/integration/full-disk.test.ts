import { lstat, mkdtemp, readFile, symlink } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileCassetteStore } from '../../src/cassette/store.js';
import { Recorder } from '../../src/record/recorder.js';

/**
 * A cassette write that fails on a full disk leaves no partial temporary file behind. The disk is
 * full for real: the temporary file lowdb writes (`.<file>.tmp`) is made a link to /dev/full,
 * where every write fails with ENOSPC.
 */
describe('a full disk', () => {
  it.skipIf(process.platform !== 'linux')('leaves no temporary file; once there is room, the recording is written', async () => {
    const wiki = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"batchcomplete":true,"query":{"logevents":[]}}'));
    await new Promise<void>((r) => wiki.listen(0, '127.0.0.1', r));
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-full-'));
    const tmp = join(dir, '.c.json.tmp');
    await symlink('/dev/full', tmp);
    const lines: string[] = [];
    const rec = new Recorder({ upstream: `http://127.0.0.1:${(wiki.address() as AddressInfo).port}/w/api.php`, store: new FileCassetteStore(dir), cassette: 'c', onError: (l) => lines.push(l) });
    try {
      await rec.ready();
      await rec.ask({ action: 'query', list: 'logevents' });
      await expect(rec.flush()).rejects.toThrow(/ENOSPC/);
      expect(lines).toEqual([expect.stringMatching(/could not store a recording in .*c\.json: ENOSPC/)]);
      await expect(lstat(tmp)).rejects.toMatchObject({ code: 'ENOENT' });
      // The disk has room again: the same recording is written.
      await rec.flush();
      expect(JSON.parse(await readFile(join(dir, 'c.json'), 'utf8')).interactions).toHaveLength(1);
    } finally {
      rec.close();
      wiki.close();
    }
  });
});
