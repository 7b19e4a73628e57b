import type { ActionModule } from '../api/action-module.js';
import { isRedirect, pageExists } from '../api/pageset.js';
import { pageByTitle } from '../wiki/model.js';
import type { ApiContext } from '../api/context.js';
import { escapeWikiText } from '../util/escape.js';
import { ApiUsageError, apiMessage } from '../api/errors.js';
import { readParams } from '../api/param-reader.js';
import { requireMaxOneParameter } from './checks.js';
import { pv, type ParamSpec } from '../api/param-spec.js';
import type { JsonObject } from '../api/result.js';
import { atLeast, type WikiProfile } from '../wiki/profile.js';
import { parseTitle, type Title } from '../wiki/title.js';
import { contentModelOf } from '../wiki/content-model.js';
import { formatSummary, SummaryTooLong } from './parse-summary.js';
import { contentLanguage } from '../i18n/language.js';
import { summaryForParse } from './section-summary.js';
import { EMPTY_CATEGORIES_HTML, emptyParseParts, emptyParseText } from './parse-text.js';
import { commentLinkBatch, mainDbKey, messageCacheLoad, sqlQuote, type DebugFacts, type DebugInput } from '../api/debug.js';

const PROPS = ['text', 'langlinks', 'categories', 'categorieshtml', 'links', 'templates', 'images', 'externallinks', 'sections', 'revid', 'displaytitle', 'subtitle', 'headhtml', 'modules', 'jsconfigvars', 'encodedjsconfigvars', 'indicators', 'iwlinks', 'wikitext', 'properties', 'limitreportdata', 'limitreporthtml', 'parsetree', 'parsewarnings', 'parsewarningshtml', 'headitems'];

function params(profile: WikiProfile): Record<string, ParamSpec> {
  const modern = atLeast(profile, '1.43');
  const props = modern ? [...PROPS.slice(0, 9), 'tocdata', ...PROPS.slice(9)] : PROPS;
  const def = `text|langlinks|categories|links|templates|images|externallinks|sections|${modern ? 'tocdata|' : ''}revid|displaytitle|iwlinks|properties|parsewarnings`;
  return {
    title: { type: 'string' },
    text: { type: 'string' },
    revid: { type: 'integer' },
    summary: { type: 'string' },
    page: { type: 'string' },
    pageid: { type: 'integer' },
    redirects: { type: 'boolean' },
    oldid: { type: 'integer' },
    prop: { type: 'enum', multi: true, values: props, default: def, deprecatedValues: { headitems: 'apiwarn-deprecation-parse-headitems' } },
    wrapoutputclass: { type: 'string', default: 'mw-parser-output' },
    ...(modern ? { usearticle: { type: 'boolean' }, parsoid: { type: 'boolean' } } : {}),
    pst: { type: 'boolean' },
    onlypst: { type: 'boolean' },
    effectivelanglinks: { type: 'boolean', deprecated: true },
    section: { type: 'string' },
    sectiontitle: { type: 'string' },
    disablepp: { type: 'boolean', deprecated: true },
    disablelimitreport: { type: 'boolean' },
    disableeditsection: { type: 'boolean' },
    disablestylededuplication: { type: 'boolean' },
    showstrategykeys: { type: 'boolean' },
    generatexml: { type: 'boolean', deprecated: true },
    preview: { type: 'boolean' },
    sectionpreview: { type: 'boolean' },
    disabletoc: { type: 'boolean' },
    // The skins the captured wikis have (src/modules/paraminfo): 1.43 also lists its API-only ones.
    // Each list in the wiki's order (SkinFactory's, ContentHandler's), which a bad value's error
    // names them in (action=paraminfo sorts them).
    useskin: { type: 'enum', values: modern ? ['minerva', 'monobook', 'timeless', 'vector-2022', 'vector', 'fallback', 'apioutput', 'authentication-popup', 'json'] : ['minerva', 'monobook', 'timeless', 'vector-2022', 'vector', 'fallback', 'apioutput'] },
    contentformat: { type: 'enum', values: ['text/x-wiki', 'text/javascript', 'application/json', 'text/css', 'text/plain', 'application/octet-stream', 'application/unknown', 'application/x-binary', 'text/unknown', 'unknown/unknown'] },
    contentmodel: { type: 'enum', values: ['wikitext', 'javascript', 'json', 'css', 'text', 'unknown'] },
  };
}

