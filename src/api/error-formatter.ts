import { message, messageHtml, stripMarkup, type MessageOptions } from '../i18n/message.js';
import type { MessageParam as TextParam } from '../i18n/message.js';
import { atLeast } from '../wiki/profile.js';
import type { Language } from '../i18n/language.js';
import type { ApiMessage, ApiWarning, MessageParam } from './errors.js';
import { type ApiResult, type Json, type JsonObject, isObject } from './result.js';

export const ERROR_FORMATS = ['bc', 'plaintext', 'wikitext', 'html', 'raw', 'none'] as const;
export type ErrorFormat = (typeof ERROR_FORMATS)[number];

/**
 * An API message's parameter as the message formatter takes it: a plaintext one (a value the
 * client sent) stays plaintext, inserted after the transform, so the parser never sees it (no
 * link, no French space before `»`, no template filled in), HTML-escaped in `errorformat=html`.
 */
function toTextParam(p: MessageParam): TextParam {
  if (typeof p === 'object' && 'list' in p) return { list: p.list, ...(p.type ? { type: p.type } : {}), ...(p.plaintextItems ? { plaintext: true } : {}) };
  // numParam(null ?? ''): the bound a range lacks, which formats as nothing
  if (typeof p === 'object' && 'num' in p && p.num === '') return '';
  return p as TextParam;
}

function rawParam(p: MessageParam, version: string): Json {
  if (typeof p === 'object' && 'list' in p) {
    const items: Json[] = p.plaintextItems ? p.list.map((x) => ({ plaintext: p.numericItems ? Number(x) : x })) : [...p.list];
    // 1.39's Message::listParam keeps the PHP array's keys; 1.43's (a ListParam) lists the values.
    const keyed = p.keys && !atLeast({ version }, '1.43') && p.keys.some((k, i) => k !== i);
    return { list: keyed ? Object.fromEntries(items.map((x, i) => [String(p.keys![i]), x])) : items, type: p.type ?? 'text' };
  }
  return p as Json;
}

/**
 * ApiErrorFormatter and its BC variant: how warnings and errors are written into the result.
 * BC (the default) is always English and keeps one error object and per-module warning text;
 * the other formats keep lists in `errorlang`.
 */
export class ErrorFormatter {
  private readonly opts: MessageOptions;

  constructor(
    readonly format: ErrorFormat,
    /** Language of texts: English for BC, else errorlang. */
    readonly lang: Language,
    /** The wiki's content language (the html format's links). */
    contentLang: Language,
    /** The MediaWiki version (how raw message parameters print). */
    readonly version: string,
    /** Told what a text needed that wikitape cannot render in `lang` (`i18n.<code>`). */
    unknown?: (what: string) => void,
  ) {
    this.opts = { html: { contentLang }, ...(unknown ? { unknown } : {}) };
  }

  /** Plain text of a message, markup stripped (BC `info`, plaintext `text`). */
  text(msg: Pick<ApiMessage, 'key' | 'params'>): string {
    return stripMarkup(message(this.lang, msg.key, msg.params.map(toTextParam), this.opts));
  }

  private formatted(msg: ApiMessage): JsonObject {
    const value: JsonObject = { code: msg.code };
    const params = msg.params.map(toTextParam);
    switch (this.format) {
      case 'bc':
      case 'plaintext':
        value['text'] = this.text(msg);
        break;
      case 'wikitext':
        value['text'] = message(this.lang, msg.key, params, this.opts);
        break;
      case 'html':
        value['html'] = messageHtml(this.lang, msg.key, params, this.opts);
        break;
      case 'raw':
        value['key'] = msg.key;
        value['params'] = msg.params.map((p) => rawParam(p, this.version));
        break;
      case 'none':
        break;
    }
    if (msg.data && Object.keys(msg.data).length > 0) value['data'] = msg.data as JsonObject;
    return value;
  }

  /**
   * ApiErrorFormatter::formatException with `['bc' => true]` (how ApiPageSet writes an invalid
   * title's reason): BC gives the message's text as it is (markup kept), the other formats the
   * message in their own shape.
   */
  formatExceptionMessage(msg: ApiMessage): Json {
    if (this.format === 'bc') return message(this.lang, msg.key, msg.params.map(toTextParam), this.opts);
    return this.formatted(msg);
  }

  addWarning(result: ApiResult, w: ApiWarning): void {
    if (this.format === 'bc') return this.addBcWarning(result, w);
    const value = { ...this.formatted(w), module: w.module };
    const existing = result.get('warnings');
    if (Array.isArray(existing)) {
      if (!existing.some((e) => JSON.stringify(e) === JSON.stringify(value))) existing.push(value);
    } else result.addOnTop('warnings', [value]);
  }

  private addBcWarning(result: ApiResult, w: ApiWarning): void {
    const i = w.module.lastIndexOf('+');
    const moduleName = i < 0 ? w.module : w.module.slice(i + 1);
    const value = this.text(w);
    const existing = result.get('warnings');
    const warnings = isObject(existing) ? existing : {};
    const old = warnings[moduleName];
    const oldText = isObject(old) && typeof old['warnings'] === 'string' ? old['warnings'] : null;
    if (oldText !== null) {
      if (oldText.split('\n').includes(value)) return;
      (old as JsonObject)['warnings'] = `${oldText}\n${value}`;
      return;
    }
    // A module seen for the first time goes on top of the warnings object (ADD_ON_TOP); the
    // warnings object itself is made on top of the result, or stays where it is (after an error).
    const rest = { ...warnings };
    delete rest[moduleName];
    const updated = { [moduleName]: { warnings: value }, ...rest };
    if (isObject(existing)) result.add('warnings', updated);
    else result.addOnTop('warnings', updated);
  }

  /** Writes the error (after the result was reset with warnings kept). */
  addError(result: ApiResult, e: ApiMessage & { module: string }): void {
    if (this.format === 'bc') {
      const value: JsonObject = { code: e.code, info: this.text(e), ...((e.data ?? {}) as JsonObject) };
      result.addOnTop('error', value);
      return;
    }
    const value = { ...this.formatted(e), module: e.module };
    result.addOnTop('errors', [value]);
  }

  /** The docref text: where to read about the API, in the formatter's language. */
  docref(apiUrl: string): string {
    return `${message(this.lang, 'api-usage-docref', [apiUrl], this.opts)} ${message(this.lang, 'api-usage-mailinglist-ref', [], this.opts)}`.trim();
  }
}
