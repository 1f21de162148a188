/**
 * 3Dassets.one (https://3dassets.one): one search over about 17 sites of free PBR materials, HDRIs and models (its
 * "creators"), searched live through its keyless JSON API: `/api/v2/creators` and `/api/v2/assets` (a JSON array; `q`
 * holds tags that must all match, `offset`/`limit` page it, `sort`, repeatable `creator[]`, `type[]` and `id[]`).
 * Its results link to the creators' pages; it hosts no files, so nothing here is downloadable.
 *
 * Creators a source of ours already lists (indexed or live, see COVERED) are left out rather than de-duplicated: the
 * de-duplication keys (title with author, thumbnail) never match across the two, so they would show twice. They are
 * left out upstream, by asking with `creator[]` for every other creator of `/creators` (a creator added there is
 * searched without a change here), which keeps `offset`/`limit` honest; an answer that still holds one (the site
 * ignores unknown creator slugs) is filtered too. Poliigon is not covered: our Poliigon is a link, it lists no assets.
 *
 * The census counts the same: `/api/v2` has no count (its code counts only for the site's own HTML pages), so every
 * asset of those creators is paged through, 500 at a time (the API's largest `limit`), up to a bounded number of pages.
 */
import { z } from "zod";
import { normalizeLicense } from "../core/model/license.ts";
import { type AssetDetails, type AssetType, assetMaker, compact, type License } from "./kit/asset.ts";
import { addedLast30Days, countBy, latest } from "./kit/census.ts";
import { isoTime } from "./kit/dates.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, type SourceIo } from "./kit/fetch.ts";
import { LICENSE_TERMS, type Sort } from "./kit/filters.ts";
import { parseList } from "./kit/list.ts";
import { isHttpUrl } from "./kit/url.ts";

const ID = "3dassetsone";
const SITE = "https://3dassets.one";
const API = `${SITE}/api/v2`;
const asset = assetMaker(ID);

/** Creator slug → the id of our source that lists the same site's assets. */
export const COVERED: Record<string, string> = {
  ambientcg: "ambientcg",
  polyhaven: "polyhaven",
  sharetextures: "sharetextures",
  "3d-textures": "3dtextures",
  cgbookcase: "cgbookcase",
  texturecan: "texturecan",
  "gpuopen-matlib": "gpuopen",
  "textures-com": "texturescom",
};
/** Its types as ours; a Substance material (`sbsar`) is a procedural material, so a material here. */
export const TYPES: Record<string, AssetType> = { "pbr-material": "material", sbsar: "material", "3d-model": "model", hdri: "hdri", other: "other" };

const Creator = z.looseObject({ slug: z.string().min(1), name: z.string().min(1), licenseUrl: z.string().nullish() });
type Creator = z.infer<typeof Creator>;
const Item = z.looseObject({ id: z.number().int(), title: z.string().trim().min(1), url: z.string().refine(isHttpUrl), creator: z.string() }).extend({
  date: z.string().nullish(),
  type: z.string().nullish(),
  tags: z.array(z.string()).nullish(),
  thumbnail: z.string().nullish(),
});
type Item = z.infer<typeof Item>;

/**
 * A creator's licence from the `licenseUrl` 3Dassets.one gives: a licence the quoted text (`#:~:text=`) names, with
 * that URL; otherwise the page alone, under the creator's name and without flags (an unknown licence is never free).
 */
export function licenseOf(creator: Creator): License | undefined {
  const url = creator.licenseUrl;
  if (!isHttpUrl(url)) return undefined;
  const quoted = url.split("#:~:text=")[1];
  // URLSearchParams decodes the quote without throwing on a malformed escape.
  const named = quoted ? normalizeLicense(new URLSearchParams(`t=${quoted}`).get("t"), url) : undefined;
  return named?.spdx ? named : { name: `${creator.name} licence`, url };
}

function toAsset(item: Item, creator: Creator | undefined) {
  return asset(String(item.id), {
    title: item.title,
    type: TYPES[item.type ?? ""] ?? "other",
    tags: item.tags ?? [],
    url: item.url,
    thumbnailUrl: item.thumbnail,
    author: creator?.name,
    license: creator && licenseOf(creator),
    // The site lists free assets only (some behind a free account); the files are on the creator's page.
    price: { free: true },
    downloadable: false,
    createdAt: isoTime(item.date),
  });
}

/** `q=` with the query's words as the site stores tags (lower-case letters and digits), or nothing; it wants every one. */
function tagsOf(q: string): string {
  const words = q.toLowerCase().split(/[\s,]+/); // the site splits `q` at spaces and commas
  const tags = words.map((w) => w.normalize("NFKD").replace(/[^a-z0-9]/g, "")).filter(Boolean);
  return tags.length ? `q=${tags.join(",")}&` : "";
}
/** Relevance has no upstream form (tags match or not): the site's own default, most popular first. */
const sortOf = (sort: Sort) => (sort === "newest" ? "latest" : "popular");
const typesOf = (types: readonly AssetType[]) => Object.keys(TYPES).filter((slug) => types.includes(TYPES[slug]!));
const many = (name: string, values: readonly string[]) => values.map((v) => `&${name}[]=${encodeURIComponent(v)}`).join("");

