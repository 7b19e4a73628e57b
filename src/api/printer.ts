import type { ApiRequest } from './request.js';
import { FORMATS } from './main-params.js';
import { ARRAY_VALUE } from '../request/params.js';

/** How the result is printed: the format module and its parameters. */
export interface Printer {
  /** `json`, `jsonfm`, `none`, … (`jsonfm` when absent or unknown). */
  format: string;
  formatversion: 1 | 2;
  utf8: boolean;
  ascii: boolean;
  /** JSONP callback as sent (filtered when printed), or null (also for `callback[]=…`: an array is no value). */
  callback: string | null;
  wrappedhtml: boolean;
}

/** Whether the format prints the HTML page (`*fm`). */
export const isHtmlFormat = (p: Printer): boolean => p.format.endsWith('fm');

/**
 * Reads the printer's parameters leniently, as the error printer does: an unknown format is
 * jsonfm, an unknown formatversion is 1 (ApiFormatBase::forceDefaultParams).
 */
export function readPrinter(request: ApiRequest, format?: string): Printer {
  const raw = format ?? request.params.get('format') ?? 'jsonfm';
  const f = FORMATS.includes(raw) ? raw : 'jsonfm';
  const fv = request.params.get('formatversion');
  const callback = request.params.get('callback');
  return {
    format: f,
    formatversion: fv === '2' || fv === 'latest' ? 2 : 1,
    utf8: request.params.has('utf8'),
    ascii: request.params.has('ascii'),
    callback: callback === undefined || callback === ARRAY_VALUE ? null : callback,
    wrappedhtml: f.endsWith('fm') && request.params.has('wrappedhtml'),
  };
}

/** The printer's own parameters, never reported as unrecognized (`_` goes with `callback`). */
export function printerParams(p: Printer): string[] {
  if (p.format === 'none') return [];
  const base = ['callback', 'utf8', 'ascii', 'formatversion'];
  if (p.format.endsWith('fm')) base.push('wrappedhtml');
  if (p.callback !== null) base.push('_');
  return base;
}

/** The formatversion values ApiFormatJson accepts. */
export const FORMAT_VERSIONS = ['1', '2', 'latest'] as const;
