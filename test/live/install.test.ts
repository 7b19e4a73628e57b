import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * The README's "Adding wikitape to your own project", run as written: a fresh clone built with
 * `npm ci`, installed into another project by path, and a packed copy (packed into a folder of its
 * own, leaving the clone as it was) installed the same way.
 * (Here, with the live tier, because npm fetches the dependencies.)
 */
const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');

async function project(dep: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wikitape-user-project-'));
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'my-bot', version: '1.0.0', type: 'module' }));
  await run('npm', ['install', '--save-dev', '--no-audit', '--no-fund', dep], { cwd: dir, maxBuffer: 16 << 20 });
  await writeFile(
    join(dir, 'check.mjs'),
    // Given nothing, the spec's wiki, read from the installed package's fixtures.
    "import { startServer } from 'wikitape';\nconst s = await startServer();\nconst r = await (await fetch(`${s.url}?action=query&meta=siteinfo&list=blocks&bklimit=1&format=json`)).json();\nconsole.log(r.query.general.sitename, r.query.blocks[0]['duration-l10n']);\nawait s.close();\n",
  );
  return dir;
}

describe('adding wikitape to a project', () => {
  it('works from a fresh clone (built with npm ci) and from a packed copy', async () => {
    const clone = join(await mkdtemp(join(tmpdir(), 'wikitape-fresh-')), 'wikitape');
    await run('git', ['clone', '--quiet', ROOT, clone]);
    await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: clone, maxBuffer: 64 << 20 });
    const byPath = await project(clone);
    expect((await run(process.execPath, ['check.mjs'], { cwd: byPath })).stdout).toBe('Тестовая вики бессрочно\n');
    expect((await run('npx', ['wikitape', '--help'], { cwd: byPath })).stdout).toContain('wikitape <command> [options]');
    // packed as the README packs it: into a folder of its own, nothing left in the clone
    const packs = await mkdtemp(join(tmpdir(), 'wikitape-packs-'));
    const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', packs], { cwd: clone });
    expect((await run('git', ['status', '--porcelain'], { cwd: clone })).stdout).toBe('');
    const packed = await project(join(packs, stdout.trim().split('\n').pop()!));
    expect((await run(process.execPath, ['check.mjs'], { cwd: packed })).stdout).toBe('Тестовая вики бессрочно\n');
  }, 600_000);
});
