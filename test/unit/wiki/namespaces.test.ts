import { describe, expect, it } from 'vitest';
import { hasSubpages, namespaceAliases, namespaceDbName, namespaceIndex, namespaceName } from '../../../src/wiki/namespaces.js';

const RU = { lang: 'ru' as const, metaNamespace: 'Тестовая_вики' };
const EN = { lang: 'en' as const, metaNamespace: 'Тестовая вики' };

describe('namespace names', () => {
  it('are those of a ru wiki named "Тестовая вики" (siteinfo of MediaWiki 1.39.17)', () => {
    const names = Array.from({ length: 18 }, (_, i) => namespaceName(i - 2, RU));
    expect(names).toEqual([
      'Медиа', 'Служебная', '', 'Обсуждение', 'Участник', 'Обсуждение участника', 'Тестовая вики', 'Обсуждение Тестовая вики', 'Файл',
      'Обсуждение файла', 'MediaWiki', 'Обсуждение MediaWiki', 'Шаблон', 'Обсуждение шаблона', 'Справка', 'Обсуждение справки', 'Категория',
      'Обсуждение категории',
    ]);
    expect(namespaceAliases(RU)).toEqual([
      { id: 6, alias: 'Изображение' }, { id: 7, alias: 'Обсуждение изображения' }, { id: 6, alias: 'Image' }, { id: 7, alias: 'Image talk' },
      { id: 2, alias: 'Участница' }, { id: 3, alias: 'Обсуждение участницы' },
    ]);
  });
  it('put the project talk name in the genitive (ru grammar rules)', () => {
    expect(namespaceDbName(5, { lang: 'ru', metaNamespace: 'Википедия' })).toBe('Обсуждение_Википедии');
    expect(namespaceDbName(5, { lang: 'ru', metaNamespace: 'Викисловарь' })).toBe('Обсуждение_Викисловаря');
    expect(namespaceDbName(5, EN)).toBe('Тестовая_вики_talk');
    expect(namespaceName(3, EN)).toBe('User talk');
  });
  it('are matched case-insensitively, canonical names first', () => {
    expect(namespaceIndex('PROJECT_TALK', RU)).toBe(5);
    expect(namespaceIndex('тестовая вики', RU)).toBe(4);
    expect(namespaceIndex('ОБСУЖДЕНИЕ_УЧАСТНИЦЫ', RU)).toBe(3);
    expect(namespaceIndex('image', EN)).toBe(6);
    expect(namespaceIndex('Изображение', EN)).toBeNull();
    expect(namespaceIndex('Википедия', RU)).toBeNull();
  });
  it('have subpages as $wgNamespacesWithSubpages says', () => {
    expect([-1, 0, 1, 2, 6, 14, 15].map(hasSubpages)).toEqual([false, false, true, true, false, false, true]);
  });
});
