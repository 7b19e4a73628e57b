import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULES } from '../../src/modules/index.js';
import { FV1_CHECKED } from '../../src/output/formatversion.js';
import { startCli, type CliServer } from '../support/cli.js';
import { answerDifferences, type Printed } from '../support/differential.js';
import { LIVE_ONCE, LIVE_VERSIONS, liveWiki, type LiveVersion } from '../support/live-wiki.js';

/**
 * formatversion=1 of recorded answers against the live wikis (the check FV1_CHECKED's doc comment
 * names): recordings are always stored as formatversion=2 JSON, and replay prints formatversion=1
 * by converting them (src/output/formatversion.ts), which it can do as the wiki does only for the
 * modules it was checked for. Each question below is recorded once, in formatversion=2, through
 * `wikitape record`; then `wikitape replay` (default settings: a miss is an error) and the live
 * wiki are asked it, one after the other, as `format=json`, `format=json&formatversion=2`,
 * `format=json&utf8=1` and `format=jsonfm`. Each answer is equal, flagged (a miss, or
 * X-Wikitape-Unknown) or silently wrong; the test fails on any silently wrong answer, and on any
 * answer other than expected: every one equal to the wiki's, except that a question naming a
 * module neither built in nor in FV1_CHECKED (the negative check, transcludedin; embeddedin and
 * langbacklinks too) is a miss naming it in formatversion=1, as is a generator's order of pages
 * (FV1_UNKNOWN), and an HTML page that holds what
 * replay cannot print (PAGE_UNKNOWN) is a miss naming that. Every module of FV1_CHECKED is named
 * by a question compared in every form, and the lists the data of scripts/livewiki/populate-links.mjs
 * fills (NON_EMPTY) are compared holding entries, not only empty. Read-only: nothing is written to the wikis.
 */

const e = encodeURIComponent;

/** What each question is asked as, after it was recorded in formatversion=2. */
const FORMS = ['format=json', 'format=json&formatversion=2', 'format=json&utf8=1', 'format=jsonfm'] as const;
/** The formatversion=1 forms among FORMS. */
const FV1_FORMS: ReadonlySet<string> = new Set(['format=json', 'format=json&utf8=1', 'format=jsonfm']);

/**
 * The negative check: a module not built in and not in FV1_CHECKED (its formatversion=1 form was
 * never checked), recorded like the rest: a miss in formatversion=1, the recording in formatversion=2.
 */
const UNCHECKED = `action=query&prop=transcludedin&titles=${e('Шаблон:Инфобокс|Москва')}&tiprop=pageid|title|redirect`;

/** An anonymous edit's intro on 1.43 is a Codex message box: its HTML page loads the box's styles (page.styles). */
const EDITINTRO = `action=query&prop=info&titles=Alpha&inprop=editintro`;
/** A magic word in a parameter: the wiki's HTML page leaves it out of the format link (page.header). */
const NOTOC = `action=expandtemplates&text=${e('{{DEFAULTSORT:Ключ}}__NOTOC__{{PAGENAME}}')}&title=Alpha&prop=properties|wikitext`;

/** A generator's pages (by sort key): formatversion=1 keeps its order, which the recording (pages by id) does not show. */
const GENERATED = `action=query&generator=categorymembers&gcmtitle=${e('Категория:Города')}&gcmlimit=max&prop=categories|pageprops|langlinks|templates&clprop=hidden|sortkey`;

/** What replay says it cannot print as the wiki does in formatversion=1 (json, utf8, jsonfm) of these questions, beside unchecked modules. */
const FV1_UNKNOWN: ReadonlyMap<string, string[]> = new Map([[GENERATED, ['formatversion.pageorder']]]);

/**
 * What replay says it cannot print as the wiki does on the HTML page (jsonfm) of these questions,
 * by version: a miss naming it (render-recorded.ts pageUnknown), whatever the formatversion.
 */
