import type { Page } from './model.js';

/**
 * Bounds on each link's el_id: ids of one page's links grow with their recorded order in 1.43
 * (ORDER BY el_id), and are distinct integers, so a known id bounds its neighbours'.
 */
export function idBounds(page: Page, modern: boolean): { lo: number; hi: number }[] {
  const links = page.extlinks;
  const out = links.map((l) => (l.id > 0 ? { lo: l.id, hi: l.id } : { lo: l.idMin ?? 1, hi: l.idMax ?? Number.MAX_SAFE_INTEGER }));
  if (!modern) return out;
  for (let i = 1; i < out.length; i++) out[i]!.lo = Math.max(out[i]!.lo, out[i - 1]!.lo + 1);
  for (let i = out.length - 2; i >= 0; i--) out[i]!.hi = Math.min(out[i]!.hi, out[i + 1]!.hi - 1);
  return out;
}