/**
 * action=parse for what a wiki can answer without content: a summary rendered as
 * CommentFormatter does, attributed to the page `API` (or `title`), with empty-content output.
 */
export const parse: ActionModule = {
  name: 'parse',
  params,
  // ApiParse::getCacheMode for a summary (no page, no revision): the user's language shows.
  cacheMode: () => 'anon-public-user-private',
  debug: parseDebug,
  execute(ctx) {
    const v = readParams(ctx, { path: 'parse', prefix: '', name: 'parse' }, params(ctx.profile), { setup: true });
    // ApiParse: text and title or revid may go together, the rest not; then the section's form.
    for (const other of ['text', 'title', 'revid']) requireMaxOneParameter('parse', '', v, ['page', 'pageid', 'oldid', other]);
    const section = pv.str(v['section']);
    if (section !== null && !/^((T-)?\d+|new)$/.test(section)) throw new ApiUsageError(apiMessage('invalidsection', 'apierror-invalidsection'), 'parse');
    // Parsoid's output (1.41+) is another parser's: not rendered here.
    for (const unsupported of ['text', 'page', 'pageid', 'oldid', 'revid', 'parsoid'] as const) {
      if (v[unsupported] !== null && v[unsupported] !== false && v[unsupported] !== undefined) {
        throw new ApiUsageError(apiMessage('wikitape-notimplemented', 'wikitape-notimplemented', [`action=parse&${unsupported}=`]), 'parse');
      }
    }
    const titleInput = pv.str(v['title']) ?? 'API';
    const parsed = parseTitle(titleInput, ctx.titles);
    // Whether a prefix is an interwiki one is the wiki's table's to say.
    if (parsed.ok && parsed.checkedInterwiki && ctx.titles.unknownTables?.includes('interwikimap')) ctx.unknown('siteinfo.interwikimap');
    // ApiParse: a title that cannot be made, or one on another wiki (Title::isExternal), is refused.
    if (!parsed.ok || parsed.title.interwiki) throw new ApiUsageError(apiMessage('invalidtitle', 'apierror-invalidtitle', [escapeWikiText(titleInput, atLeast(ctx.profile, '1.43'))]), 'parse');
    const title = parsed.title;
    // ApiParse: a title without text (or page, pageid, oldid) parses nothing of that page; when
    // parsed page properties are asked for, the client probably meant `page`.
    if (v['title'] !== null && (pv.list(v['prop']).length > 0 || v['generatexml'] === true)) {
      ctx.addWarning('parse', apiMessage('parse-titlewithouttext', 'apiwarn-parse-titlewithouttext'));
    }
    // After that warning: the content's model and format, then its section.
    // ApiParse: the title's model (Title::getContentModel: an existing page's own) unless one is named.
    const model = pv.str(v['contentmodel']) ?? contentModelOf(ctx.model, title);
    const format = pv.str(v['contentformat']);
    const formats = CONTENT_FORMATS[model];
    if (format !== null && formats !== undefined && !formats.includes(format)) throw new ApiUsageError(apiMessage('badformat-generic', 'apierror-badformat-generic', [format, model]), 'parse');
    // Content of another model than wikitext (css, json, text…) renders, sections and transforms
    // otherwise: not made here (the summary alone is the same).
    const rendered = pv.list(v['prop']).length > 0 || v['onlypst'] === true || v['generatexml'] === true || section !== null || (format !== null && formats === undefined);
    if (model !== 'wikitext' && rendered) throw new ApiUsageError(apiMessage('wikitape-notimplemented', 'wikitape-notimplemented', ['action=parse&contentmodel=' + model]), 'parse');
    // The empty content parsed has section 0 alone (Parser::getSection: an index == 0 in PHP's sense).
    if (section !== null && section !== 'new' && Number(section.replace(/^T-/, '')) !== 0) {
      throw new ApiUsageError(apiMessage('nosuchsection', 'apierror-nosuchsection-what', [section, title.prefixedText]), 'parse');
    }
    // ApiResult::addValue: an answer over $wgAPIMaxResultSize is left out, with a warning (checked on 1.39).
    let out: JsonObject | null;
    try {
      out = buildParse(ctx, v, title);
    } catch (e) {
      if (!(e instanceof SummaryTooLong)) throw e;
      out = null;
    }
    if (out === null || resultSize(out) > MAX_RESULT_SIZE) ctx.addWarning('result', apiMessage('truncatedresult', 'apiwarn-truncatedresult', [{ num: MAX_RESULT_SIZE }]));
    else ctx.result.add('parse', out);
    return v;
  },
};