const PAGE_UNKNOWN: ReadonlyMap<string, (version: LiveVersion) => string[]> = new Map([
  [EDITINTRO, (v: LiveVersion) => (v === '1.43' ? ['page.styles'] : [])],
  [NOTOC, () => ['page.header']],
]);

/**
 * The questions: every module of FV1_CHECKED, most with every prop the anonymous reader may ask
 * (content values, BC sub-elements, kvp lists and flags are what formatversion=1 prints
 * differently), and a few built-in modules' recorded answers (parse, siteinfo, logevents).
 */
const QUESTIONS: readonly string[] = [
  // revisions: the old content (`*`, no slots), slots, every other prop
  `action=query&prop=revisions&titles=${e('Москва')}&rvprop=content`,
  `action=query&prop=revisions&titles=${e('Москва')}&rvprop=content|ids&rvslots=*`,
  `action=query&prop=revisions&titles=${e('Москва')}&rvprop=ids|flags|timestamp|user|userid|comment|parsedcomment|tags|size|sha1|contentmodel&rvlimit=5`,
  `action=query&prop=revisions&titles=${e('Москва')}&rvprop=ids|comment|parsedcomment|roles|size|slotsize|sha1|slotsha1|contentmodel&rvslots=main&rvlimit=3`,
  `action=query&prop=revisions&revids=1|2&rvprop=ids|content|contentmodel|flags&rvslots=main`,
  `action=query&prop=revisions&titles=${e('Москва')}&rvprop=content&rvsection=1&rvslots=main`,
  // parse (built in), its recorded answers in formatversion=1
  `action=parse&page=${e('Москва')}&prop=links|categories|langlinks|templates|iwlinks|sections|wikitext|displaytitle|images|externallinks`,
  `action=parse&text=${e('[[Категория:Города]] [[en:Moscow]] [[wikipedia:Foo]] {{PAGENAME}} [[Москва]]')}&title=X&prop=links|categories|langlinks|templates|iwlinks|wikitext|text`,
  `action=parse&text=${e('{{Карточка города}}{{DISPLAYTITLE:<b>X</b>}}{{DEFAULTSORT:Икс}}[[Категория:Служебная|ключ]] [[de:X]] [[uk:Ікс]] [[mw:X]]')}&title=X&prop=categories|langlinks|templates|iwlinks|properties|displaytitle`,
  `action=parse&text=${e('== A ==\nx')}&prop=sections|headhtml|limitreporthtml&contentmodel=wikitext`,
  `action=query&meta=allmessages&ammessages=mainpage|edit|history`,
  `action=query&meta=allmessages&ammessages=mainpage|nosuchmessage-wikitape|pagetitle&amprop=default&amargs=X&amenableparser=1`,
  `action=compare&fromtitle=Alpha&totitle=Beta`,
  `action=compare&fromtitle=Alpha&totitle=Beta&prop=diff|diffsize|rel|ids|title|user|comment|parsedcomment|size|timestamp`,
  `action=compare&fromtitle=Alpha&totitle=Beta&slots=main&prop=diff|diffsize|ids`,
  `action=query&list=usercontribs&ucuser=Admin&uclimit=5&ucprop=ids|title|timestamp|comment|parsedcomment|size|sizediff|flags|tags`,
  `action=query&list=usercontribs&ucuser=Admin&uclimit=3&ucshow=!minor&ucprop=flags|title`,
  `action=query&prop=categoryinfo&titles=${e('Категория:Города|Категория:Нет такой')}`,
  `action=query&prop=imageinfo&titles=${e('Файл:Образец 1.png')}&iiprop=timestamp|user|size|url|metadata|sha1|mime`,
  `action=query&prop=imageinfo&titles=${e('Файл:Образец 2.png|Файл:Нет такого.png')}&iiprop=timestamp|user|userid|comment|parsedcomment|canonicaltitle|url|size|dimensions|sha1|mime|mediatype|metadata|commonmetadata|extmetadata|bitdepth|badfile`,
  // expandtemplates: with prop (categories as content values, properties a BCkvp list), without (the old way, `*`), and generatexml's top-level parsetree
  `action=expandtemplates&text=${e('{{PAGENAME}}')}&title=Alpha&prop=wikitext`,
  `action=expandtemplates&text=${e('{{PAGENAME}}')}&title=Alpha`,
  `action=expandtemplates&text=${e('[[Категория:Города]]{{DEFAULTSORT:Ключ}}{{DISPLAYTITLE:Gamma}}{{PAGENAME}}')}&title=Alpha&prop=categories|properties|wikitext|parsetree|volatile|ttl`,
  `action=expandtemplates&text=${e('{{DISPLAYTITLE:Alpha}}{{PAGENAME}}')}&title=Alpha&prop=properties|modules|jsconfigvars|encodedjsconfigvars`,
  `action=expandtemplates&text=${e('{{DEFAULTSORT:Ключ}}{{PAGENAME}}')}&title=Alpha&generatexml=1`,
  NOTOC,
  `action=query&list=categorymembers&cmtitle=${e('Категория:Города')}&cmprop=ids|title|sortkey|sortkeyprefix|type|timestamp`,
  // categorymembers: by time, by type (a subcategory), from a sort key prefix, continued, of a category without a page, of a hidden one
  `action=query&list=categorymembers&cmtitle=${e('Категория:Сибирь')}&cmsort=timestamp&cmdir=desc&cmprop=ids|title|timestamp|sortkeyprefix`,
  `action=query&list=categorymembers&cmtitle=${e('Категория:Города')}&cmtype=subcat|file&cmprop=title|type|sortkey`,
  `action=query&list=categorymembers&cmtitle=${e('Категория:Столицы')}&cmlimit=1&cmprop=title|sortkeyprefix`,
  `action=query&list=categorymembers&cmtitle=${e('Категория:Служебная')}&cmstartsortkeyprefix=${e('Л')}&cmprop=title|sortkeyprefix|type`,
  GENERATED,
  `action=query&generator=categorymembers&gcmtitle=${e('Категория:Столицы')}&gcmlimit=1&prop=categories|pageprops|langlinks&clprop=hidden`,
  `action=query&list=backlinks&bltitle=${e('Москва')}`,
  `action=query&list=backlinks&bltitle=${e('Москва')}&blredirect=1&blfilterredir=all`,
  `action=query&prop=pageprops|info&titles=${e('Москва|Alpha')}`,
  `action=query&prop=info&titles=${e('Москва|Alpha|Нет такой страницы|Special:Version')}&inprop=protection|talkid|subjectid|url|displaytitle|varianttitles|associatedpage|preload&intestactions=edit|read|move`,
  // preloadcontent and editintro (1.43; 1.39 warns of unknown values): the content value `content`
  `action=query&prop=info&titles=${e('Нет такой страницы')}&inprop=preloadcontent&inpreloadcustom=Alpha`,
  EDITINTRO,
  `action=query&prop=info&titles=${e('Мгновенная защита')}&intestactions=edit|move|create&intestactionsdetail=full`,
  `action=query&list=tags&tgprop=displayname|description|hitcount|defined|source|active`,
  `action=query&list=allcategories&acprop=size|hidden`,
  `action=query&list=exturlusage&euprop=ids|title|url`,
  `action=query&meta=filerepoinfo`,
  `action=query&list=allimages&aiprop=timestamp|user|size|mime`,
  `action=query&list=allimages&ailimit=2&aiprop=timestamp|user|userid|comment|parsedcomment|canonicaltitle|url|size|dimensions|sha1|mime|mediatype|metadata|commonmetadata|extmetadata|bitdepth|badfile`,
  `action=query&prop=templates|categories&titles=${e('Москва')}&clprop=sortkey|hidden|timestamp`,
  // categories: sort keys (an explicit one, DEFAULTSORT's, a template's), hidden ones shown and not, a subset, continued
  `action=query&prop=categories&titles=${e('Омск|Томск|Лондон|Ёлкино|Категория:Столицы')}&clprop=sortkey|timestamp|hidden`,
  `action=query&prop=categories&titles=${e('Омск|Лондон')}&clshow=hidden&clprop=hidden`,
  `action=query&prop=categories&titles=${e('Омск|Лондон|Томск')}&clshow=!hidden&clcategories=${e('Категория:Города|Категория:Столицы|Категория:Нет такой')}&cldir=descending`,
  `action=query&prop=categories&titles=${e('Омск|Томск|Лондон')}&cllimit=2&clprop=sortkey`,
  // templates: nested, from the project namespace, a namespace or template named, continued
  `action=query&prop=templates&titles=${e('Омск|Томск|Лондон|Шаблон:Карточка города')}`,
  `action=query&prop=templates&titles=${e('Томск')}&tlnamespace=4`,
  `action=query&prop=templates&titles=${e('Томск|Омск')}&tltemplates=${e('Шаблон:Подпись|Шаблон:Нет такого')}&tldir=descending`,
  `action=query&prop=templates&titles=${e('Омск|Томск')}&tllimit=2`,
  // pageprops: DISPLAYTITLE, DEFAULTSORT, the behaviour switches, a hidden and an unused category's, some named
  `action=query&prop=pageprops&titles=${e('Омск|Томск|Лондон|Ёлкино|Категория:Служебная|Категория:Пустая|Москва|Нет такой страницы')}`,
  `action=query&prop=pageprops&titles=${e('Омск|Томск|Лондон')}&ppprop=displaytitle|noindex|index`,
  `action=query&prop=info|pageprops&titles=${e('Омск|Лондон')}&inprop=displaytitle`,
  `action=query&prop=categoryinfo&titles=${e('Категория:Служебная|Категория:Сибирь|Категория:Пустая|Категория:Столицы|Категория:Шаблоны')}`,
  // langlinks and iwlinks: every prop, a language or prefix named, a title named, in another language, the old llurl, continued
  `action=query&prop=langlinks&titles=${e('Омск|Томск|Лондон|Ёлкино|Москва')}&llprop=url|langname|autonym`,
  `action=query&prop=langlinks&titles=${e('Лондон|Омск')}&lllang=de&llprop=url|autonym`,
  `action=query&prop=langlinks&titles=${e('Лондон')}&lllang=fr&lltitle=Londres`,
  `action=query&prop=langlinks&titles=${e('Лондон|Ёлкино')}&llinlanguagecode=uk&llprop=langname|autonym`,
  `action=query&prop=langlinks&titles=${e('Лондон')}&llurl=1`,
  `action=query&prop=langlinks&titles=${e('Омск|Лондон')}&lllimit=3&lldir=descending`,
  `action=query&prop=iwlinks&titles=${e('Омск|Томск|Лондон|Москва')}&iwprop=url`,
  `action=query&prop=iwlinks&titles=${e('Лондон|Омск')}&iwprefix=wikipedia`,
  `action=query&prop=iwlinks&titles=${e('Лондон')}&iwprefix=wikipedia&iwtitle=London`,
  `action=query&prop=iwlinks&titles=${e('Лондон|Омск')}&iwlimit=2&iwdir=descending&iwurl=1`,
  // not in FV1_CHECKED: compared in formatversion=2, a miss in formatversion=1
  `action=query&list=embeddedin&eititle=${e('Шаблон:Подпись')}`,
  `action=query&list=langbacklinks&lbllang=en&lblprop=lllang|lltitle`,
  // parse of pages with all of it
  `action=parse&page=${e('Омск')}&prop=langlinks|iwlinks|categories|templates|properties|displaytitle|sections|links`,
  `action=parse&page=${e('Лондон')}&prop=langlinks|iwlinks|categories|categorieshtml|templates|properties|displaytitle`,
  `action=parse&page=${e('Томск')}&prop=templates|categories|properties|text&disablelimitreport=1`,
  `action=query&generator=allpages&gaplimit=4&prop=info`,
  // allpages gives its pages by title (formatversion=1 keeps that order), other than by id
  `action=query&generator=allpages&gapfrom=Delta&gaplimit=6&prop=info|pageprops`,
  `action=query&generator=allpages&gapfrom=Gamma&gaplimit=3&gapdir=descending&prop=categories`,
  `action=query&generator=allpages&gaplimit=3&prop=revisions|categories|templates&rvprop=ids|flags|user|size|comment`,
  `action=query&list=users&ususers=Admin|Nobody123&usprop=groups|editcount|registration|blockinfo|emailable|gender`,
  `action=query&list=users&ususers=${e('Spammer 1|Flooder 1|Admin|127.0.0.1|Bad#name')}&usprop=blockinfo|groups|groupmemberships|implicitgroups|rights|editcount|registration|emailable|gender|centralids|cancreate`,
  `action=query&list=allusers&aulimit=5&auprop=blockinfo|groups`,
  `action=query&list=allusers&aulimit=4&auprop=blockinfo|groups|implicitgroups|rights|editcount|registration|centralids&auwitheditsonly=1`,
  `action=query&prop=links&titles=${e('Москва|Alpha|Зета')}&plnamespace=0`,
  // pages without language or interwiki links beside one with them
  `action=query&prop=langlinks|iwlinks|links&titles=${e('Москва|Alpha|Лондон')}`,
  `action=query&prop=langlinks|iwlinks&titles=${e('Москва')}&llprop=url|langname|autonym&iwprop=url`,
  `action=query&list=search&srsearch=${e('Москва')}&srprop=size|wordcount|timestamp|snippet|titlesnippet|redirecttitle|redirectsnippet|sectiontitle|sectionsnippet|isfilematch|categorysnippet&srinfo=totalhits|suggestion`,
  // random: another page on every request; compared by its shape (see steady)
  `action=query&list=random&rnlimit=2`,
  `action=query&prop=info&titles=${e('Мгновенная защита|Ёлка')}&inprop=protection`,
  `action=query&list=logevents&letype=upload&leprop=ids|title|details`,
  `action=query&prop=redirects|linkshere&titles=${e('Зета')}`,
  `action=query&prop=redirects|linkshere&titles=${e('Зета|Москва')}&rdprop=pageid|title|fragment&lhprop=pageid|title|redirect`,
  `action=query&list=allredirects&arprop=ids|title|fragment|interwiki`,
  `action=query&list=alllinks&alprop=ids|title`,
  `action=query&list=alllinks&alunique=1&alnamespace=0`,
  `action=query&prop=contributors&titles=${e('Москва|Alpha')}`,
  UNCHECKED,
  `action=query&meta=siteinfo&siprop=extensiontags|functionhooks|variables|protocols|restrictions|languages|skins|extensions|fileextensions|rightsinfo|usergroups|libraries|defaultoptions|uploaddialog|languagevariants`,
];

