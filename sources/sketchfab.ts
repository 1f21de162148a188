/**
 * Sketchfab (https://sketchfab.com): the largest library of 3D models. Live: searched through the public Data API v3, restricted to downloadable CC0 models
 * (the only ones free of attribution and purchase). Downloads need the person's own Sketchfab login (the API's download endpoint wants an OAuth/user token), so
 * no asset is `downloadable` and the only file listed is a `requiresAuth` link to the model's page: never a made-up file URL.
 */
import { z } from "zod";
import { licenseById, licenseFamily, normalizeLicense } from "../core/model/license.ts";
import { fold } from "../core/text/words.ts";
import { type Asset, type AssetDetails, assetMaker, compact, round } from "./kit/asset.ts";
import { highest } from "./kit/census.ts";
import { isoTime } from "./kit/dates.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, type SourceIo, unlessGone } from "./kit/fetch.ts";
import { LICENSE_TERMS, mapOne, type SearchFilters, type Sort } from "./kit/filters.ts";
import { parseList } from "./kit/list.ts";

const API = "https://api.sketchfab.com/v3";
const SITE = "https://sketchfab.com";
const ID = "sketchfab";
const KEY_ENV = "SKETCHFAB_API_TOKEN";
const asset = assetMaker(ID);
const MAX_COUNT = 24; // models per search request, at most
const CC0_LICENSE_UID = "7c23a1ba438d4306920229c12afcb5f9"; // Sketchfab's id of the CC0 licence (its site search filters by licence uid)
const ARCHIVE_FORMATS = new Set(["gltf", "glb", "usdz"]); // archives Sketchfab converts downloadable models to (`source`, the upload, is of unknown format)
const UID = /^[0-9a-f]{32}$/i;
const [str, num] = [z.string().nullish(), z.number().nullish()];

const Model = z
  .looseObject({ uid: z.string().regex(UID), name: z.string(), viewerUrl: str, description: str, publishedAt: str, createdAt: str, price: num, likeCount: num })
  .extend({ tags: z.array(z.looseObject({ name: z.string() })).nullish(), categories: z.array(z.looseObject({ name: z.string(), slug: str })).nullish() })
  .extend({ thumbnails: z.looseObject({ images: z.array(z.looseObject({ url: z.string(), width: num })) }).nullish(), faceCount: num, animationCount: num })
  .extend({ user: z.looseObject({ username: str, displayName: str }).nullish(), license: z.looseObject({ label: str, slug: str, url: str }).nullish() })
  .extend({ isDownloadable: z.boolean().nullish(), archives: z.record(z.string(), z.looseObject({ size: num }).nullish()).nullish() });
type Model = z.infer<typeof Model>;
/** `totalCount` is in no recorded answer; read in case the API adds a total. */
const SearchPage = z.looseObject({ results: z.array(z.unknown()), next: z.string().nullish(), totalCount: z.number().optional() });
/** Search results name their categories by slug only (`animals-pets`), details by name (`Animals & Pets`): this list maps them. */
const Categories = z.looseObject({ results: z.array(z.looseObject({ slug: z.string(), name: z.string() })) });

/** The model's page. Search results name every page `/3d-models/none-<uid>` (no slug): the site reads only the uid. Details carry the slug. */
const modelPage = (m: Pick<Model, "uid" | "viewerUrl">) =>
  m.viewerUrl?.startsWith(`${SITE}/3d-models/`) && !m.viewerUrl.startsWith(`${SITE}/3d-models/none-`) ? m.viewerUrl : `${SITE}/3d-models/${m.uid}`;

const headers = ({ config }: SourceIo) => (config.keys[KEY_ENV] ? { authorization: `Token ${config.keys[KEY_ENV]}` } : undefined);

/** The Data API's own timestamps have no zone; they are UTC. */
const utcTime = (raw: string | null | undefined) => isoTime(raw && !/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? `${raw}Z` : raw);

/** The smallest image at least 400 wide, else the largest. */
function thumbnail(m: Model): string | undefined {
  const images = [...(m.thumbnails?.images ?? [])].sort((a, b) => (a.width ?? 0) - (b.width ?? 0));
  return (images.find((i) => (i.width ?? 0) >= 400) ?? images.at(-1))?.url;
}

/** A known licence keeps its canonical URL; an unknown one keeps Sketchfab's. */
function license({ license: l }: Model) {
  const known = normalizeLicense(l?.label ?? l?.slug);
  return known?.spdx || !l?.url ? known : normalizeLicense(l.label ?? l.slug, l.url);
}

function toAsset(m: Model, categoryNames: Map<string, string>): Asset {
  return asset(m.uid, {
    title: m.name,
    description: m.description?.trim(),
    type: "model",
    tags: m.tags?.map((t) => t.name),
    categories: m.categories?.map((c) => categoryNames.get(c.name) ?? c.name),
    url: modelPage(m),
    thumbnailUrl: thumbnail(m),
    author: m.user?.displayName || m.user?.username,
    license: license(m),
    price: { free: !m.price },
    formats: Object.keys(m.archives ?? {}).filter((k) => ARCHIVE_FORMATS.has(k)),
    polyCount: round(m.faceCount),
    animated: m.animationCount != null ? m.animationCount > 0 : undefined,
    downloadable: false,
    createdAt: utcTime(m.publishedAt ?? m.createdAt),
  });
}

async function searchPage(url: string, io: SourceIo) {
  const page = await io.get(url, SearchPage, headers(io));
  return { models: parseList(ID, url, Model, page.results).items, next: Boolean(page.next), total: page.totalCount };
}

