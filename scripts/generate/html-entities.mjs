// Writes src/util/html-entities.ts: HTML5 named character references as RemexHtml (bundled with
// MediaWiki) lists them (HTMLData::$namedEntityTranslations), read with PHP from the MediaWiki
// installed by scripts/live-wiki.sh.
//
// Usage: node scripts/generate/html-entities.mjs [MEDIAWIKI_DIR] [OUT]
//   default MEDIAWIKI_DIR /usr/share/mediawiki (Debian's 1.39), OUT src/util/html-entities.ts
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const OUT = 'src/util/html-entities.ts';
const [mw = '/usr/share/mediawiki', out = OUT] = process.argv.slice(2);
const data = join(mw, 'vendor/wikimedia/remex-html/src/HTMLData.php');
// name=hex[.hex] per entity, in the order PHP holds them.
const php = `require ${JSON.stringify(data)};
foreach (Wikimedia\\RemexHtml\\HTMLData::$namedEntityTranslations as $name => $chars) {
  $cps = array_map(fn ($c) => dechex(mb_ord($c, 'UTF-8')), mb_str_split($chars, 1, 'UTF-8'));
  echo $name, '=', implode('.', $cps), "\\n";
}`;
const items = execFileSync('php', ['-r', php], { encoding: 'utf8' }).trim().split('\n');
const lines = [];
for (let i = 0; i < items.length; i += 24) lines.push(items.slice(i, i + 24).join(' '));
const template = readFileSync(new URL('./html-entities.template.txt', import.meta.url), 'utf8');
const body = lines.map((l, i) => `  '${l}${i < lines.length - 1 ? ' ' : ''}'${i < lines.length - 1 ? ' +' : ';'}`).join('\n');
writeFileSync(out, template.replace('/* DATA */', `\n${body}`));
process.stderr.write(`${out}: ${items.length} entities from ${data}\n`);