/**
 * The lists that were compared only empty before the live wikis had categories, templates, page
 * properties, language and interwiki links: each must hold entries in some recorded answer (query's
 * prop and list modules, parse's lists), or their comparison would prove little.
 */
const NON_EMPTY = ['categories', 'templates', 'pageprops', 'categorymembers', 'langlinks', 'iwlinks', 'properties'] as const;

/** The keys of NON_EMPTY that hold a non-empty list or object somewhere in `v`. */
function filledIn(v: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) filledIn(x, found);
  else if (typeof v === 'object' && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      if ((NON_EMPTY as readonly string[]).includes(k) && typeof x === 'object' && x !== null && Object.keys(x).length > 0) found.add(k);
      filledIn(x, found);
    }
  }
  return found;
}

/** The modules a question names: its action, or `query+<name>` for each prop, list, meta and generator. */
function modulesOf(question: string): string[] {
  const p = new URLSearchParams(question);
  const action = p.get('action') ?? 'help';
  if (action !== 'query') return [action];
  return ['prop', 'list', 'meta', 'generator'].flatMap((g) => (p.get(g) ?? '').split('|').filter(Boolean).map((m) => `query+${m}`));
}

/** Whether wikitape builds the module in (then it prints its formatversion=1 form itself). */
function builtIn(module: string): boolean {
  if (!module.startsWith('query+')) return MODULES.actions.some((a) => a.name === module);
  const name = module.slice('query+'.length);
  return [...MODULES.query.prop, ...MODULES.query.list, ...MODULES.query.meta].some((m) => m.name === name);
}

