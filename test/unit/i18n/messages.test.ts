import { describe, expect, it } from 'vitest';
import { CHANGED, EN, RU, SINCE, fetchMessage } from '../../../src/i18n/messages.js';

describe('message texts', () => {
  it('has an English text for every Russian one and for every changed or versioned key', () => {
    expect(Object.keys(RU).filter((k) => !(k in EN))).toEqual([]);
    expect(Object.keys(CHANGED).filter((k) => !(k in EN))).toEqual([]);
    expect(Object.keys(SINCE).filter((k) => !(k in EN))).toEqual([]);
  });

  it('holds the keys the API emits, verbatim from MediaWiki 1.39', () => {
    expect(EN['paramvalidator-badvalue-enumnotmulti']).toBe('Unrecognized value for parameter "$1": $2.');
    expect(RU['apierror-unrecognizedparams']).toBe('{{PLURAL:$2|Нераспознанный параметр|Нераспознанные параметры}}: $1');
    expect(RU['title-invalid-too-long']).toContain('{{PLURAL:$1|1=байта|байт}}');
    expect(EN['apierror-unknownformat']).toBe('Unrecognized format "$1".');
    expect(EN['api-format-prettyprint-status']).toBe('This response would be returned with HTTP status $1 $2.');
    expect(RU['size-kilobytes']).toBe('$1 КБ');
    expect(RU['comma-separator']).toBeUndefined();
  });

  it('fetches as MessageCache does: fallback to English, &#32; as a space, version-dependent texts', () => {
    expect(fetchMessage('ru', 'comma-separator')).toBe(', ');
    expect(fetchMessage('ru', 'and')).toBe(' и');
    expect(fetchMessage('en', 'title-invalid-empty', '1.43.0')).toBe(CHANGED['title-invalid-empty']![1]);
    expect(fetchMessage('en', 'title-invalid-empty', '1.42.3')).toBe(EN['title-invalid-empty']);
    expect(fetchMessage('en', 'duration-months', '1.39.17')).toBeNull();
    expect(fetchMessage('en', 'nope')).toBeNull();
  });
});
