/**
 * Sketchfab (https://sketchfab.com): the largest library of 3D models. Live: searched through the
 * public Data API v3, restricted to downloadable CC0 models (the only ones free of attribution and
 * purchase). Downloads need the person's own Sketchfab login (the API's download endpoint wants an
 * OAuth/user token), so no asset is `downloadable` and the only file listed is a `requiresAuth`
 * link to the model's page: never a made-up file URL.
 *
 * Upstream shapes used here:
 * - `/v3/search?type=models&q=…&license=cc0&downloadable=true&count=N[&cursor=offset]` →
 *   `{ results: Model[], next, cursors: { next } }` (no total); each result carries `archives`
 *   (`{ glb|gltf|usdz|source: { size, textureMaxResolution } }`).
 * - `/v3/models/<uid>` → one Model, with full category objects and the licence's URL.
 * - `/v3/categories` → `{ results: [{ slug, name }] }`: search results name their categories by
 *   slug only (`animals-pets`), details by name (`Animals & Pets`); the list maps one to the other.
 */
import { z } from "zod";
import { fetchJson, unlessGone } from "./kit/fetch.ts";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, SourceCensus } from "../core/schemas/index.ts";
import { licenseById, normalizeLicense } from "../core/license.ts";
import { UpstreamError } from "../core/http/types.ts";

const API = "https://api.sketchfab.com/v3";
const SITE = "https://sketchfab.com";
const ID = "sketchfab";
const NAME = "Sketchfab";
const KEY_ENV = "SKETCHFAB_API_TOKEN";
/** The search API answers at most 24 models per request. */
const MAX_COUNT = 24;
/** Sketchfab's id of the CC0 licence (its site search filters by licence uid). */
const CC0_LICENSE_UID = "7c23a1ba438d4306920229c12afcb5f9";
/** Archive types Sketchfab converts downloadable models to, as our formats (`source` is the upload: unknown). */
const ARCHIVE_FORMATS: Record<string, string> = { gltf: "gltf", glb: "glb", usdz: "usdz" };
/** Thumbnails: the smallest image at least this wide, else the largest. */
const THUMB_MIN_WIDTH = 400;

const Image = z.looseObject({ url: z.string(), width: z.number().nullish() });
const Model = z.looseObject({
  uid: z.string().regex(/^[0-9a-f]{32}$/i),
  name: z.string(),
  viewerUrl: z.string().nullish(),
  description: z.string().nullish(),
  tags: z.array(z.looseObject({ name: z.string() })).nullish(),
  categories: z.array(z.looseObject({ name: z.string(), slug: z.string().nullish() })).nullish(),
  thumbnails: z.looseObject({ images: z.array(Image) }).nullish(),
  user: z.looseObject({ username: z.string().nullish(), displayName: z.string().nullish() }).nullish(),
  license: z
    .looseObject({ label: z.string().nullish(), slug: z.string().nullish(), url: z.string().nullish() })
    .nullish(),
  isDownloadable: z.boolean().nullish(),
  faceCount: z.number().nullish(),
  animationCount: z.number().nullish(),
  publishedAt: z.string().nullish(),
  createdAt: z.string().nullish(),
  price: z.number().nullish(),
  likeCount: z.number().nullish(),
  archives: z.record(z.string(), z.looseObject({ size: z.number().nullish() }).nullish()).nullish(),
});
type Model = z.infer<typeof Model>;

const SearchPage = z.looseObject({
  results: z.array(z.unknown()),
  next: z.string().nullish(),
  /** Not in any recorded answer; read in case the API adds a total. */
  totalCount: z.number().optional(),
});

const Categories = z.looseObject({ results: z.array(z.looseObject({ slug: z.string(), name: z.string() })) });

/**
 * The model's page. Search results name every page `/3d-models/none-<uid>` (no slug); the site reads
 * only the trailing uid, so those become `/3d-models/<uid>`. Details carry the real slug.
 */
