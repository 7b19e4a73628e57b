// A test of the README's example suite: a client under test talks to wikitape's replay.
import { expect, inject, it } from 'vitest';

it('reads the recorded log from the replayed wiki', async () => {
  const api = inject('wikiApi');
  const res = await fetch(`${api}?action=query&list=logevents&format=json&formatversion=2`);
  expect(res.headers.get('x-wikitape-source')).toBe('cassette');
  const body = (await res.json()) as { query: { logevents: { title: string }[] } };
  expect(body.query.logevents).toHaveLength(10);
  expect(body.query.logevents[0]!.title).toBe('Москва');
});

it('fails loudly on a question nobody recorded', async () => {
  const res = await fetch(`${inject('wikiApi')}?action=query&list=allusers&format=json`);
  expect(res.headers.get('mediawiki-api-error')).toBe('wikitape-miss');
});
