/**
 * ShareTextures (https://www.sharetextures.com): CC0 PBR textures, atlases and scanned models. Live: searched by tag
 * (the query as a tag slug: `brick wall` → `brick-wall`) through the JSON API behind the site (api2.sharetextures.com).
 * Its terms forbid automated downloads: assets are never `downloadable` and list no files; people download on the asset page.
 */

import { z } from "zod";
import { licenseById, normalizeLicense } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetType, assetMaker } from "./kit/asset.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { LICENSE_TERMS, type Sort } from "./kit/filters.ts";
import { parseList } from "./kit/list.ts";
import { windowPages } from "./kit/page-window.ts";
import { cc0Site, keepAsked, kResolution, sortResolutions, typeFilter } from "./kit/texture-sites.ts";

const ID = "sharetextures";
const SITE = "https://www.sharetextures.com";
const DESCRIPTION = "Best for CC0 PBR textures and atlases found by tag; download on the site (its terms forbid automated downloads).";
const API = "https://api2.sharetextures.com/api/v0/for-frontend";
const asset = assetMaker(ID);
/** ShareTextures' item types (`itemType.slug`) and ours. */
const TYPES: Record<string, AssetType> = { textures: "texture", atlases: "texture", models: "model", products: "pack" };

const str = z.string().nullish();
const Ref = z.looseObject({ name: z.string().optional(), slug: z.string() });
const Item = z
  .looseObject({ title: z.string().min(1), slug: z.string().min(1), itemType: Ref.nullish(), category: Ref.nullish(), tagDetails: z.array(Ref).nullish() })
  .extend({ publishDate: str, downloadCount: z.number().nullish(), isEarlyAccess: z.boolean().nullish() })
  .extend({ previewImage1: z.looseObject({ originalObjectKey: str, thumbObjectKey: str }).nullish() });
const Name = z.looseObject({ firstName: str, lastName: str });
const Detail = Item.extend({ description: str, metaDescription: str, text1Licence: str })
  .extend({ tags: z.array(z.looseObject({ text: z.string().optional(), slug: z.string() })).nullish() })
  .extend({ authors: z.array(z.looseObject({ author: z.looseObject({ name: Name.nullish(), username: str }).nullish() })).nullish() })
  .extend({ downloadLinks: z.array(z.looseObject({ title: str, value: str })).nullish() });
const Facets = z.looseObject({ tags: z.array(z.looseObject({ slug: z.string().nullish() })).nullish() });
const Pagination = z.looseObject({ totalCount: z.number().optional() });
const Data = z.looseObject({ items: z.array(z.unknown()), pagination: Pagination.nullish(), facets: Facets.nullish() });
/** `success: false` is a failed answer. */
const Listing = z.looseObject({ success: z.boolean().optional(), data: Data }).refine((l) => l.success !== false);

