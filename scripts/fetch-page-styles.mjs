// The styles MediaWiki's API result page loads (load.php?modules=mediawiki.apipretty|
// mediawiki.skinning.interface&only=styles&skin=apioutput), as a live wiki's load.php serves them,
// into fixtures/page-styles/<version>-<lang>.css: replay serves them to its own HTML page.
//   node scripts/fetch-page-styles.mjs http://127.0.0.1:8088/wiki/api.php http://127.0.0.1:8089/wiki/api.php
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'page-styles');
for (const api of process.argv.slice(2)) {
  const si = await (await fetch(`${api}?action=query&meta=siteinfo&format=json&formatversion=2`)).json();
  const version = si.query.general.generator.replace(/^MediaWiki (\d+\.\d+).*$/, '$1');
  for (const lang of ['en', 'ru']) {
    const url = `${api.replace(/api\.php$/, 'load.php')}?lang=${lang}&modules=mediawiki.apipretty%7Cmediawiki.skinning.interface&only=styles&skin=apioutput`;
    const r = await fetch(url);
    if (!r.ok || !r.headers.get('content-type')?.startsWith('text/css')) throw new Error(`${url}: HTTP ${r.status} ${r.headers.get('content-type')}`);
    const file = join(OUT, `${version}-${lang}.css`);
    await writeFile(file, await r.text());
    console.log(`${file} (from ${url})`);
  }
}
