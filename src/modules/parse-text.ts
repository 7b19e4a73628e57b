import { atLeast, type WikiProfile } from '../wiki/profile.js';
import type { Title } from '../wiki/title.js';
import { toMw } from '../util/timestamp.js';

/** `limitreport-cputime-value`: `%.3f` then `$1 {{PLURAL:$1|second|seconds}}` (the float 1 is singular). */
const seconds = (s: number) => {
  const v = s.toFixed(3);
  return `${v} ${Number(v) === 1 ? 'second' : 'seconds'}`;
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' })[c]!);

/** Html::expandAttributes for `class`: space-separated tokens, empty ones dropped, duplicates removed. */
function classList(value: string): string {
  const tokens = value.split(' ').filter((t) => t !== '');
  return [...new Set(tokens)].join(' ');
}

export interface ParseTextOptions {
  /** false for `disablelimitreport`/`disablepp`: no limit report, no transclusion report. */
  limitReport?: boolean;
  /** `wrapoutputclass` (default `mw-parser-output`); '' gives no wrapper div at all. */
  wrapClass?: string;
  /** `preview` or `sectionpreview`: from 1.43 on the limit report lists the `is-preview` complication. */
  preview?: boolean;
}

/**
 * ParserOutput::getText for empty wikitext (what `action=parse&summary=…` shows as `text`): the
 * NewPP limit report comment (English labels; every `-` of it turned into U+2010, and a space after
 * `<!--`), the transclusion time report, inside the wrapper div. 1.39 wraps in
 * `<div class="mw-parser-output">`; 1.43+ (AddWrapperDivClass) adds `mw-content-ltr` and lang/dir.
 */
export function emptyParseText(
  profile: WikiProfile,
  nowMs: number,
  cpuSeconds: number,
  realSeconds: number,
  options: ParseTextOptions | boolean = {},
): string {
  const opts: ParseTextOptions = typeof options === 'boolean' ? { limitReport: options } : options;
  const wrapClass = opts.wrapClass ?? 'mw-parser-output';
  let body = '';
  if (opts.limitReport !== false) {
    const report = [
      'NewPP limit report',
      `Cached time: ${toMw(nowMs)}`,
      'Cache expiry: 86400',
      'Reduced expiry: false',
      `Complications: [${opts.preview === true && atLeast(profile, '1.43') ? 'is-preview' : ''}]`,
      `CPU time usage: ${seconds(cpuSeconds)}`,
      `Real time usage: ${seconds(realSeconds)}`,
      'Preprocessor visited node count: 0/1000000',
      'Post-expand include size: 0/2097152 bytes',
      'Template argument size: 0/2097152 bytes',
      'Highest expansion depth: 0/100',
      'Expensive parser function count: 0/100',
      'Unstrip recursion depth: 0/20',
      'Unstrip post-expand size: 0/5000000 bytes',
      '',
    ]
      .join('\n')
      .replace(/-/g, '\u2010');
    // SectionProfiler::getFunctionStats always has the `-total` row: `%6.2f%% %8.3f %6d %s`.
    const transclusion = '<!--\nTransclusion expansion time report (%,ms,calls,template)\n100.00%    0.000      1 -total\n-->\n';
    body = `\n<!-- \n${report}-->\n${transclusion}`;
  }
  if (wrapClass === '') return body;
  if (atLeast(profile, '1.43')) {
    return `<div class="${escapeHtml(classList(`mw-content-ltr ${wrapClass}`))}" lang="${profile.language}" dir="ltr">${body}</div>`;
  }
  return `<div class="${escapeHtml(classList(wrapClass))}">${body}</div>`;
}

/**
 * Parser::formatPageTitle(nsText, ':', mainText): the `displaytitle` of a page without
 * DISPLAYTITLE, every part HTML-escaped (htmlspecialchars, `'` as `&#039;`).
 */
export function displayTitle(title: Title): string {
  const main = `<span class="mw-page-title-main">${escapeHtml(title.text)}</span>`;
  const nsText = title.ns === 0 ? '' : title.prefixedText.slice(0, title.prefixedText.length - title.text.length - 1);
  if (nsText === '') return main;
  return `<span class="mw-page-title-namespace">${escapeHtml(nsText)}</span><span class="mw-page-title-separator">:</span>${main}`;
}

/** What empty wikitext parses to, for the parts of ApiParse's result after the link lists. */
export interface EmptyPartsInput {
  title: Title;
  nowMs: number;
  /** CPU and real seconds of the parse (ParserOutput's limit report). */
  seconds: number;
  /** `generatexml` (deprecated) asks for the parse tree too. */
  parsetree: boolean;
  /** `pst`: the pre-save-transformed text follows `wikitext` as `psttext`. */
  pst: boolean;
}

/** `%.3f`, as the limit report prints its times. */
const fixed3 = (s: number) => s.toFixed(3);

/**
 * ApiParse::formatLimitReportData for empty wikitext: every limit at 0 of its maximum, the cache
 * report (its timestamp is the parse's "now"). Keys `0` and `1` are marked to stay after `name`
 * (util/ordered-json.ts).
 */
function emptyLimitReportData(nowMs: number, seconds: number): unknown[] {
  const rows: Array<[string, ...unknown[]]> = [
    ['limitreport-cputime', fixed3(seconds)],
    ['limitreport-walltime', fixed3(seconds)],
    ['limitreport-ppvisitednodes', 0, 1000000],
    ['limitreport-postexpandincludesize', 0, 2097152],
    ['limitreport-templateargumentsize', 0, 2097152],
    ['limitreport-expansiondepth', 0, 100],
    ['limitreport-expensivefunctioncount', 0, 100],
    ['limitreport-unstrip-depth', 0, 20],
    ['limitreport-unstrip-size', 0, 5000000],
    ['limitreport-timingprofile', '100.00%    0.000      1 -total'],
    ['cachereport-timestamp', toMw(nowMs)],
    ['cachereport-ttl', 86400],
    ['cachereport-transientcontent', false],
  ];
  return rows.map(([name, ...values]) => Object.fromEntries([['name', name], ...values.map((v, i) => [`\u0001${i}`, v])]));
}

/**
 * The parts of ApiParse's result that follow `sections` (and `tocdata`), for empty wikitext, in
 * ApiParse's order. Without a skin (no `useskin`): no modules, no head items, no indicators.
 * `headhtml` and `limitreporthtml` (a skin's page head, EditPage's report table) are not made
 * here: the caller flags them.
 */
export function emptyParseParts(props: ReadonlySet<string>, input: EmptyPartsInput): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (props.has('sections') || props.has('tocdata')) out['showtoc'] = false;
  if (props.has('parsewarnings')) out['parsewarnings'] = [];
  if (props.has('parsewarningshtml')) out['parsewarningshtml'] = [];
  if (props.has('displaytitle')) out['displaytitle'] = displayTitle(input.title);
  if (props.has('subtitle')) out['subtitle'] = '';
  if (props.has('headitems')) out['headitems'] = [];
  if (props.has('modules')) Object.assign(out, { modules: [], modulescripts: [], modulestyles: [] });
  if (props.has('jsconfigvars')) out['jsconfigvars'] = {};
  if (props.has('encodedjsconfigvars')) out['encodedjsconfigvars'] = '[]';
  if (props.has('indicators')) out['indicators'] = {};
  if (props.has('iwlinks')) out['iwlinks'] = [];
  if (props.has('wikitext')) {
    out['wikitext'] = '';
    if (input.pst) out['psttext'] = '';
  }
  if (props.has('properties')) out['properties'] = {};
  if (props.has('limitreportdata')) out['limitreportdata'] = emptyLimitReportData(input.nowMs, input.seconds);
  if (props.has('parsetree') || input.parsetree) out['parsetree'] = '<root/>';
  return out;
}

/** Skin::getCategories for a page without categories (`categorieshtml`). */
export const EMPTY_CATEGORIES_HTML = '<div id="catlinks" class="catlinks catlinks-allhidden" data-mw="interface"></div>';
