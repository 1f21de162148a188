/** Order statistics of the benches' timings, one definition for every figure they print. */

const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

/** The middle value; of an even count, the upper of the two middle ones. */
export const median = (xs: readonly number[]): number => sorted(xs)[xs.length >> 1]!;

/** The nearest-rank percentile `p` (0 < p ≤ 100). */
export function percentile(xs: readonly number[], p: number): number {
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
}
