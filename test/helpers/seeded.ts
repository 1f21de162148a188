/**
 * Seeded randomness for tests whose inputs are drawn at random: the seed is printed on failure and
 * read back from the environment, so a failing draw can be run again.
 */

/** Numbers in [0, 1) from `seed` (mulberry32): the same seed, the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed in the environment variable `name` (to repeat a run), else a new one. */
export function seedFrom(name: string): number {
  const given = process.env[name];
  if (given === undefined || given === "") return Math.floor(Math.random() * 2 ** 32);
  if (!/^\d+$/.test(given) || Number(given) >= 2 ** 32) throw new Error(`${name} must be a whole number below 2^32, got '${given}'`);
  return Number(given);
}
