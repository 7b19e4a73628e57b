import { describe, expect, it } from 'vitest';
import { hasText, text, titleErrorText } from '../../../src/wiki/texts.js';

describe('texts', () => {
  it('substitutes parameters, falls back to en', () => {
    expect(text('ru', 'red-link-title', ['Foo'])).toBe('Foo (страница не существует)');
    expect(text('en', 'red-link-title', ['Foo'])).toBe('Foo (page does not exist)');
    expect(text('ru', 'colon-separator')).toBe(': ');
    expect(text('ru', 'autocomment-prefix')).toBe('');
    expect(text('ru', 'newsectionsummary', ['T'])).toBe('/* T */ новая тема');
    expect(text('en', 'newsectionsummary', ['T'])).toBe('/* T */ new section');
    expect(hasText('title-invalid-utf8')).toBe(true);
    expect(text('en', 'nonexistent-key')).toBe('⧼nonexistent-key⧽');
  });
  it('resolves PLURAL (recorded texts of MediaWiki 1.39.17)', () => {
    expect(titleErrorText('en', 'title-invalid-too-long', ['255'])).toBe(
      'The requested page title is too long. It must be no longer than 255 bytes in UTF-8 encoding.',
    );
    expect(titleErrorText('ru', 'title-invalid-too-long', ['512'])).toBe(
      'Запрашиваемый заголовок страницы слишком длинен. Он должен быть не более 512 байт в кодировке UTF-8.',
    );
    expect(titleErrorText('ru', 'title-invalid-too-long', ['1'])).toContain('не более 1 байта в');
    expect(titleErrorText('en', 'title-invalid-too-long', ['1'])).toContain('than 1 byte in');
  });
});