function assetsUrl(query: Pick<SourceQuery, "q" | "offset" | "limit" | "sort" | "types">, creators: readonly string[]): string {
  const limit = Math.min(500, Math.max(1, query.limit)); // the API's largest page
  const paging = `offset=${query.offset}&limit=${limit}&sort=${sortOf(query.sort)}`;
  return `${API}/assets?${tagsOf(query.q)}${paging}${many("creator", creators)}${many("type", typesOf(query.types))}`;
}

async function fetchItems(url: string, io: SourceIo): Promise<Item[]> {
  const body = expectShape(ID, url, z.array(z.unknown()), await io.json(url), `${url} did not answer an array of assets`);
  return parseList(ID, url, Item, body).items;
}
const fetchCreators = async (io: SourceIo) => new Map((await io.get(`${API}/creators`, z.array(Creator))).map((c) => [c.slug, c]));
/** The slugs of `/creators` that no source of ours lists: the only ones asked. */
const uncovered = (creators: Map<string, Creator>) => [...creators.keys()].filter((slug) => !(slug in COVERED));

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  const link = searchUrl(query);
  if (query.types.length && !typesOf(query.types).length) return { assets: [], total: 0, searchUrl: link };
  const creators = await fetchCreators(io);
  const others = uncovered(creators);
  if (!others.length) return { assets: [], total: 0, searchUrl: link }; // no `creator[]` would ask every creator
  const items = await fetchItems(assetsUrl(query, others), io);
  return { assets: items.filter((i) => others.includes(i.creator)).map((i) => toAsset(i, creators.get(i.creator))), searchUrl: link };
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!/^[1-9]\d{0,9}$/.test(nativeId)) return null;
  const [creators, items] = await Promise.all([fetchCreators(io), fetchItems(`${API}/assets?id[]=${nativeId}`, io)]);
  const item = items.find((i) => String(i.id) === nativeId);
  return item ? { ...toAsset(item, creators.get(item.creator)), files: [] } : null;
}

/** The API's largest page (its code caps `limit` at 500), and the most pages a census asks: 50,000 assets. */
const CENSUS_PAGE = 500;
const CENSUS_PAGES = 100;
const nonEmpty = (counts: Record<string, number>) => (Object.keys(counts).length ? counts : undefined);

/**
 * What the search can show, counted: every asset of the uncovered creators, newest first, page by page until a page
 * shorter than the limit; a last page still full at the cap makes the count a lower bound.
 */
async function census(io: SourceIo): Promise<CensusBody> {
  const creators = await fetchCreators(io);
  const others = uncovered(creators);
  const found = new Map<number, Item>(); // by id: an asset added while paging pushes one already seen onto the next page
  let full = others.length > 0; // no `creator[]` would count every creator
  for (let page = 0; full && page < CENSUS_PAGES; page++) {
    const window = { q: "", offset: page * CENSUS_PAGE, limit: CENSUS_PAGE, sort: "newest" as const, types: [] };
    const items = await fetchItems(assetsUrl(window, others), io);
    for (const item of items) if (others.includes(item.creator)) found.set(item.id, item);
    full = items.length === CENSUS_PAGE;
  }
  const assets = [...found.values()].map((i) => toAsset(i, creators.get(i.creator)));
  const now = io.now();
  const newest = latest(assets, (a) => Date.parse(a.createdAt ?? ""), now);
  return compact({
    total: assets.length,
    atLeast: full || undefined,
    free: assets.length,
    byType: countBy(assets, (a) => a.type),
    byLicense: nonEmpty(countBy(assets, (a) => a.license?.spdx)),
    categories: nonEmpty(countBy(assets, (a) => a.author)),
    addedLast30Days: addedLast30Days(
      now,
      assets.map((a) => a.createdAt),
    ),
    highlights: newest && [{ label: "Newest asset", title: newest.title, url: newest.url }],
    method:
      `3Dassets.one API v2 (it publishes no count): every asset of /api/v2/assets?offset=<n>&limit=${CENSUS_PAGE}&sort=latest with one creator[] for each of the ${others.length} creators of /api/v2/creators no source of ours lists (${others.join(", ")}), ` +
      `n = 0, ${CENSUS_PAGE}, … until a page shorter than ${CENSUS_PAGE} (at most ${CENSUS_PAGES} pages${full ? ": the last was still full, so this is a lower bound" : ""}), counted once per id; ` +
      "all free; categories are the creators; licences only where the creator's licence has an SPDX id; dates from `date`",
  });
}

/** The site's page reads `q`, `sort` and `type[]` from its address into its search form, which it then runs. */
const searchUrl = (query: SourceQuery) => `${SITE}/?${tagsOf(query.q)}sort=${sortOf(query.sort)}${many("type", typesOf(query.types))}`;

export const threeDAssetsOne = defineSource(
  {
    id: ID,
    name: "3Dassets.one",
    homepage: SITE,
    description: "Best for free PBR materials, HDRIs and models from smaller sites (CGMood, PBRPX, NoEmotion HDRs, Twinbru …) in one search.",
    assetTypes: ["material", "model", "hdri", "other"],
    access: "api",
    pricing: "free",
    supportsDownload: false,
    unit: "assets",
    // Results carry the creator's licence (a known one for some creators), the creator as author and a date; no formats or counts.
    filtering: { upstream: ["newest", "popular"], listed: [...LICENSE_TERMS, "author", "newest"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