/** The modules a question names whose formatversion=1 form replay does not know: neither built in nor in FV1_CHECKED. */
function uncheckedOf(question: string): string[] {
  return modulesOf(question).filter((m) => !builtIn(m) && !FV1_CHECKED.has(m));
}

/**
 * What differs on every request beyond what differential.ts's normalize drops: the request id in
 * parse's headhtml (a JSON string inside the answer, so its quotes are escaped), the CPU and real
 * time of the parse in limitreporthtml's table (`<td>0,002 секунд</td>`, HTML-escaped in jsonfm),
 * servedby, and list=random's pick (its page, and the continuation's random number): of a random
 * answer only the shape is compared.
 */
function steady(text: string, question: string): string {
  const p = new URLSearchParams(question);
  let t = text.replace(/\\"wgRequestId\\":\\"[0-9a-zA-Z]*\\"/g, '\\"wgRequestId\\":\\"R\\"').replace(/"servedby": ?"[^"]*"/g, '"servedby":"S"');
  if (p.get('prop')?.split('|').includes('limitreporthtml')) t = t.replace(/(td>)\d+[.,]\d+ /g, '$1S ');
  if (p.get('list') === 'random') {
    t = t
      .replace(/"(id|ns)": ?\d+/g, '"$1":0')
      .replace(/"title": ?"(?:[^"\\]|\\.)*"/g, '"title":"T"')
      .replace(/"rncontinue": ?"[^"]*"/g, '"rncontinue":"C"');
  }
  return t;
}

