import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasMessage, message, messageHtml, stripMarkup, type MessageParam } from '../../../src/i18n/message.js';
import { lang as L } from '../../support/lang.js';

/**
 * messages-php.json (`npm run generate messages`): Message::text() and ::parse() from a MediaWiki 1.39.17 install (content
 * language ru, article path /wiki/index.php/$1) for the API's keys with several parameter kinds:
 * [key, lang, params, text, html?] (html omitted when it equals text).
 */
type Case = [string, string, MessageParam[], string, string?];
const cases = JSON.parse(readFileSync(new URL('./messages-php.json', import.meta.url), 'utf8')) as Case[];

describe('message (text form)', () => {
  it('matches MediaWiki 1.39 on every recorded key and parameter kind', () => {
    const wrong = cases.filter(([key, lang, params, text]) => message(L(lang), key, params) !== text);
    expect(wrong).toEqual([]);
    expect(cases.length).toBeGreaterThan(800);
  });

  it('resolves PLURAL with ru one/few/many and explicit forms', () => {
    expect(message(L('ru'), 'duration-days', [{ num: 21 }])).toBe('21 день');
    expect(message(L('ru'), 'duration-days', [{ num: 22 }])).toBe('22 дня');
    expect(message(L('ru'), 'duration-days', [{ num: 11 }])).toBe('11 дней');
    expect(message(L('ru'), 'duration-days', [{ num: 12345 }])).toBe('12\u00a0345 дней');
    expect(message(L('ru'), 'title-invalid-too-long', [{ num: 1 }])).toContain('не более 1 байта в кодировке');
    expect(message(L('ru'), 'title-invalid-too-long', [{ num: 255 }])).toContain('не более 255 байт в кодировке');
    expect(message(L('en'), 'apierror-unrecognizedparams', [{ list: ['foo'], type: 'comma' }, 1])).toBe('Unrecognized parameter: foo.');
    expect(message(L('en'), 'apierror-unrecognizedparams', [{ list: ['foo', 'bar'], type: 'comma' }, 2])).toBe('Unrecognized parameters: foo, bar.');
    expect(message(L('ru'), 'apierror-unrecognizedparams', [{ list: ['foo', 'bar'], type: 'comma' }, 2])).toBe('Нераспознанные параметры: foo, bar');
  });

  it('inserts numbers raw, {num} formatted and lists with "and"', () => {
    expect(message(L('en'), 'apiwarn-truncatedresult', [12345])).toBe('This result was truncated because it would otherwise be larger than the limit of 12345 bytes.');
    expect(message(L('en'), 'apiwarn-truncatedresult', [{ num: 12345 }])).toContain('limit of 12,345 bytes');
    expect(message(L('en'), 'apierror-invalidparammix', [{ list: ['<var>a</var>', '<var>b</var>'] }, 2])).toBe(
      'The parameters <var>a</var> and <var>b</var> can not be used together.',
    );
  });

  it('keeps plaintext parameters out of PLURAL (the marker counts as 0) and out of the parser', () => {
    expect(message(L('ru'), 'duration-days', [{ plaintext: '{{PLURAL:1|x}}' }])).toBe('{{PLURAL:1|x}} дней');
    expect(messageHtml(L('en'), 'apierror-unrecognizedvalue', [{ plaintext: 'a<b>' }, { plaintext: "x'y" }])).toBe(
      'Unrecognized value for parameter <var>a&lt;b&gt;</var>: x&#039;y.',
    );
  });

  it('turns &#32; into a space in message texts only, not in parameters', () => {
    expect(message(L('en'), 'comma-separator')).toBe(', ');
    expect(message(L('en'), 'apierror-badquery', [])).toBe('Invalid query.');
    expect(message(L('en'), 'apierror-invalidtitle', ['a&#32;b'])).toBe('Bad title "a&#32;b".');
  });

  it('falls back to English where ru has no text, and shows ⧼key⧽ for unknown keys', () => {
    expect(message(L('ru'), 'apierror-exceptioncaughttype', ['abc', 'Foo'])).toBe('[abc] Caught exception of type Foo');
    expect(hasMessage(L('ru'), 'apierror-exceptioncaughttype')).toBe(true);
    expect(hasMessage(L('en'), 'no-such-key')).toBe(false);
    expect(message(L('en'), 'no-such-key')).toBe('⧼no-such-key⧽');
  });

  it('picks the text of the profile version where it changed, and hides keys a version lacks', () => {
    expect(message(L('en', '1.39.17'), 'title-invalid-empty', [])).toBe('The requested page title is empty or contains only the name of a namespace.');
    expect(message(L('en', '1.43.9'), 'title-invalid-empty', [])).toBe('The requested page title is empty or contains only a namespace prefix.');
    expect(message(L('ru', '1.44.0'), 'title-invalid-empty', [])).toBe('Заголовок запрошенной страницы пуст или содержит только префикс пространства имён.');
    expect(message(L('en', '1.39.17'), 'duration-months', [{ num: 2 }])).toBe('⧼duration-months⧽');
    expect(message(L('ru', '1.44.0'), 'duration-months', [{ num: 2 }])).toBe('2 месяца');
  });

  it('leaves {{SITENAME}} for the caller', () => {
    expect(message(L('ru'), 'pagetitle', ['Результат MediaWiki API'])).toBe('Результат MediaWiki API — {{SITENAME}}');
  });
});

describe('messageHtml (parse form)', () => {
  it('matches MediaWiki 1.39 parse() on every recorded case', () => {
    const wrong = cases.filter(([key, lang, params, text, html]) => messageHtml(L(lang), key, params, { html: { contentLang: L('ru') } }) !== (html ?? text));
    expect(wrong).toEqual([]);
  });

  it('renders links, free URLs and paragraphs as the parser does', () => {
    expect(messageHtml(L('en'), 'api-usage-mailinglist-ref')).toContain(
      '&lt;<a rel="nofollow" class="external free" href="https://lists.wikimedia.org/postorius/lists/mediawiki-api-announce.lists.wikimedia.org/">',
    );
    const header = messageHtml(L('ru'), 'api-format-prettyprint-header-hyperlinked', ['JSON', 'json', 'http://x/api.php?a=1&format=json'], { html: { contentLang: L('ru') } });
    expect(header).toContain('<a rel="nofollow" class="external text" href="http://x/api.php?a=1&amp;format=json"><kbd>format=json</kbd></a>');
    expect(header).toContain('<a href="/wiki/index.php/%D0%A1%D0%BB%D1%83%D0%B6%D0%B5%D0%B1%D0%BD%D0%B0%D1%8F:ApiHelp/main" title="Служебная:ApiHelp/main">справку API</a>');
    expect(header.startsWith('<p>Это HTML-представление формата JSON.')).toBe(true);
    expect(messageHtml(L('en'), 'title-invalid-magic-tilde')).toBe('The requested page title contains invalid magic tilde sequence (~~~).');
  });
});

describe('stripMarkup', () => {
  it('quotes var/kbd/samp/code, drops other tags and decodes entities', () => {
    expect(stripMarkup('The <var>lelimit</var> &lt;x&gt; <b>bold</b>')).toBe('The "lelimit" <x> bold');
    expect(stripMarkup(message(L('en'), 'api-usage-mailinglist-ref'))).toContain('at <https://lists.wikimedia.org/');
  });
});
