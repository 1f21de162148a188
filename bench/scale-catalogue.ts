/**
 * Synthetic catalogues for the scale bench (bench/scale.ts): N assets made from the real records
 * of the embedded index, one after another (a generator, so a caller can stream them).
 *
 * - Record i takes the shape of a real record (its template), in a seeded shuffle of the real
 *   records cycled over: every field the template has, and only those, so the provider mix and the
 *   record shape are the embedded index's (exactly so for N a multiple of its size).
 * - Its title and tags have the template's word and tag counts, the words (whole tags) drawn from
 *   those of the same provider's real records, as often as they occur there. Its description is
 *   the template's with each word swapped for such a draw at DESCRIPTION_SWAP odds: descriptions
 *   keep their sentence frames, so adjacent pairs (indexed as terms of their own) repeat as in real
 *   text instead of nearly every pair of a long description being new. A share of the draws
 *   (NOVEL_SHARE) takes instead a word of rank r in an unbounded list, r drawn with P(r) ∝ r^-1.5:
 *   its first ranks are the provider's real words, the later ones new words spliced from two of
 *   them. The number of distinct words then grows with the catalogue as real vocabularies do (about
 *   as the token count to the power 2/3, Heaps' law) instead of stopping at the real vocabulary.
 * - Ids are unique: `<provider>:<template nativeId>~<i in base 36>`; urls carry the new native id.
 * The same seed gives the same records (prefix-stable: the first k records do not depend on N).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { CURRENT_FILE, currentSet, PUBLISHED_FILES, SETS_DIR } from "../core/publication/published.ts";
import type { Asset } from "../core/schemas/index.ts";

/** Share of word draws that take a word of the unbounded ranked list rather than a real word by its frequency. */
const NOVEL_SHARE = 0.2;
/** Odds that a word of a description is swapped for a drawn one. */
const DESCRIPTION_SWAP = 0.3;
/** Tail exponent of the rank draw: P(rank ≥ R) ≈ R^-TAIL. */
const TAIL = 0.5;

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The real records of the set `data/current.json` names (its index.json.gz), as the server reads them. */
export function embeddedAssets(dataDir = "data"): Asset[] {
  const set = currentSet(dataDir);
  if (set === undefined) throw new Error(`${join(dataDir, CURRENT_FILE)} names no set`);
  const gz = readFileSync(join(dataDir, SETS_DIR, set, PUBLISHED_FILES.index));
  return (JSON.parse(gunzipSync(gz).toString("utf8")) as { assets: Asset[] }).assets;
}

/** Words of one field of one provider: every occurrence (frequency-weighted draws) and the distinct ones by frequency. */
interface Pool {
  occurrences: string[];
  ranked: string[];
}

function pool(items: string[]): Pool {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  return { occurrences: items.length ? items : ["asset"], ranked: ranked.length ? ranked : ["asset"] };
}

const wordsOf = (text: string | undefined) => (text ?? "").split(/\s+/).filter(Boolean);

/** Hash of an integer (murmur3 finaliser), for the deterministic make-up of a new word. */
function mix(n: number): number {
  let h = n >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The word of rank r (0-based) beyond the real ones: the start of one real word and the end of another, always the same for r. */
function spliced(p: Pool, r: number): string {
  const h1 = mix(r * 2 + 1);
  const h2 = mix(r * 2 + 2);
  const a = p.ranked[h1 % p.ranked.length]!.replace(/[^\p{L}\p{N}]+$/u, "");
  const b = p.ranked[h2 % p.ranked.length]!.replace(/^[^\p{L}\p{N}]+/u, "");
  const head = a.slice(0, Math.max(2, Math.ceil(a.length / 2) + ((h1 >>> 8) % 2)));
  const tail = b.slice(Math.min(b.length - 1, Math.floor(b.length / 2) - ((h2 >>> 8) % 2)));
  return `${head}${tail}` || `w${r.toString(36)}`;
}

function draw(p: Pool, random: () => number): string {
  if (random() >= NOVEL_SHARE) return p.occurrences[Math.floor(random() * p.occurrences.length)]!;
  // Rank from a Pareto tail: P(rank ≥ R) = (R + 1)^-TAIL, capped so the arithmetic stays in integers.
  const rank = Math.min(Math.floor((1 - random()) ** (-1 / TAIL)) - 1, 2 ** 31);
  return rank < p.ranked.length ? p.ranked[rank]! : spliced(p, rank);
}

/** Capitalised as the template's word at the same place was. */
const caseLike = (word: string, like: string | undefined) =>
  like && /^\p{Lu}/u.test(like) ? word.charAt(0).toUpperCase() + word.slice(1) : like && /^\p{Ll}/u.test(like) ? word.toLowerCase() : word;

interface ProviderPools {
  title: Pool;
  tags: Pool;
  description: Pool;
}

/** In the url, the template's native id becomes the new one (or the new one is added as a fragment), so urls stay valid and distinct. */
function withNativeId(url: string, oldId: string, newId: string): string {
  return url.includes(oldId) ? url.split(oldId).join(encodeURIComponent(newId)) : `${url}#${encodeURIComponent(newId)}`;
}

/** N synthetic assets from `real`, deterministic for `seed`; yielded one by one. */
export function* syntheticCatalogue(real: readonly Asset[], n: number, seed = 1): Generator<Asset> {
  if (!real.length) throw new Error("no real records to take the shape from");
  const random = seededRandom(seed);
  const byProvider = new Map<string, Asset[]>();
  for (const a of real) byProvider.set(a.provider, [...(byProvider.get(a.provider) ?? []), a]);
  const pools = new Map<string, ProviderPools>();
  for (const [provider, assets] of byProvider) {
    pools.set(provider, {
      title: pool(assets.flatMap((a) => wordsOf(a.title))),
      tags: pool(assets.flatMap((a) => a.tags)),
      description: pool(assets.flatMap((a) => wordsOf(a.description))),
    });
  }
  // The templates in a seeded order, so any prefix is a fair sample of the mix.
  const order = real.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  for (let i = 0; i < n; i++) {
    const t = real[order[i % order.length]!]!;
    const p = pools.get(t.provider)!;
    const nativeId = `${t.nativeId}~${i.toString(36)}`;
    const asset: Asset = {
      // A copy: records must not share arrays and objects, or memory figures would flatter the engine.
      ...structuredClone(t),
      id: `${t.provider}:${nativeId}`,
      nativeId,
      title: wordsOf(t.title)
        .map((like) => caseLike(draw(p.title, random), like))
        .join(" "),
      tags: t.tags.map(() => draw(p.tags, random)),
      url: withNativeId(t.url, t.nativeId, nativeId),
    };
    if (!asset.title) asset.title = draw(p.title, random);
    if (t.description !== undefined) {
      asset.description = wordsOf(t.description)
        .map((word) => (random() < DESCRIPTION_SWAP ? draw(p.description, random) : word))
        .join(" ");
    }
    if (t.thumbnailUrl !== undefined) asset.thumbnailUrl = withNativeId(t.thumbnailUrl, t.nativeId, nativeId);
    if (t.downloads !== undefined) asset.downloads = Math.floor(t.downloads * random() * 2);
    yield asset;
  }
}
