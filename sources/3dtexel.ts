/**
 * 3DTexel (https://3dtexel.com): a WooCommerce shop with free libraries of handmade CC0 PBR materials, HDRIs, decals, IES
 * profiles, 3D models … (and road signs under its own licence at 0 credits) and paid libraries of AI-generated assets bought
 * with credits, searched live through its public JSON API (no key). Every download, even of a CC0 asset, needs an account.
 */
import { z } from "zod";
import { licenseKey, normalizeLicense } from "../core/model/license.ts";
import { type AssetDetails, type AssetType, assetMaker, compact, type License } from "./kit/asset.ts";
import { countBy, highest, sum } from "./kit/census.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { LICENSE_TERMS } from "./kit/filters.ts";
import { htmlText } from "./kit/html.ts";
import { collectWindow } from "./kit/page-window.ts";
import { isHttpUrl } from "./kit/url.ts";

const ID = "3dtexel";
const SITE = "https://3dtexel.com";
const PUBLIC_API = `${SITE}/wp-json/3dtexel/v1/public`;
const PRODUCTS_API = `${SITE}/wp-json/wp/v2/product`;
const asset = assetMaker(ID);
/** The page size the search is asked for (the one of every recorded search). */
const PAGE_SIZE = 50;

// Our types → the site's libraries of each (as `/types` lists them). PBR sets with material settings are materials;
// decals, atlases, heightmaps and backdrops are textures.
const LIBRARIES: Partial<Record<AssetType, string[]>> = {
  material: ["pbr", "ai-pbr"],
  texture: ["decal", "atlas", "landscape", "ai-decal", "ai-atlas", "ai-heightmap", "ai-backdrop"],
  hdri: ["hdri", "ai-hdri"],
  model: ["3d", "premium-3d", "ai-3d"],
  other: ["ies", "ai-motion", "alpha-brush", "ai-ies"],
};
/** The libraries whose downloads cost credits. */
const PAID = new Set(["ai-pbr", "ai-decal", "ai-atlas", "ai-hdri", "ai-heightmap", "ai-backdrop", "ai-motion", "ai-3d", "alpha-brush", "ai-ies"]);
const TYPES = Object.keys(LIBRARIES) as AssetType[];
const typeOfLibrary = (library: string) => TYPES.find((t) => LIBRARIES[t]?.includes(library)) ?? "other";

const [str, num] = [z.string().optional(), z.number().optional()];
const Count = z.number().int().min(0);
const Item = z
  .looseObject({ id: z.number(), title: z.string().min(1), type: z.string(), source: str, url: z.string(), thumbnail: str, license: str })
  .extend({ price: z.looseObject({ free: z.boolean().optional(), credits: num }).optional(), resolutions: z.array(z.string()).optional() });
type Item = z.infer<typeof Item>;
const SearchBody = z.looseObject({ total: z.number().optional(), items: z.array(Item) });
const Library = z.looseObject({ type: z.string().min(1), label: str, count: Count, library_url: str, license: str, download_price_credits: num });
type Library = z.infer<typeof Library>;
const Product = z.looseObject({ id: z.number(), slug: z.string(), title: z.looseObject({ rendered: z.string() }) });