/** Category slug → name; an empty map when the list cannot be had (search still answers, with slugs). */
async function categoryNames(io: SourceIo): Promise<Map<string, string>> {
  const { results } = await io.get(`${API}/categories`, Categories, headers(io)).catch(() => ({ results: [] }));
  return new Map(results.map((c) => [c.slug, c.name]));
}

/** The Data API search for downloadable CC0 models; `cursor` is the offset; `narrow` holds the filter parameters (after license, before count). */
export function searchApiUrl(q: string, count: number, offset: number, sort?: string, narrow: Record<string, string | undefined> = {}): string {
  const params = { type: "models", q: q.trim(), license: "cc0", downloadable: "true", ...narrow, sort_by: sort, count: `${count}` };
  return `${API}/search?${new URLSearchParams(compact({ ...params, cursor: offset > 0 ? `${offset}` : "" }))}`;
}

/** Every model here is CC0 (commercial use, no attribution): a search asking for anything else has no match. */
const cc0Fits = ({ license, commercial, attribution }: SearchFilters) =>
  (!license || license.some((t) => licenseFamily(t) === "cc0")) && commercial !== false && attribution !== true;

/**
 * The Data API's own filters, as Sketchfab's clients send them: `max_face_count` (at most this many faces), `animated` and `rigged` (true/false),
 * `categories` (a category slug), `available_archive_type` (models with a download archive of this format), `sort_by=-publishedAt` (newest first).
 * The list maps category names to slugs. Likes and views are no downloads: there is no upstream "popular" here.
 */
function narrowing(filters: SearchFilters, sort: Sort, slugs: Map<string, string>) {
  const flag = (b: boolean | undefined) => (b === undefined ? undefined : `${b}`);
  return {
    max_face_count: filters.maxPolys === undefined ? undefined : `${filters.maxPolys}`,
    animated: flag(filters.animated),
    rigged: flag(filters.rigged),
    categories: mapOne(filters.category, (c) => slugs.get(c)),
    available_archive_type: mapOne(filters.format, (f) => (ARCHIVE_FORMATS.has(f) ? f : undefined)),
    sort: sort === "newest" ? "-publishedAt" : undefined,
  };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if ((query.types.length && !query.types.includes("model")) || query.downloadable) return { assets: [] }; // only models, none downloadable here
  if (!cc0Fits(query.filters)) return { assets: [], searchUrl: searchUrl(query) };
  // The category list first when a category is asked: its slugs go in the request.
  const names = query.filters.category?.length ? await categoryNames(io) : undefined;
  const { sort, ...narrow } = narrowing(query.filters, query.sort, new Map([...(names ?? [])].map(([slug, name]) => [fold(name), slug])));
  const url = searchApiUrl(query.q, Math.min(query.limit, MAX_COUNT), query.offset, sort, narrow);
  const [categories, { models, total }] = await Promise.all([names ?? categoryNames(io), searchPage(url, io)]);
  return { assets: models.slice(0, query.limit).map((m) => toAsset(m, categories)), ...compact({ total, searchUrl: searchUrl(query) }) };
}

async function getAsset(uid: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!UID.test(uid)) return null;
  const url = `${API}/models/${uid}`;
  const body = await unlessGone(io.json(url, headers(io)));
  if (body === undefined) return null;
  const m = expectShape(ID, url, Model, body, `model ${uid} has an unexpected shape`);
  const details = toAsset(m, new Map()); // details carry category names: no need for the category list
  const file = compact({ url: details.url, filename: `${m.uid}-gltf.zip`, format: "gltf", sizeBytes: round(m.archives?.gltf?.size), group: "gltf" });
  return { ...details, files: m.isDownloadable ? [{ ...file, requiresAuth: true }] : [] };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const { models, next, total } = await searchPage(searchApiUrl("", MAX_COUNT, 0, "-likeCount"), io);
  const count = total ?? models.length;
  const top = highest(models, (m) => m.likeCount ?? 0);
  const method = total !== undefined ? ": the answer's totalCount" : " publishes no total: the first page (most liked) was counted, a lower bound";
  return compact({
    total: count,
    atLeast: total === undefined && next ? true : undefined,
    free: count,
    highlights: top ? [compact({ label: "Most liked CC0 model", title: top.name, url: modelPage(top), value: round(top.likeCount) })] : [],
    method: `Sketchfab Data API v3 search for downloadable CC0 models${method}`,
  });
}

/** The site's search for people, with the same filters (downloadable, CC0, models). */
const searchUrl = (query: SourceQuery) =>
  `${SITE}/search?${new URLSearchParams(compact({ features: "downloadable", licenses: CC0_LICENSE_UID, q: query.q.trim(), type: "models" }))}`;

export const sketchfab = defineSource(
  {
    id: ID,
    name: "Sketchfab",
    homepage: SITE,
    description: "Best for the widest choice of 3D models: downloadable CC0 models, searched live (downloads need a Sketchfab login).",
    assetTypes: ["model"],
    access: "api",
    pricing: "free",
    license: licenseById("CC0-1.0"),
    supportsDownload: false,
    key: { env: KEY_ENV, required: false },
    unit: "assets",
    // Search results carry no rig flag (only `rigged=` narrows) and no download count (likes are no downloads).
    filtering: {
      upstream: ["license", "maxPolys", "animated", "rigged", "category", "format", "newest"],
      listed: [...LICENSE_TERMS, "author", "category", "format", "maxPolys", "animated", "newest"],
    },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
