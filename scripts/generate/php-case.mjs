// Writes src/util/php-case.ts (see php-case.php): Node's upper case of every character is handed
// to PHP, which keeps only where its own differs.
// Usage: node scripts/generate/php-case.mjs [OUT]
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';

const [out = 'src/util/php-case.ts'] = process.argv.slice(2);
const node = {};
for (let cp = 0x80; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  const c = String.fromCodePoint(cp);
  const u = c.toUpperCase();
  if (u !== c) node[cp.toString(16)] = u;
}
const text = execFileSync('php', [new URL('./php-case.php', import.meta.url).pathname], { input: JSON.stringify(node), encoding: 'utf8', maxBuffer: 16 << 20 });
writeFileSync(out, text);
process.stderr.write(`${out}: written\n`);
