import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * `npm pack` leaves no untracked tarball in the repository: git ignores what it packs in place,
 * and the README's install recipe packs into a folder of its own.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/**
 * Whether this tree is a git checkout (`.git` is a folder, or a file in a worktree). An npm pack
 * tarball or an exported tree has none: there is no git to ask what it ignores.
 */
const inGit = existsSync(join(ROOT, '.git'));

describe('npm pack in the repository', () => {
  it.skipIf(!inGit)(`git ignores the tarball it writes in place${inGit ? '' : ' (skipped: this tree has no .git, as an npm pack tarball or an exported tree has none)'}`, () => {
    // exit 0: ignored (execFileSync throws on 1, "not ignored")
    expect(execFileSync('git', ['check-ignore', `wikitape-${version}.tgz`], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(`wikitape-${version}.tgz`);
  });

  it("the README's install recipe packs into a folder of its own", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    // the commands of its shell blocks
    const commands = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n'));
    const packs = commands.filter((l) => /\bnpm pack\b/.test(l));
    expect(packs.length).toBeGreaterThan(0);
    for (const line of packs) expect(line).toContain('npm pack --pack-destination');
  });
});
