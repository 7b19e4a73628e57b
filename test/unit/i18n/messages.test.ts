import { describe, expect, it } from 'vitest';
import { fetchMessage } from '../../../src/i18n/messages.js';
import { lang as L } from '../../support/lang.js';

describe('message texts (l10n/languages.json, MediaWiki 1.39 and 1.43)', () => {
  it('holds the texts verbatim, each language its own', () => {
    expect(fetchMessage(L('en'), 'paramvalidator-badvalue-enumnotmulti')).toBe('Unrecognized value for parameter "$1": $2.');
    expect(fetchMessage(L('ru'), 'apierror-unrecognizedparams')).toBe('{{PLURAL:$2|Нераспознанный параметр|Нераспознанные параметры}}: $1');
    expect(fetchMessage(L('ru'), 'title-invalid-too-long')).toContain('{{PLURAL:$1|1=байта|байт}}');
    expect(fetchMessage(L('de'), 'paramvalidator-badvalue-enumnotmulti')).toBe('Nicht erkannter Wert für den Parameter „$1“: $2.');
    expect(fetchMessage(L('ru'), 'size-kilobytes')).toBe('$1 КБ');
  });

  it('fetches as MessageCache does: the fallback chain, &#32; as a space, the version\'s text', () => {
    expect(fetchMessage(L('ru'), 'comma-separator')).toBe(', ');
    expect(fetchMessage(L('ru'), 'and')).toBe(' и');
    // de-formal falls back to de, zh-hans's chain reaches zh-hant before English
    expect(fetchMessage(L('de-formal'), 'paramvalidator-badvalue-enumnotmulti')).toBe(fetchMessage(L('de'), 'paramvalidator-badvalue-enumnotmulti'));
    expect(L('zh-hans').chain()).toEqual(['zh-hans', 'zh-cn', 'zh', 'zh-hant', 'en']);
    expect(fetchMessage(L('en', '1.43.0'), 'title-invalid-empty')).toBe('The requested page title is empty or contains only a namespace prefix.');
    expect(fetchMessage(L('en', '1.42.3'), 'title-invalid-empty')).toBe('The requested page title is empty or contains only the name of a namespace.');
    expect(fetchMessage(L('en', '1.39.17'), 'duration-months')).toBeNull();
    expect(fetchMessage(L('en'), 'nope')).toBeNull();
  });

  it('gives qqx the key form for every key, and an unshipped code English', () => {
    expect(fetchMessage(L('qqx'), 'apierror-badquery')).toBe('($*)');
    expect(fetchMessage(L('qqx'), 'nope')).toBe('($*)');
    expect(fetchMessage(L('xx-bogus'), 'apierror-badquery')).toBe('Invalid query.');
    expect(L('xx-bogus').shipped).toBe(false);
  });
});
