import { escapeWikiText } from '../util/escape.js';
import { resolveSpecialAlias } from '../wiki/special-pages.js';
import { decodeCharReferencesAndNormalize, fixSpecialName, parseTitle, specialPagesOf, type Title } from '../wiki/title.js';
import { atLeast } from '../wiki/profile.js';
import { apiMessage, type MessageParam } from './errors.js';
import { addToBatch, type LinkBatch, type PageSetState } from './pageset-state.js';
import { explodeMultiValue } from './param-reader.js';
import { LIMIT_SML2 } from './param-spec.js';
import { cleanUp } from './unicode.js';

/**
 * ApiPageSet::handleParamNormalization for `titles`: a value WebRequest's Unicode clean-up changed
 * (not NFC, a C0 control) maps from what was sent to its clean form, before any title is read. Its
 * `from` is printed percent-encoded (`fromencoded`), its `to` is the clean text, not yet a title
 * (`е` + U+0308 `лка` → `ёлка`, then `ёлка` → `Ёлка`; checked on both live wikis).
 */
export function cleanedTitles(state: PageSetState): void {
  const req = state.ctx.request;
  if (!req.wasNormalized('titles')) return;
  const raw = req.raw('titles') ?? '';
  // The clean value as ApiParamValidatorCallbacks::getValue makes it (U+001F lists piece by piece).
  const clean = raw.startsWith('\u001f') ? raw.split('\u001f').map(cleanUp).join('\u001f') : cleanUp(raw);
  const values = explodeMultiValue(clean, LIMIT_SML2 + 1);
  const raws = explodeMultiValue(raw, values.length);
  // Bytes that were not UTF-8 reach wikitape already replaced: what the wiki percent-encodes is lost.
  if (req.lossy.has('titles')) state.ctx.unknown('pages.normalized');
  values.forEach((v, i) => {
    const r = raws[i];
    if (r !== undefined && r !== v) state.normalized.set(r, v);
  });
}

/**
 * The message a malformed title gives (MalformedTitleException: its parameters, then the title
 * escaped, in the form Title::newFromTextThrow parses: character references decoded, spaces as
 * underscores; checked on MediaWiki 1.39 and 1.43).
 */
function invalidReason(state: PageSetState, input: string, reason: string, params: string[]): void {
  // The length limit is a number parameter (Message::numParam), the others plain text.
  const own: MessageParam[] = reason === 'title-invalid-too-long' ? params.map((p) => ({ num: Number(p) })) : params;
  const dbKeyForm = decodeCharReferencesAndNormalize(input).replace(/ /g, '_');
  const msg = apiMessage(reason, reason, [...own, escapeWikiText(dbKeyForm, atLeast(state.ctx.profile, '1.43'))]);
  state.invalid.set(state.fakeId--, { title: input, invalidreason: state.ctx.formatter.formatExceptionMessage(msg) });
}

/**
 * ApiPageSet::processTitlesArray: strings are parsed (an invalid one is reported once, as given),
 * titles already made (redirect targets) are taken as they are. Interwiki titles are listed apart;
 * special and media titles get their local name and a fake id; the rest are batched for lookup.
 * A string written otherwise than the wiki writes it is `normalized`.
 */
export function processTitles(state: PageSetState, titles: readonly (string | Title)[]): LinkBatch {
  const { ctx } = state;
  const batch: LinkBatch = new Map();
  const parsed: [string | null, Title][] = [];
  for (const input of titles) {
    if (typeof input !== 'string') {
      parsed.push([null, input]);
      continue;
    }
    const r = parseTitle(input, ctx.titles);
    if (!r.ok) {
      if (!state.invalidSeen.has(input)) {
        state.invalidSeen.add(input);
        invalidReason(state, input, r.reason, r.params);
      }
      continue;
    }
    // Whether the prefix was an interwiki one is the wiki's table's to say.
    if (r.checkedInterwiki) flagTable(state, 'interwikimap');
    parsed.push([input, r.title]);
  }
  for (const [input, parsedTitle] of parsed) {
    let title = parsedTitle;
    if (title.interwiki) state.interwiki.set(title.prefixedText, title.interwiki);
    else if (title.ns < 0) title = addSpecial(state, title);
    else addToBatch(batch, title);
    if (input !== null && input !== title.prefixedText) state.normalized.set(input, title.prefixedText);
  }
  return batch;
}

/** A special or media title under its local name (Title::fixSpecialName), given a fake id once. */
function addSpecial(state: PageSetState, t: Title): Title {
  if (t.ns === -1) flagTable(state, 'specialpagealiases');
  const title = fixSpecialName(t, state.ctx.titles);
  const key = `${title.ns}|${title.dbkey}`;
  if (state.allSpecials.has(key)) return title;
  state.allSpecials.add(key);
  // Special:MyPage, MyTalk and MyLanguage (RedirectSpecialArticle) lead to pages that depend on
  // who asks and in which language: wikitape does not follow them.
  if (title.ns === -1 && state.resolveRedirects && isRedirectSpecialArticle(state, title)) {
    state.ctx.unknown('pages.redirect');
    state.cacheMode = 'private';
  }
  state.special.set(state.fakeId--, title);
  return title;
}

const REDIRECT_SPECIAL_ARTICLES: ReadonlySet<string> = new Set(['Mypage', 'Mytalk', 'MyLanguage']);

function isRedirectSpecialArticle(state: PageSetState, t: Title): boolean {
  const r = resolveSpecialAlias(t.dbkey, specialPagesOf(state.ctx.titles));
  return r !== null && REDIRECT_SPECIAL_ARTICLES.has(r.name);
}

/** Says that a default install's table decided a title on a wiki whose own no recording showed. */
function flagTable(state: PageSetState, table: 'interwikimap' | 'specialpagealiases'): void {
  if (state.ctx.titles.unknownTables?.includes(table)) state.ctx.unknown(`siteinfo.${table}`);
}
