import { describe, expect, it } from 'vitest';
import { api, data } from '../support/app.js';

/**
 * `continue` of a query that mixes a prop module and a list module, as ApiContinuationManager
 * writes and reads it. Checked on the live 1.39 and 1.43 (prop=extlinks of a page with three
 * links and list=logevents, each at limit 1): the list's continuation comes before the prop's
 * whatever order the request names them in; the part before `||` is `-` once the prop modules
 * (the generator's) are done and empty while they are not; a request continuing from `-||…` gets
 * no page information and runs no prop module, one continuing from `||…` gets the pages again.
 */

type Body = Record<string, unknown> & { continue?: Record<string, string>; query?: { pages?: { title: string; extlinks?: unknown[] }[]; logevents?: unknown[] } };

const ask = async (params: Record<string, string>): Promise<Body> => data(await api({ action: 'query', formatversion: '2', ...params })) as Body;
/** Москва has three external links in the mini wiki, so ellimit=1 leaves extlinks unfinished. */
const LINKS = { prop: 'extlinks', titles: 'Москва' };

describe('continue of a prop and a list together', () => {
  it('puts the list continuation first, then the prop one, in either request order; "||" while a prop is unfinished', async () => {
    for (const params of [
      { ...LINKS, ellimit: '1', list: 'logevents', lelimit: '1' },
      { list: 'logevents', lelimit: '1', ...LINKS, ellimit: '1' },
    ]) {
      const body = await ask(params);
      expect(Object.keys(body.continue!)).toEqual(['lecontinue', 'elcontinue', 'continue']);
      expect(body.continue!['continue']).toBe('||');
      // not batch-complete while a prop module has more to say
      expect(body).not.toHaveProperty('batchcomplete');
    }
  });

  it('marks the generator part done ("-||extlinks") once only the list is unfinished, and the batch complete', async () => {
    const body = await ask({ ...LINKS, ellimit: 'max', list: 'logevents', lelimit: '1' });
    expect(Object.keys(body.continue!)).toEqual(['lecontinue', 'continue']);
    expect(body.continue!['continue']).toBe('-||extlinks');
    expect(body['batchcomplete']).toBe(true);
  });

  it('leaves the generator part empty ("||logevents") when only the prop is unfinished', async () => {
    const body = await ask({ ...LINKS, ellimit: '1', list: 'logevents', lelimit: 'max' });
    expect(body.continue).toEqual({ elcontinue: expect.any(String), continue: '||logevents' });
    expect(body).not.toHaveProperty('batchcomplete');
  });
});

describe('continuing from a "continue" value', () => {
  it('after "-||extlinks": no pages, no extlinks, the list goes on', async () => {
    const first = await ask({ ...LINKS, ellimit: 'max', list: 'logevents', lelimit: '1' });
    const next = await ask({ ...LINKS, ellimit: 'max', list: 'logevents', lelimit: '1', ...first.continue });
    expect(next.query).not.toHaveProperty('pages');
    expect(next.query!.logevents).toHaveLength(1);
    expect(next.query!.logevents).not.toEqual(first.query!.logevents);
  });

  it('after "||logevents": the pages again with their next links, no log events', async () => {
    const first = await ask({ ...LINKS, ellimit: '1', list: 'logevents', lelimit: 'max' });
    const next = await ask({ ...LINKS, ellimit: '1', list: 'logevents', lelimit: 'max', ...first.continue });
    expect(next.query!.pages!.map((p) => p.title)).toEqual(['Москва']);
    expect(next.query!.pages![0]!.extlinks).toHaveLength(1);
    expect(next.query!.pages![0]!.extlinks).not.toEqual(first.query!.pages![0]!.extlinks);
    expect(next.query).not.toHaveProperty('logevents');
  });
});
