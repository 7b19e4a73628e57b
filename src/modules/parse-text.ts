import { atLeast, type WikiProfile } from '../wiki/profile.js';
import type { Title } from '../wiki/title.js';
import { toMw } from '../util/timestamp.js';

const seconds = (s: number) => `${s.toFixed(3)} ${s.toFixed(3) === '1.000' ? 'second' : 'seconds'}`;

/**
 * ParserOutput::getText for empty wikitext: the wrapper div around the NewPP limit report and
 * the transclusion time report (hyphens of the report turned into U+2010, as MediaWiki does).
 * `limitReport` false gives the bare wrapper (disablelimitreport).
 */
export function emptyParseText(profile: WikiProfile, nowMs: number, cpuSeconds: number, realSeconds: number, limitReport = true): string {
  const open = atLeast(profile, '1.43')
    ? `<div class="mw-content-ltr mw-parser-output" lang="${profile.language}" dir="ltr">`
    : '<div class="mw-parser-output">';
  if (!limitReport) return `${open}</div>`;
  const report = [
    'NewPP limit report',
    `Cached time: ${toMw(nowMs)}`,
    'Cache expiry: 86400',
    'Reduced expiry: false',
    'Complications: []',
    `CPU time usage: ${seconds(cpuSeconds)}`,
    `Real time usage: ${seconds(realSeconds)}`,
    'Preprocessor visited node count: 0/1000000',
    'Post\u2010expand include size: 0/2097152 bytes',
    'Template argument size: 0/2097152 bytes',
    'Highest expansion depth: 0/100',
    'Expensive parser function count: 0/100',
    'Unstrip recursion depth: 0/20',
    'Unstrip post\u2010expand size: 0/5000000 bytes',
  ].join('\n');
  const transclusion = '<!--\nTransclusion expansion time report (%,ms,calls,template)\n100.00%    0.000      1 -total\n-->\n';
  return `${open}\n<!-- \n${report}\n-->\n${transclusion}</div>`;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Parser::formatPageTitle: the displaytitle spans. */
export function displayTitle(title: Title): string {
  const main = `<span class="mw-page-title-main">${escapeHtml(title.text)}</span>`;
  if (title.ns === 0) return main;
  const nsName = title.prefixedText.slice(0, title.prefixedText.length - title.text.length - 1);
  return `<span class="mw-page-title-namespace">${escapeHtml(nsName)}</span><span class="mw-page-title-separator">:</span>${main}`;
}
