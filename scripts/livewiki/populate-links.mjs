// Adds to a live MediaWiki (after populate.mjs, whose pages it leaves as they are) pages in
// categories (sort keys, a hidden category, category pages that exist and ones that do not, a
// subcategory), templates in use (nested, and one from another namespace), page properties, and
// language and interwiki links (their prefixes are put in the interwiki table by live-wiki.sh first).
// Idempotent: saving the same text again changes nothing (a null edit).
// Usage: API_URL=http://127.0.0.1:8088/wiki/api.php BOT_USER=Admin@seed BOT_PASS=... node populate-links.mjs
import { connect } from './client.mjs';

const { write } = await connect(process.env.API_URL, process.env.BOT_USER, process.env.BOT_PASS);

/** In order: templates and category pages before the pages that use them. */
const PAGES = [
  // A template that uses another (nested), and a page of the project namespace transcluded as one.
  ['Template:Подпись', 'Подпись: {{{1|без имени}}}<noinclude>\n[[Category:Шаблоны]]</noinclude>'],
  ['Template:Карточка города', '<includeonly>{| class="wikitable"\n! {{{название|{{PAGENAME}}}}}\n|-\n| {{Подпись|{{{страна|Россия}}}}}\n|}[[Category:Города|{{PAGENAME}}]]</includeonly><noinclude>Карточка города. {{Подпись|документация}}\n[[Category:Шаблоны]]</noinclude>'],
  ['Project:Врезка', 'Врезка из пространства проекта.'],
  // Category pages: one with text that is itself in a category (a subcategory, sort key *),
  // a hidden one, and one nothing is in. Category:Сибирь and Category:Шаблоны have members and no page.
  ['Category:Столицы', 'Столицы городов. [[Category:Города|*]]'],
  ['Category:Служебная', '__HIDDENCAT__Служебная категория.'],
  ['Category:Пустая', '__EXPECTUNUSEDCATEGORY__Категория без страниц.'],
  // Articles: categories with and without sort keys, DEFAULTSORT, DISPLAYTITLE, magic words,
  // language links (en, de, fr, uk) and interwiki links (wikipedia, mw, wikt, metawiki).
  ['Омск', '{{Карточка города|название=Омск}}{{DISPLAYTITLE:<i>Омск</i>}}{{DEFAULTSORT:Омск, город}}__NOTOC__ __NOINDEX__\n'
    + 'Город в Сибири, см. [[wikipedia:Omsk]] и [[mw:Help:Links|справку]].\n== История ==\nОснован в 1716 году.\n== География ==\nНа Иртыше.\n'
    + '[[Category:Сибирь]]\n[[Category:Служебная]]\n[[en:Omsk]]\n[[de:Omsk]]\n[[fr:Omsk]]'],
  ['Томск', '{{Карточка города|страна=Россия}}\n{{Project:Врезка}}\nГород на Томи, [[wikt:город|город]].__NOEDITSECTION__ __NEWSECTIONLINK__\n'
    + '[[Category:Сибирь|Томск]]\n[[Category:Столицы|Томск, губернский]]\n[[en:Tomsk]]\n[[uk:Томськ]]'],
  ['Лондон', '{{Подпись|Лондон}}{{DISPLAYTITLE:Лондон}}__INDEX__\nСтолица, см. [[wikipedia:London]], [[metawiki:Main Page]] и [[wikipedia:de:London]].\n'
    + '[[Category:Столицы|Лондон]]\n[[Category:Служебная|лондон]]\n[[en:London]]\n[[de:London]]\n[[fr:Londres]]\n[[uk:Лондон]]'],
  ['Ёлкино', 'Посёлок.{{DEFAULTSORT:Елкино}}__NOGALLERY__\n[[Category:Сибирь]]\n[[Category:Города|ёлкино]]\n[[uk:Ялинкине]]'],
];
for (const [title, text] of PAGES) await write({ action: 'edit', title, text, summary: 'Категории, шаблоны и ссылки /* Ссылки */' });
console.log('populated links', { pages: PAGES.length });