/** The formats each content model's handler supports (ContentHandler::isSupportedFormat), of the models whose handlers are known here. */
const CONTENT_FORMATS: Readonly<Record<string, readonly string[]>> = {
  wikitext: ['text/x-wiki'],
  css: ['text/css'],
  javascript: ['text/javascript'],
  json: ['application/json'],
  text: ['text/plain'],
};

/** $wgAPIMaxResultSize (default 8 MiB): the most an API result may hold, in ApiResult's bytes. */
const MAX_RESULT_SIZE = 8_388_608;

/** ApiResult::size: the bytes of every scalar value (keys are not counted; true is "1", false ""). */
function resultSize(value: unknown): number {
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (typeof value === 'number') return String(value).length;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return value.reduce((n: number, x) => n + resultSize(x), 0);
  if (value !== null && typeof value === 'object') return Object.values(value).reduce((n: number, x) => n + resultSize(x), 0);
  return 0;
}

function pageId(ctx: ApiContext, t: Title): number {
  const page = pageByTitle(ctx.model, t.ns, t.prefixedText);
  if (!page) pageExists(ctx, t); // flags a title a replayed wiki does not know
  return page?.pageid ?? 0;
}

function buildParse(ctx: ApiContext, v: Record<string, unknown>, title: Title): JsonObject {
  const props = new Set(pv.list(v['prop'] as string[]));
  const started = process.hrtime.bigint();
  const onlypst = v['onlypst'] === true;
  // ApiParse's onlypst answer: the pre-save-transformed text (of empty content: ''), no title.
  const out: JsonObject = onlypst ? { text: '', ...(props.has('wikitext') ? { wikitext: '' } : {}) } : { title: title.prefixedText, pageid: pageId(ctx, title) };
  const exists = (t: Title) => pageExists(ctx, t);
  // section=new with a section title parses that heading (ApiParse: addSectionHeader): the text,
  // its sections and links are the heading's, which wikitape does not render.
  if (v['section'] === 'new' && v['sectiontitle'] !== null && (props.size > 0 || onlypst)) ctx.unknown('parse.sectiontitle');
  const secs = Number(process.hrtime.bigint() - started) / 1e9 + 0.001;
  if (props.has('text') && !onlypst) {
    const report = v['disablelimitreport'] !== true && v['disablepp'] !== true;
    out['text'] = emptyParseText(ctx.profile, ctx.now, secs, secs, { limitReport: report, wrapClass: pv.str(v['wrapoutputclass'] as string | null) ?? 'mw-parser-output', preview: v['preview'] === true || v['sectionpreview'] === true });
  }
  const summary = pv.str(v['summary'] as string | null);
  const sectionTitle = pv.str(v['sectiontitle'] as string | null);
  const newSection = v['section'] === 'new';
  // ApiParse::formatSummary: with section=new, a section title alone makes the summary.
  if (summary !== null || (sectionTitle !== null && newSection)) {
    const text = summaryForParse(contentLanguage(ctx.profile), summary, sectionTitle, newSection);
    out['parsedsummary'] = formatSummary(text, { profile: ctx.profile, userLang: ctx.userLang, selfTitle: title, samePage: v['section'] === 'new', pageExists: exists, isRedirect: (t: Title) => isRedirect(ctx, t), maxLength: MAX_RESULT_SIZE, unknown: (what) => ctx.unknown(what) });
  }
  if (onlypst) return out;
  for (const k of ['langlinks', 'categories', 'categorieshtml', 'links', 'templates', 'images', 'externallinks', 'sections'] as const) {
    if (props.has(k)) out[k] = k === 'categorieshtml' ? EMPTY_CATEGORIES_HTML : [];
  }
  if (props.has('tocdata')) out['tocdata'] = { sections: [], extensionData: [] };
  // A skin's page head and EditPage's limit report table are HTML wikitape does not make; a skin
  // (useskin) changes modules, head items and indicators.
  for (const p of ['headhtml', 'limitreporthtml'] as const) if (props.has(p)) ctx.unknown(`parse.${p}`);
  if (v['useskin'] !== null && props.size > 0) ctx.unknown('parse.useskin');
  Object.assign(out, emptyParseParts(props, { title, nowMs: ctx.now, seconds: secs, parsetree: v['generatexml'] === true, pst: v['pst'] === true }));
  if (props.has('modules') && !props.has('jsconfigvars') && !props.has('encodedjsconfigvars')) {
    ctx.addWarning('parse', apiMessage('moduleswithoutvars', 'apiwarn-moduleswithoutvars'));
  }
  return out;
}


