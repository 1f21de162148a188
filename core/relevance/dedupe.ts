import type { AlsoOn, Asset } from "../schemas/index.ts";

/** What ranks one listing of an asset above another listing of the same asset. */
export interface Listing {
  asset: Asset;
  /** api sources are more reliable than scraped ones. */
  access: "api" | "scrape" | "link";
}

const normalize = (s: string | undefined) =>
  (s ?? "")
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** An original's page as listings write it: without a query, fragment or trailing slash, the scheme and host in lower case. */
function pageOf(url: string): string {
  const bare = url.replace(/[?#].*$/s, "").replace(/\/+$/, "");
  const origin = /^[a-z][a-z\d+.-]*:\/\/[^/]*/i.exec(bare)?.[0] ?? "";
  return `${origin.toLowerCase()}${bare.slice(origin.length)}`;
}

/**
 * Keys under which two listings count as the same asset: title + author; for a font without an
 * author, its family name alone (font libraries such as Fontsource and Google Fonts name families,
 * not designers, and a family's name is what it is known by in every library); the same thumbnail;
 * or a republication's `originalUrl` and the original's page, as its source writes it (only pages
 * some listing names as an original: two listings of one shared page, such as a pack's, are not one
 * asset for that; and the one set look-up per listing keeps a large merge cheap).
 */
function keys(asset: Asset, originals: ReadonlySet<string>): string[] {
  const out: string[] = [];
  if (asset.originalUrl) out.push(`p:${pageOf(asset.originalUrl)}`);
  if (originals.has(asset.url)) out.push(`p:${asset.url}`);
  const title = normalize(asset.title);
  const author = normalize(asset.author);
  if (title && author) out.push(`t:${title}|${author}`);
  if (title && !author && asset.type === "font") out.push(`f:${title}`);
  if (asset.thumbnailUrl) out.push(`i:${asset.thumbnailUrl.split("?")[0]}`);
  return out;
}

const better = (a: Listing, b: Listing): boolean => {
  if (a.asset.downloadable !== b.asset.downloadable) return a.asset.downloadable;
  if (Boolean(a.asset.originalUrl) !== Boolean(b.asset.originalUrl)) return !a.asset.originalUrl;
  if (a.access !== b.access) return a.access === "api";
  if (Boolean(a.asset.license) !== Boolean(b.asset.license)) return Boolean(a.asset.license);
  return false;
};

/**
 * Collapses listings of the same asset on several sources into one: the listing with a direct
 * download wins, then the original over a republication, then an api source over a scraped one,
 * then the one that states a licence, then the earlier listing. The others are kept in `alsoOn`.
 * Order of first appearance is kept.
 */
export function dedupe(listings: Listing[]): Listing[] {
  const originals = new Set<string>();
  for (const { asset } of listings) if (asset.originalUrl) originals.add(pageOf(asset.originalUrl));
  const groupOf = new Map<string, number>();
  const groups: Listing[][] = [];
  for (const listing of listings) {
    const ks = keys(listing.asset, originals);
    const found = ks.map((k) => groupOf.get(k)).find((g) => g !== undefined);
    const g = found ?? groups.push([]) - 1;
    groups[g]!.push(listing);
    for (const k of ks) if (!groupOf.has(k)) groupOf.set(k, g);
  }
  return groups.map((group) => {
    const winner = group.reduce((best, l) => (better(l, best) ? l : best));
    const others = group.filter((l) => l !== winner && l.asset.id !== winner.asset.id);
    if (!others.length) return winner;
    const alsoOn: AlsoOn[] = [...(winner.asset.alsoOn ?? []), ...others.map((l) => ({ id: l.asset.id, provider: l.asset.provider, url: l.asset.url }))];
    return { ...winner, asset: { ...winner.asset, alsoOn } };
  });
}
