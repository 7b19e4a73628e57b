import type { Language } from '../i18n/language.js';
import { message } from '../i18n/message.js';
import { asciiCaseless } from './parse-summary.js';

/**
 * ApiParse::formatSummary with `section=new`: the summary made from the section title
 * (Parser::stripSectionName: links to their text, quotes and tags removed).
 */
/** $wgUrlProtocols default, as UrlUtils::validProtocols builds the alternation. */
const URL_PROTOCOLS = [
  'bitcoin:', 'ftp://', 'ftps://', 'geo:', 'git://', 'gopher://', 'http://', 'https://', 'irc://', 'ircs://', 'magnet:', 'mailto:',
  'matrix:', 'mms://', 'news:', 'nntp://', 'redis://', 'sftp://', 'sip:', 'sips:', 'sms:', 'ssh://', 'svn://', 'tel:', 'telnet://',
  'urn:', 'worldwind://', 'xmpp:', '//',
];

/** Parser::doQuotes for one line: `''`, `'''`, `'''''` to <i>/<b>. */
export function doQuotes(text: string): string {
  const arr = text.split(/(''+)/);
  if (arr.length === 1) return text;
  let numbold = 0;
  let numitalics = 0;
  for (let i = 1; i < arr.length; i += 2) {
    let len = arr[i]!.length;
    if (len === 4) {
      arr[i - 1] += "'";
      arr[i] = "'''";
      len = 3;
    } else if (len > 5) {
      arr[i - 1] += "'".repeat(len - 5);
      arr[i] = "'''''";
      len = 5;
    }
    if (len === 2) numitalics++;
    else if (len === 3) numbold++;
    else if (len === 5) {
      numitalics++;
      numbold++;
    }
  }
  if (numbold % 2 === 1 && numitalics % 2 === 1) {
    let single = -1;
    let multi = -1;
    let space = -1;
    for (let i = 1; i < arr.length; i += 2) {
      if (arr[i]!.length === 3) {
        const prev = arr[i - 1]!;
        const x1 = prev.slice(-1);
        const x2 = prev.length >= 2 ? prev.slice(-2, -1) : '';
        if (x1 === ' ') {
          if (space === -1) space = i;
        } else if (x2 === ' ') {
          single = i;
          break;
        } else if (multi === -1) {
          multi = i;
        }
      }
    }
    const pick = single > -1 ? single : multi > -1 ? multi : space;
    if (pick > -1) {
      arr[pick] = "''";
      arr[pick - 1] += "'";
    }
  }
  let output = '';
  let buffer = '';
  let state = '';
  arr.forEach((r, i) => {
    if (i % 2 === 0) {
      if (state === 'both') buffer += r;
      else output += r;
      return;
    }
    if (r.length === 2) {
      if (state === 'i') [output, state] = [`${output}</i>`, ''];
      else if (state === 'bi') [output, state] = [`${output}</i>`, 'b'];
      else if (state === 'ib') [output, state] = [`${output}</b></i><b>`, 'b'];
      else if (state === 'both') [output, state] = [`${output}<b><i>${buffer}</i>`, 'b'];
      else [output, state] = [`${output}<i>`, `${state}i`];
    } else if (r.length === 3) {
      if (state === 'b') [output, state] = [`${output}</b>`, ''];
      else if (state === 'bi') [output, state] = [`${output}</i></b><i>`, 'i'];
      else if (state === 'ib') [output, state] = [`${output}</b>`, 'i'];
      else if (state === 'both') [output, state] = [`${output}<i><b>${buffer}</b>`, 'i'];
      else [output, state] = [`${output}<b>`, `${state}b`];
    } else if (r.length === 5) {
      if (state === 'b') [output, state] = [`${output}</b><i>`, 'i'];
      else if (state === 'i') [output, state] = [`${output}</i><b>`, 'b'];
      else if (state === 'bi') [output, state] = [`${output}</i></b>`, ''];
      else if (state === 'ib') [output, state] = [`${output}</b></i>`, ''];
      else if (state === 'both') [output, state] = [`${output}<i><b>${buffer}</b></i>`, ''];
      else [buffer, state] = ['', 'both'];
    }
  });
  if (state === 'b' || state === 'ib') output += '</b>';
  if (state === 'i' || state === 'bi' || state === 'ib') output += '</i>';
  if (state === 'bi') output += '</b>';
  if (state === 'both' && buffer !== '' && buffer !== '0') output += `<b><i>${buffer}</i></b>`;
  return output;
}

/** StringUtils::delimiterReplace('<', '>', '', $text): tags (outermost `<…>` pairs) removed. */
function stripTags(subject: string): string {
  let output = '';
  let inputPos = 0;
  let outputPos = 0;
  let foundStart = false;
  const re = /(<)|(>)/g;
  while (inputPos < subject.length) {
    re.lastIndex = inputPos;
    const m = re.exec(subject);
    if (!m) break;
    const pos = m.index;
    if (m[1] !== undefined) {
      if (!foundStart) {
        output += subject.slice(outputPos, pos);
        outputPos = pos;
        inputPos = pos + 1;
        foundStart = true;
      } else {
        inputPos = pos + 1;
      }
    } else {
      if (foundStart) {
        foundStart = false;
      } else {
        output += subject.slice(inputPos, pos + 1);
      }
      inputPos = outputPos = pos + 1;
    }
  }
  if (outputPos < subject.length) output += subject.slice(outputPos);
  return output;
}

/** Parser::stripSectionName: links to their text, external link markup, quotes and tags removed. */
export function stripSectionName(text: string): string {
  let s = text.replace(/\[\[:?([^[|]+)\|([^[]+)\]\]/g, '$2');
  s = s.replace(/\[\[:?([^[]+)\|?\]\]/g, '$1');
  const protocols = URL_PROTOCOLS.map(asciiCaseless).join('|');
  s = s.replace(new RegExp(`\\[(?:${protocols})([^ ]+?) ([^[]+)\\]`, 'g'), '$2');
  return stripTags(doQuotes(s));
}

/**
 * ApiParse::formatSummary's choice of text: with `section=new`, when the summary or the section
 * title is empty, the content-language `newsectionsummary` around the stripped section title.
 */
export function summaryForParse(lang: Language, summary: string | null, sectionTitle: string | null, sectionIsNew: boolean): string {
  let s = summary ?? '';
  const st = sectionTitle ?? '';
  if (sectionIsNew && (st === '' || s === '')) {
    if (st !== '') s = st;
    if (s !== '') s = message(lang, 'newsectionsummary', [stripSectionName(s)]);
  }
  return s;
}