/** The query as ShareTextures' tag slug: lower case, words joined by "-". */
export const tagOf = (q: string) => (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join("-");
/** The listing's `sortBy`: `most_recent` (newest first) on sort=newest, else `most_download` (values real clients of this API send). */
const sortBy = (sort: Sort) => (sort === "newest" ? "most_recent" : "most_download");
export const itemsUrl = (tag: string, page: number, perPage: number, sort: Sort = "relevance") =>
  `${API}/items?${tag ? `tag=${encodeURIComponent(tag)}&` : ""}sortBy=${sortBy(sort)}&page=${page}&perPage=${perPage}`;
const pageUrl = (item: z.infer<typeof Item>) =>
  `${SITE}/${[item.itemType?.slug ?? "textures", item.category?.slug || [], item.slug].flat().map(encodeURIComponent).join("/")}`;

function toAsset(item: z.infer<typeof Item>, detail?: z.infer<typeof Detail>): Asset {
  const typeSlug = item.itemType?.slug ?? "";
  const image = item.previewImage1?.thumbObjectKey || item.previewImage1?.originalObjectKey;
  const authors = detail?.authors?.map(({ author: a }) => [a?.name?.firstName, a?.name?.lastName].filter(Boolean).join(" ").trim() || a?.username);
  const links = (detail?.downloadLinks ?? []).filter((l) => l.value);
  return asset(item.slug, {
    title: item.title,
    description: detail?.description?.trim() || detail?.metaDescription?.trim(),
    type: TYPES[typeSlug] ?? "other",
    tags: [...new Set(detail?.tags?.length ? detail.tags.map((t) => t.text ?? t.slug) : (item.tagDetails ?? []).map((t) => t.name ?? t.slug))],
    categories: item.category?.name ? [item.category.name] : undefined,
    url: pageUrl(item),
    thumbnailUrl: image && `https://images.sharetextures.com/${image.split("/").map(encodeURIComponent).join("/")}`,
    author: authors?.filter(Boolean).join(", "),
    license: (detail?.text1Licence && normalizeLicense(detail.text1Licence)) || licenseById("CC0-1.0"),
    // Early-access items are for Patreon supporters until released; "products" are the paid shop.
    price: { free: !item.isEarlyAccess && typeSlug !== "products" },
    formats: links.some((l) => /\.zip(\?|$)/i.test(l.value ?? "")) ? ["zip"] : undefined,
    resolutions: sortResolutions(links.flatMap((l) => kResolution(l.title ?? "") ?? [])),
    downloadable: false,
    createdAt: item.publishDate,
    downloads: item.downloadCount ?? undefined,
  });
}

async function listing(url: string, io: SourceIo) {
  const { data } = expectShape(ID, url, Listing, await io.json(url), "listing JSON has no data.items array");
  return { ...data, items: parseList(ID, url, Item, data.items).items };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  const link = searchUrl(query);
  if (!["texture", "material", "model", "pack", "other"].some(typeFilter(query.types))) return { assets: [], total: 0, searchUrl: link }; // none of its types asked
  const tag = tagOf(query.q);
  const { answers, items } = await windowPages(query, query.limit, io, (page) => listing(itemsUrl(tag, page, query.limit, query.sort), io));
  const first = answers[0]!;
  // An unknown tag is not applied upstream: the answer is then the unfiltered listing, whose facets lack the tag.
  if (tag && first.facets?.tags && !first.facets.tags.some((t) => t.slug === tag)) return { assets: [], total: 0, searchUrl: link };
  const assets = items.map((item) => toAsset(item));
  return { ...keepAsked(assets, query, first.pagination?.totalCount), searchUrl: link };
}

async function getAsset(slug: string, io: SourceIo): Promise<AssetDetails | null> {
  const url = `${API}/item/${encodeURIComponent(slug)}`;
  const body = await unlessGone(io.json<{ success?: unknown; data?: unknown } | null>(url));
  if (body !== undefined && (!body || typeof body !== "object" || !("data" in body))) throw shapeError(ID, url, "item JSON has no data");
  if (!body || body.data === null || body.success === false) return null;
  const detail = expectShape(ID, url, Detail, body.data, "item JSON has an unexpected shape");
  return { ...toAsset(detail, detail), files: [] };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const url = itemsUrl("", 1, 3); // the three most downloaded items become highlights
  const { items, pagination } = await listing(url, io);
  const total = pagination?.totalCount;
  if (total === undefined) throw shapeError(ID, url, "listing has no pagination.totalCount");
  return {
    total,
    free: total,
    highlights: items
      .filter((i) => typeof i.downloadCount === "number")
      .map((i) => ({ label: "Most downloaded", title: i.title, url: pageUrl(i), value: Math.round(i.downloadCount ?? 0) })),
    method:
      "ShareTextures API: pagination.totalCount of the whole listing sorted by downloads (one request); not split by type, " +
      "every item counted as free CC0 (early-access items become free on release)",
  };
}

/** The site's tag page for the query, or the texture list. */
const searchUrl = ({ q }: SourceQuery) => (tagOf(q) ? `${SITE}/tag/${encodeURIComponent(tagOf(q))}` : `${SITE}/textures`);

export const sharetextures = defineSource(
  {
    ...cc0Site(ID, "ShareTextures", SITE),
    description: DESCRIPTION,
    assetTypes: ["texture", "model"],
    access: "api",
    supportsDownload: false,
    // Listings carry the CC0 licence, the category, the publish date and the download count; authors, formats and resolutions are only in the detail.
    filtering: { upstream: ["newest", "popular"], listed: [...LICENSE_TERMS, "category", "newest", "popular"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