/** `https://3dtexel.com/product/<slug>/` → `<slug>`. */
const slugOf = (url: string) => /^https?:\/\/(?:www\.)?3dtexel\.com\/product\/([^/?#]+)\/?$/.exec(url)?.[1];

function toAsset(item: Item) {
  const slug = slugOf(item.url);
  if (!slug) throw shapeError(ID, item.url, `item ${item.id}'s url ${item.url} is no /product/<slug>/`);
  return asset(slug, {
    title: item.title,
    type: typeOfLibrary(item.type),
    tags: item.source === "ai" ? ["ai-generated"] : [],
    url: item.url,
    thumbnailUrl: item.thumbnail,
    license: normalizeLicense(item.license),
    // Free when the API says so, or when it costs 0 credits (the road signs under the site's licence).
    price: item.price && { free: item.price.free === true || item.price.credits === 0 },
    resolutions: item.resolutions,
    // Downloads need an account on the site, even for CC0 assets.
    downloadable: false,
  });
}

export function searchApiUrl(q: string, options: { type?: string; free?: boolean; page: number }): string {
  const type = options.type ? `&type=${encodeURIComponent(options.type)}` : "";
  return `${PUBLIC_API}/search?q=${encodeURIComponent(q.trim())}${type}${options.free ? "&free=1" : ""}&page=${options.page}&per_page=${PAGE_SIZE}`;
}

const fetchSearch = async (url: string, io: SourceIo) =>
  expectShape(ID, url, SearchBody, await io.json(url), `search JSON of ${url} has no items array (of items with an id, title, type and url)`);

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  // One library asked → the API's `type` filter (a single free library needs no `free=1`; a single paid one is never asked
  // for a free query); several → no filter (with `free=1` for free queries) and the items are filtered here.
  const types = query.types.length ? new Set(query.types) : TYPES;
  const libraries = [...types].flatMap((t) => LIBRARIES[t] ?? []).filter((name) => !(query.free && PAID.has(name)));
  // Nothing is downloadable without an account; a type filter may leave no library.
  if (query.downloadable || libraries.length === 0) return { assets: [], total: 0 };
  const single = (query.types.length || query.free) && libraries.length === 1 ? libraries[0] : undefined;
  const page = (n: number) => fetchSearch(searchApiUrl(query.q, { type: single, free: !single && query.free, page: n }), io);
  const { items, ...total } = await collectWindow(query, PAGE_SIZE, io, page);
  // Several libraries: filtered here (the paging is the API's, so a page may hold fewer than `limit`); the total is not theirs.
  const filtering = !single && query.types.length > 0;
  const assets = items.map(toAsset).filter((a) => !filtering || query.types.includes(a.type));
  return { assets, ...(filtering ? {} : total), searchUrl: searchUrl(query) };
}

const groupOf = (type: AssetType) => (type === "material" || type === "texture" ? "textures" : type === "hdri" ? "hdri" : "archive");

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!/^[a-z0-9][a-z0-9_-]*$/i.test(nativeId)) return null;
  const productUrl = `${PRODUCTS_API}?slug=${encodeURIComponent(nativeId)}&_fields=id,slug,title`;
  const body = await unlessGone(io.json(productUrl));
  if (body === undefined) return null;
  const products = expectShape(ID, productUrl, z.array(Product), body, `${productUrl} is not an array of products with id, slug and title`);
  const product = products.find((p) => p.slug === nativeId);
  if (!product) return null;
  // The public API has no detail route: the product is found again by searching its title and matching its id.
  const url = searchApiUrl(htmlText(product.title.rendered), { page: 1 });
  const { items } = await fetchSearch(url, io);
  const item = items.find((i) => i.id === product.id) ?? items.find((i) => slugOf(i.url) === nativeId);
  // A product the public library search does not list (not an asset of the library).
  if (!item) return null;
  const asset = toAsset(item);
  return { ...asset, files: [{ url: asset.url, filename: nativeId, format: "page", group: groupOf(asset.type), requiresAuth: true }] };
}

const nonEmpty = (counts: Record<string, number>) => (Object.keys(counts).length ? counts : undefined);
const keyOf = (license: License | undefined) => license && licenseKey(license);

/** Two requests: every library's count (free and paid), and the PBR library's categories. */
async function census(io: SourceIo): Promise<CensusBody> {
  const typesUrl = `${PUBLIC_API}/types`;
  const categoriesUrl = `${PUBLIC_API}/categories?type=pbr`;
  const [typesBody, categoriesBody] = await Promise.all([io.json(typesUrl), io.json(categoriesUrl)]);
  const libs = expectShape(ID, typesUrl, z.array(Library).min(1), typesBody, `${typesUrl} is not a list of libraries with counts`);
  const Categories = z.array(z.looseObject({ name: z.string().min(1), count: Count }));
  const categories = expectShape(ID, categoriesUrl, Categories, categoriesBody, `${categoriesUrl} is not a list of categories with counts`);
  const count = (l: Library) => l.count;
  const isFree = (l: Library) => l.download_price_credits === 0;
  const isPaid = (l: Library) => (l.download_price_credits ?? 0) > 0;
  const highlight = (label: string, pick: Library[], top = highest(pick, count)) =>
    top && isHttpUrl(top.library_url) ? [{ label, title: top.label ?? top.type, url: top.library_url, value: top.count }] : [];
  return compact({
    total: sum(libs, count),
    free: sum(libs.filter(isFree), count),
    byType: countBy(libs, (l) => typeOfLibrary(l.type), count),
    byLicense: nonEmpty(countBy(libs, (l) => keyOf(normalizeLicense(l.license)), count)),
    categories: nonEmpty(Object.fromEntries(categories.map((c) => [c.name, c.count]))),
    highlights: [...highlight("Largest free library", libs.filter(isFree)), ...highlight("Largest paid library", libs.filter(isPaid))],
    method:
      "3DTexel public API: the `count` of every library in /wp-json/3dtexel/v1/public/types (free = libraries at 0 credits; licences as each library states them); categories are the PBR library's (/categories?type=pbr)",
  });
}

/** WordPress' product search on the site. */
const searchUrl = (query: SourceQuery) => `${SITE}/?s=${encodeURIComponent(query.q.trim())}&post_type=product`;

export const threeDTexel = defineSource(
  {
    id: ID,
    name: "3DTexel",
    homepage: SITE,
    description:
      "Best for free handmade CC0 PBR materials, decals, HDRIs and IES profiles (downloads need a free account); also AI-generated assets sold for credits.",
    assetTypes: TYPES,
    access: "api",
    pricing: "freemium",
    supportsDownload: false,
    unit: "assets",
    // Listings carry the licence and, for PBR sets, resolutions; `updated` is a modification date, not a release date.
    filtering: { upstream: [], listed: [...LICENSE_TERMS, "resolution"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
