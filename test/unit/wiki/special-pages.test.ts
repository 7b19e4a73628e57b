import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtinSpecialPages, resolveSpecialAlias, specialLocalName, specialPageExists, specialPagesFromSiteinfo } from '../../../src/wiki/special-pages.js';

describe('special pages of a default install', () => {
  it('resolve aliases and give local names', () => {
    expect(resolveSpecialAlias('recentchanges/x_y', 'ru')).toEqual({ name: 'Recentchanges', subpage: 'x_y' });
    expect(resolveSpecialAlias('Свежие_правки', 'ru')).toEqual({ name: 'Recentchanges', subpage: null });
    expect(specialLocalName('Recentchanges', 'x y', 'ru')).toBe('Свежие_правки/x_y');
    expect(specialLocalName('Contributions', null, 'en')).toBe('Contributions');
    expect(specialLocalName('Upload', null, 'ru')).toBe('Загрузка');
    expect(specialLocalName('Badtitle', null, 'ru')).toBe('Недопустимое_название');
    expect(specialPageExists('Badtitle', 'ru')).toBe(false);
    expect(specialPageExists('version', 'ru')).toBe(true);
    expect(specialPageExists('Версия', 'en')).toBe(false);
  });

  it('of 1.43 add the pages the live 1.43 has (Special:Renameuser is Переименовать_участника), which 1.39 lacks', () => {
    const t139 = builtinSpecialPages('ru', '1.39.17');
    const t143 = builtinSpecialPages('ru', '1.43.9');
    expect(specialPageExists('Contribute', t139)).toBe(false);
    expect(specialPageExists('Contribute', t143)).toBe(true);
    expect(specialLocalName('Renameuser', null, t143)).toBe('Переименовать_участника');
    expect(specialLocalName('Mylog', 'x', t143)).toBe('MyLog/x');
  });
});

/** What `siprop=specialpagealiases` of the live wikis shows, checked in as captured. */
const captured = (version: string) => JSON.parse(readFileSync(new URL(`./specialpagealiases-${version}.json`, import.meta.url), 'utf8')) as { realname: string; aliases: string[] }[];

describe.each(['1.39', '1.43'])('the built-in table of %s', (version) => {
  it('gives every page the local name and aliases the live wiki lists', () => {
    const table = builtinSpecialPages('ru', version);
    for (const { realname, aliases } of captured(version)) {
      expect(specialLocalName(realname, null, table)).toBe(aliases[0]);
      for (const a of aliases) expect(resolveSpecialAlias(a, table)?.name).toBe(realname);
    }
    expect(table.names.size).toBe(captured(version).length);
  });

  it('is what a recorded specialpagealiases makes', () => {
    const recorded = specialPagesFromSiteinfo(captured(version), version)!;
    for (const { realname } of captured(version)) expect(specialLocalName(realname, 'a b', recorded)).toBe(specialLocalName(realname, 'a b', builtinSpecialPages('ru', version)));
    expect(specialPagesFromSiteinfo('nope', version)).toBeNull();
  });
});