const modelPage = (m: Pick<Model, "uid" | "viewerUrl">) =>
  m.viewerUrl?.startsWith(`${SITE}/3d-models/`) && !m.viewerUrl.startsWith(`${SITE}/3d-models/none-`)
    ? m.viewerUrl
    : `${SITE}/3d-models/${m.uid}`;

function headers(ctx: SourceContext): Record<string, string> {
  const token = ctx.config.keys[KEY_ENV];
  return token ? { authorization: `Token ${token}` } : {};
}


/** The Data API's own timestamps have no zone; they are UTC. */
function isoTime(raw: string | null | undefined): string | undefined {
  if (!raw) return undefined;
  const date = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(raw) ? raw : `${raw}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

function thumbnail(m: Model): string | undefined {
  const images = [...(m.thumbnails?.images ?? [])].sort((a, b) => (a.width ?? 0) - (b.width ?? 0));
  return (images.find((i) => (i.width ?? 0) >= THUMB_MIN_WIDTH) ?? images.at(-1))?.url;
}

function license(m: Model) {
  const name = m.license?.label ?? m.license?.slug ?? undefined;
  const known = normalizeLicense(name);
  // A known licence keeps its canonical URL; an unknown one keeps Sketchfab's.
  return known?.spdx || !m.license?.url ? known : normalizeLicense(name, m.license.url);
}

function toAsset(m: Model, categoryNames: Map<string, string>): Asset {
  const formats = Object.keys(m.archives ?? {}).flatMap((k) => (ARCHIVE_FORMATS[k] ? [ARCHIVE_FORMATS[k]] : []));
  const lic = license(m);
  const author = m.user?.displayName || m.user?.username;
  const thumb = thumbnail(m);
  const created = isoTime(m.publishedAt ?? m.createdAt);
  const description = m.description?.trim();
  return {
    id: `${ID}:${m.uid}`,
    provider: ID,
    nativeId: m.uid,
    title: m.name,
    ...(description ? { description } : {}),
    type: "model",
    tags: (m.tags ?? []).map((t) => t.name),
    categories: (m.categories ?? []).map((c) => categoryNames.get(c.name) ?? c.name),
    url: modelPage(m),
    ...(thumb ? { thumbnailUrl: thumb } : {}),
    ...(author ? { author } : {}),
    ...(lic ? { license: lic } : {}),
    price: { free: !m.price },
    ...(formats.length ? { formats } : {}),
    ...(typeof m.faceCount === "number" ? { polyCount: Math.round(m.faceCount) } : {}),
    ...(typeof m.animationCount === "number" ? { animated: m.animationCount > 0 } : {}),
    // Files need the person's Sketchfab login: never fetched by this server.
    downloadable: false,
    ...(created ? { createdAt: created } : {}),
  };
}

/** Parses a search page; items of an unexpected shape are dropped, a page of nothing but those is an error. */
function parseSearch(body: unknown, url: string): { models: Model[]; next: boolean; total?: number } {
  const page = SearchPage.safeParse(body);
  if (!page.success) throw new UpstreamError(`${ID}: search answer has no results array`, url, "parse");
  const models = page.data.results.flatMap((r) => {
    const parsed = Model.safeParse(r);
    return parsed.success ? [parsed.data] : [];
  });
  if (page.data.results.length && !models.length) {
    throw new UpstreamError(`${ID}: no search result has the expected model shape`, url, "parse");
  }
  return { models, next: Boolean(page.data.next), ...(page.data.totalCount !== undefined ? { total: page.data.totalCount } : {}) };
}

/** Category slug → name; an empty map when the list cannot be had (search still answers, with slugs). */
async function categoryNames(ctx: SourceContext): Promise<Map<string, string>> {
  try {
    const body = Categories.parse(await fetchJson(ID, `${API}/categories`, ctx, headers(ctx)));
    return new Map(body.results.map((c) => [c.slug, c.name]));
  } catch {
    return new Map();
  }
}

/** The Data API search for downloadable CC0 models; `cursor` is the offset. */
export function searchApiUrl(q: string, count: number, offset: number, sortBy?: string): string {
  const params = new URLSearchParams({ type: "models" });
  if (q.trim()) params.set("q", q.trim());
  params.set("license", "cc0");
  params.set("downloadable", "true");
  if (sortBy) params.set("sort_by", sortBy);
  params.set("count", String(count));
  if (offset > 0) params.set("cursor", String(offset));
  return `${API}/search?${params}`;
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  // Only models, and none of them downloadable by this server.
  if ((query.types.length && !query.types.includes("model")) || query.downloadable) return { assets: [] };
  const url = searchApiUrl(query.q, Math.min(query.limit, MAX_COUNT), query.offset);
  const [names, body] = await Promise.all([categoryNames(ctx), fetchJson(ID, url, ctx, headers(ctx))]);
  const { models, total } = parseSearch(body, url);
  return {
    assets: models.slice(0, query.limit).map((m) => toAsset(m, names)),
    ...(total !== undefined ? { total } : {}),
    searchUrl: searchUrl(query),
  };
}

async function getAsset(uid: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!/^[0-9a-f]{32}$/i.test(uid)) return null;
  const url = `${API}/models/${uid}`;
  const body = await unlessGone(fetchJson(ID, url, ctx, headers(ctx)));
  if (body === undefined) return null;
  const parsed = Model.safeParse(body);
  if (!parsed.success) throw new UpstreamError(`${ID}: model ${uid} has an unexpected shape`, url, "parse");
  const m = parsed.data;
  // Details carry full category objects (name + slug): no need for the category list.
  const asset = toAsset(m, new Map());
  const files: AssetFile[] = [];
  if (m.isDownloadable) {
    const size = m.archives?.gltf?.size;
    files.push({
      url: asset.url,
      filename: `${m.uid}-gltf.zip`,
      format: "gltf",
      ...(typeof size === "number" ? { sizeBytes: Math.round(size) } : {}),
      group: "gltf",
      requiresAuth: true,
    });
  }
  return { ...asset, files };
}

/**
 * One page of the most liked downloadable CC0 models. The Data API publishes no total for a search,
 * so the count is a lower bound unless an answer carries `totalCount`.
 */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const url = searchApiUrl("", MAX_COUNT, 0, "-likeCount");
  const { models, next, total } = parseSearch(await fetchJson(ID, url, ctx, headers(ctx)), url);
  const count = total ?? models.length;
  const atLeast = total === undefined && next;
  const top = [...models].sort((a, b) => (b.likeCount ?? 0) - (a.likeCount ?? 0))[0];
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: count,
    ...(atLeast ? { atLeast: true } : {}),
    free: count,
    byType: { model: count },
    byLicense: { "CC0-1.0": count },
    unit: "assets",
    ...(top
      ? { highlights: [{ label: "Most liked CC0 model", title: top.name, url: modelPage(top), ...(typeof top.likeCount === "number" ? { value: Math.round(top.likeCount) } : {}) }] }
      : {}),
    method:
      total !== undefined
        ? "Sketchfab Data API v3 search for downloadable CC0 models: the answer's totalCount"
        : "Sketchfab Data API v3 search for downloadable CC0 models publishes no total: the first page (most liked) was counted, a lower bound",
    countedAt: ctx.now().toISOString(),
  };
}

/** The site's search for people, with the same filters (downloadable, CC0, models). */
function searchUrl(query: SourceQuery): string {
  const params = new URLSearchParams({ features: "downloadable", licenses: CC0_LICENSE_UID });
  if (query.q.trim()) params.set("q", query.q.trim());
  params.set("type", "models");
  return `${SITE}/search?${params}`;
}

export const sketchfab: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for the widest choice of 3D models: downloadable CC0 models, searched live (downloads need a Sketchfab login).",
  assetTypes: ["model"],
  access: "api",
  pricing: "free",
  license: licenseById("CC0-1.0"),
  supportsDownload: false,
  mode: "live",
  key: { env: KEY_ENV, required: false },
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
