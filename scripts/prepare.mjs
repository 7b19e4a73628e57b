// npm's `prepare`: builds dist/ (run by npm ci / npm install in a clone, and by npm pack).
// npm also runs it when another project installs a clone by path (npm install ../wikitape):
// then the clone's own development dependencies must be there, so it says how to get them
// instead of failing with "tsc: not found".
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(tsc)) {
  if (existsSync(join(root, 'dist', 'cli.js'))) process.exit(0);
  process.stderr.write(
    `wikitape: ${root} is not built yet, and its build tools are not installed.\n` +
      `Build the clone first:   (cd ${root} && npm ci)\n` +
      'then install it again, or install a packed copy:   (cd <clone> && npm pack --pack-destination <folder>), then npm install <folder>/wikitape-<version>.tgz\n',
  );
  process.exit(1);
}
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
process.exit(r.status ?? 1);
