import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CredentialsError, diffCredentials } from '../../../src/record/diff-login.js';

/** Where `cassettes diff` takes the passwords of recorded identities from, and what it never says of them. */
describe('cassettes diff credentials', () => {
  it('takes one identity from WIKITAPE_DIFF_USER and WIKITAPE_DIFF_PASSWORD, more from a file; the environment wins for its identity', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-credentials-'));
    const file = join(dir, 'c.json');
    await writeFile(file, JSON.stringify([{ user: 'Admin@bot', password: 'from-file' }, { user: 'Other', password: 'p2' }]));
    expect(await diffCredentials({})).toEqual([]);
    expect(await diffCredentials({ WIKITAPE_DIFF_USER: '', WIKITAPE_DIFF_PASSWORD: '' })).toEqual([]);
    expect(await diffCredentials({ WIKITAPE_DIFF_USER: 'Admin@bot', WIKITAPE_DIFF_PASSWORD: 'from-env' }, file)).toEqual([
      { user: 'Other', password: 'p2' },
      { user: 'Admin@bot', password: 'from-env' },
    ]);
  });

  it('refuses half of a pair and a file it cannot read, naming neither password nor the text around it', async () => {
    await expect(diffCredentials({ WIKITAPE_DIFF_USER: 'Admin@bot' })).rejects.toThrow('WIKITAPE_DIFF_PASSWORD is not set');
    await expect(diffCredentials({ WIKITAPE_DIFF_PASSWORD: 's3cret-pw' })).rejects.toThrow(/^wikitape: WIKITAPE_DIFF_USER is not set/);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-credentials-'));
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"user": "Admin@bot", "password": "s3cret-pw",,}');
    const fails = [() => diffCredentials({}, broken), () => diffCredentials({}, join(dir, 'absent.json')), () => diffCredentials({ WIKITAPE_DIFF_PASSWORD: 's3cret-pw' })];
    for (const f of fails) {
      const e = await f().then(
        () => null,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(CredentialsError);
      expect((e as CredentialsError).code).toBe('WIKITAPE_CREDENTIALS');
      expect((e as Error).message).not.toContain('s3cret');
    }
    await writeFile(broken, JSON.stringify({ user: 'Admin@bot' }));
    await expect(diffCredentials({}, broken)).rejects.toThrow(`the credentials file ${broken} has no "user" and "password"`);
  });
});