const CONTENT_HANDLERS = [
  ['wikitext', 'WikitextContentHandler'],
  ['javascript', 'JavaScriptContentHandler'],
  ['json', 'JsonContentHandler'],
  ['css', 'CssContentHandler'],
  ['text', 'TextContentHandler'],
  ['unknown', 'FallbackContentHandler'],
] as const;

/**
 * ApiParse's trace for a summary: the content handlers registered, the cache mode set, the page
 * looked up (`API`), English messages loaded from the database for the empty parse; with links
 * in the summary, the link batch and the content language's messages.
 */
function parseDebug({ profile, params }: DebugInput): DebugFacts {
  const v143 = atLeast(profile, '1.43');
  const ns = v143 ? 'MediaWiki\\Content\\' : '';
  const entries: DebugFacts['entries'] = [
    v143 ? 'MediaWiki\\Parser\\ParserFactory: using default preprocessor' : 'ParserFactory: using default preprocessor',
    ...(v143 ? ['[SQLBagOStuff] MainObjectStash using store SqlBagOStuff'] : []),
    ...CONTENT_HANDLERS.map(([model, cls]) => `[ContentHandler] Registered handler for ${model}: ${ns}${cls}`),
    ...(v143 ? ['[MessageCache] MessageCache using store SqlBagOStuff'] : []),
    { cacheMode: true },
    {
      query: {
        sql: `SELECT  page_id,page_namespace,page_title,page_is_redirect,page_is_new,page_random,page_touched,page_links_updated,page_latest,page_len,page_content_model  FROM "page"    WHERE page_namespace = 0 AND page_title = ${sqlQuote(mainDbKey(params['title'] ?? 'API'))}  LIMIT 1  `,
        function: 'WikiPage::pageData',
        time: 0.001,
      },
    },
  ];
  if (!v143 && params['uselang'] === undefined) entries.push('Unstubbing $wgLang on call of $wgLang::unstub from ContentHandler->getPageLanguage');
  entries.push(...messageCacheLoad(profile, 'en', { content: profile.language === 'en', first: !v143, reuse: true }));
  if (v143) entries.push('[localisation] LocalisationCache::loadCoreData: got localisation for en from source');
  // (a summary without `]]` has no links: not scanned from every `[[`, which is quadratic)
  const summary = params['summary'] ?? '';
  const links: string[] = [];
  // One match at a time: a summary of 150,000 links made 150,000 match arrays at once.
  if (summary.includes(']]')) for (const m of summary.matchAll(/\[\[:?([^[\]|#]+)(?:[|#][^\]]*)?\]\]/g)) links.push(mainDbKey(m[1]!));
  if (links.length > 0) {
    entries.push(...commentLinkBatch(profile, links.map((dbkey) => ({ ns: 0, dbkey }))));
    if (profile.language !== 'en') entries.push(...messageCacheLoad(profile, profile.language, { content: true, first: false, reuse: true }));
  }
  return { includes: links.length > 0 ? 'parselinks' : 'parse', entries };
}
