/**
 * mulberry32: a small pseudo-random generator whose sequence a seed fixes (the same seed, the same
 * draws), giving numbers in [0, 1). Faults drawn at a rate use it, and so do the tests' seeded hunts.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
