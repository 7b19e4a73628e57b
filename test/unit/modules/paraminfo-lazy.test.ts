import { describe, expect, it } from 'vitest';
import { loadedData } from '../../../src/modules/paraminfo/data.js';
import { api } from '../../support/app.js';

describe('the paraminfo data', () => {
  it('is read on the first paraminfo request that needs it, never before (other requests pay nothing for it)', async () => {
    await api({ action: 'query', list: 'logevents', lelimit: '2' }, { version: '1.43.9' });
    await api({ action: 'paraminfo', modules: 'bogus', format: 'json' }, { version: '1.39.17', debugInfo: false });
    expect(loadedData()).toEqual(['1.39']);
    await api({ action: 'paraminfo', modules: 'edit', helpformat: 'wikitext', uselang: 'en' }, { version: '1.43.9' });
    expect(loadedData().sort()).toEqual(['1.39', '1.43', 'help-en', 'trace-1.43']);
  });
});