async function ask(base: string, query: string): Promise<Printed & { status: number }> {
  const res = await fetch(`${base}?${query}`);
  return { status: res.status, text: await res.text(), headers: res.headers };
}

type Verdict = 'equal' | 'flagged' | 'silent';
interface Judged {
  question: string;
  form: string;
  verdict: Verdict;
  source: string | null;
  unknown: string | null;
  detail: string;
}

/** Asks the live wiki and replay one question in one form, one after the other. */
async function judgeOne(liveUrl: string, replayUrl: string, question: string, form: string): Promise<Judged> {
  const q = `${question}&${form}`;
  const live = await ask(liveUrl, q);
  const ours = await ask(replayUrl, q);
  const details = answerDifferences({ text: steady(live.text, question), headers: live.headers }, { text: steady(ours.text, question), headers: ours.headers });
  if (live.status !== ours.status) details.push(`status: live ${live.status} / ours ${ours.status}`);
  const source = ours.headers.get('x-wikitape-source');
  const unknown = ours.headers.get('x-wikitape-unknown');
  const verdict: Verdict = details.length === 0 ? 'equal' : source === 'miss' || unknown !== null ? 'flagged' : 'silent';
  return { question, form, verdict, source, unknown, detail: details.join('\n  ') };
}

describe.runIf(LIVE_ONCE)('FV1_CHECKED', () => {
  it('every module of it is named by a question of this test that is compared in every form, not refused', () => {
    const named = new Set(QUESTIONS.filter((q) => uncheckedOf(q).length === 0 && !PAGE_UNKNOWN.has(q)).flatMap(modulesOf));
    expect([...FV1_CHECKED].filter((m) => !named.has(m))).toEqual([]);
  });

  it('the negative check names a module outside it that wikitape does not build in', () => {
    expect(QUESTIONS.filter((q) => uncheckedOf(q).length > 0)).toContain(UNCHECKED);
    expect(uncheckedOf(UNCHECKED)).toEqual(['query+transcludedin']);
  });
});

