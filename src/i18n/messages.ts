import type { Language } from './language.js';

/** Messages of wikitape itself (errors no wiki would give). */
export const OWN: Readonly<Record<string, string>> = {
  'wikitape-miss':
    'No recording answers this request exactly (canonical request: <kbd>$1</kbd>): the recordings do not show <kbd>$3</kbd>, so replay refuses to guess (<kbd>--on-miss builtin</kbd> answers it anyway, flagged with <kbd>X-Wikitape-Unknown</kbd>). Record it with <kbd>wikitape record --upstream $2</kbd> and ask the same question through the recorder, or record the whole wiki with <kbd>wikitape snapshot --upstream $2</kbd>.',
  'wikitape-miss-near':
    'No recording answers this request exactly (canonical request: <kbd>$1</kbd>): the recordings do not show <kbd>$3</kbd>, so replay refuses to guess (<kbd>--on-miss builtin</kbd> answers it anyway, flagged with <kbd>X-Wikitape-Unknown</kbd>). The closest recordings (<kbd>+</kbd>: only the recording has it, <kbd>-</kbd>: only this request): $4. Record it with <kbd>wikitape record --upstream $2</kbd> and ask the same question through the recorder, or record the whole wiki with <kbd>wikitape snapshot --upstream $2</kbd>.',
  'wikitape-miss-unprintable':
    'A recording answers this request (canonical request: <kbd>$1</kbd>), but not in the form asked: replay does not know <kbd>$2</kbd> (recordings are stored as <kbd>formatversion=2</kbd> JSON, and wikitape prints the other forms only where it knows them), so it refuses to guess (<kbd>--on-miss builtin</kbd> prints it anyway, flagged with <kbd>X-Wikitape-Unknown</kbd>). Ask it with <kbd>format=json&amp;formatversion=2</kbd>.',
  'wikitape-miss-order':
    'A recording answers this request (canonical request: <kbd>$1</kbd>), but its warnings or its error name the request\'s parameters, or a parameter\'s values, in another order than this request may send them: MediaWiki lists the parameters and values it does not know in the order they are sent (an error names the first bad value sent), and a recording shows only the order it was asked in. Replay does not know <kbd>$2</kbd>, so it refuses to guess (<kbd>--on-miss builtin</kbd> prints it anyway, flagged with <kbd>X-Wikitape-Unknown</kbd>). Send the parameters and values in the recording\'s order, or leave out those the wiki does not know.',
  'wikitape-miss-written':
    'This request reads the wiki after a write (the latest: <kbd>action=$2</kbd> of <kbd>$3</kbd>; canonical request: <kbd>$1</kbd>). Replay applies no write: what it recorded is the wiki before the writes, and the wiki answers differently after them (a new page and its revisions, log entries, contributions, recent changes, edit counts), so it refuses to guess (<kbd>--on-miss builtin</kbd> answers it as recorded, flagged with <kbd>X-Wikitape-Unknown: writes.applied</kbd>). Ask the wiki what it says after a write; replay answers from its recordings again once the write log is emptied (<kbd>DELETE /_wikitape/writes</kbd>, <kbd>clearWrites()</kbd>).',
  'wikitape-unverifiedpassword':
    'wikitape replays this wiki offline and cannot check passwords (no recording holds one): any password logs in <kbd>$1</kbd>. Give the account with its password in a fixture (<kbd>accounts</kbd>) to have a wrong one refused.',
  'wikitape-write-unknown':
    'wikitape answered this <kbd>action=$1</kbd> without a wiki: nothing was changed (the write is in its write log, <kbd>/_wikitape/writes</kbd>), and it cannot know $2. The values it gives for them are made up (<kbd>X-Wikitape-Unknown: $1.result</kbd>).',
  'wikitape-notimplemented':
    'wikitape has no built-in implementation of <kbd>$1</kbd> and no recording answers this request. Record it from a live wiki with <kbd>wikitape record --upstream URL</kbd>.',
};

/**
 * A message's text as MessageCache hands it out: wikitape's own, else the language's or the
 * first of its fallback chain's (l10n/languages.json, the wiki version's texts), with `&#32;`,
 * `&nbsp;`, `&#160;` and `&shy;` turned into characters; `qqx` gives `($*)` for every key. Null
 * for a key no language of the chain has (or one the wiki version does not have yet).
 */
export function fetchMessage(lang: Language, key: string): string | null {
  const text = lang.isQqx ? '($*)' : (OWN[key] ?? lang.rawMessage(key));
  if (text === null) return null;
  return text.replace(/&#32;|&nbsp;|&#160;|&shy;/g, (e) => (e === '&#32;' ? ' ' : e === '&shy;' ? '\u00ad' : '\u00a0'));
}