describe.each(LIVE_VERSIONS)('formatversion=1 of answers recorded from MediaWiki %s (in formatversion=2)', (version) => {
  it('replay prints each as the wiki does, in formatversion=1 and 2, utf8 and jsonfm; a module not checked is a miss in formatversion=1', { timeout: 600_000 }, async () => {
    const started = performance.now();
    const live = await liveWiki(version);
    const dir = await mkdtemp(join(tmpdir(), 'wikitape-fv1-diff-'));
    let recorder: CliServer | undefined;
    let replay: CliServer | undefined;
    try {
      // One record run: each question once, in the form recordings are stored in.
      recorder = await startCli(['record', '--upstream', live.apiUrl, '--cassettes', dir, '--cassette', 'fv1', '--quiet']);
      const filled = new Set<string>();
      for (const q of QUESTIONS) {
        const r = await ask(recorder.url, `${q}&format=json&formatversion=2`);
        expect([q, r.status, r.headers.get('mediawiki-api-error')]).toEqual([q, 200, null]);
        filledIn(JSON.parse(r.text), filled);
      }
      expect(NON_EMPTY.filter((k) => !filled.has(k))).toEqual([]);
      expect(await recorder.stop(), recorder.stderr()).toBe(0);
      recorder = undefined;

      replay = await startCli(['replay', '--cassettes', dir, '--quiet']);
      const judged: Judged[] = [];
      for (const q of QUESTIONS) for (const form of FORMS) judged.push(await judgeOne(live.apiUrl, replay.url, q, form));

      const count = (v: Verdict) => judged.filter((j) => j.verdict === v).length;
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      console.log(`MediaWiki ${version}, formatversion=1 differential: ${count('equal')} equal, ${count('flagged')} flagged, ${count('silent')} silently wrong (of ${judged.length}: ${QUESTIONS.length} questions × ${FORMS.length} forms); ${seconds} s`);
      for (const j of judged.filter((x) => x.verdict !== 'equal')) {
        console.log(`${j.verdict === 'silent' ? 'SILENTLY WRONG' : `FLAGGED (${j.source}; ${j.unknown ?? ''})`} ${decodeURIComponent(j.question)}&${j.form}\n  ${j.detail}`);
      }
      const line = (j: Judged) => `${decodeURIComponent(j.question)}&${j.form}: ${j.verdict} (${j.source}; ${j.unknown ?? ''})`;

      // Nothing silently wrong: every answer that differs says so.
      expect(judged.filter((j) => j.verdict === 'silent').map((j) => `${line(j)}\n  ${j.detail}`)).toEqual([]);
      // Every answer as expected: the wiki's, unless it names a module outside FV1_CHECKED (not built
      // in) and is asked in formatversion=1, or its HTML page holds what wikitape does not print as the
      // wiki does: then a miss naming that. So each question naming a module of FV1_CHECKED, and so
      // each module, came out equal in every formatversion=1 form here, not merely flagged.
      const expected = (j: Judged): [Verdict, string] => {
        const unknown = [
          ...(FV1_FORMS.has(j.form) ? [...uncheckedOf(j.question).map((m) => `formatversion.${m}`), ...(FV1_UNKNOWN.get(j.question) ?? [])] : []),
          ...(j.form === 'format=jsonfm' ? (PAGE_UNKNOWN.get(j.question)?.(version) ?? []) : []),
        ];
        return unknown.length > 0 ? ['flagged', `miss ${unknown.join(', ')}`] : ['equal', `cassette ${null}`];
      };
      const unexpected = judged.filter((j) => expected(j).join('|') !== `${j.verdict}|${j.source} ${j.unknown}`);
      expect(unexpected.map((j) => `${line(j)}; expected ${expected(j).join(': ')}${j.detail ? `\n  ${j.detail}` : ''}`)).toEqual([]);
      // The miss says in its body what it does not know.
      const miss = await ask(replay.url, `${UNCHECKED}&format=json`);
      expect([miss.headers.get('mediawiki-api-error'), miss.text]).toEqual(['wikitape-miss', expect.stringContaining('formatversion.query+transcludedin')]);
    } finally {
      await recorder?.stop();
      await replay?.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
