/**
 * Thingiverse (https://www.thingiverse.com): the largest library of free 3D-printable models, with a
 * REST API (https://api.thingiverse.com) that needs an app token (THINGIVERSE_TOKEN), sent as
 * `Authorization: Bearer <token>` so it never appears in a URL or an error message.
 * Live: searched through `/search/<term>/?type=things…`; an empty query lists `/newest`.
 *
 * Upstream shapes used here:
 * - `/search/<term>/?type=things&per_page=…&page=…&sort=relevant` → `{ total, hits: [ThingSummary] }`
 *   (older API versions answered a bare array; both are read);
 * - `/newest?per_page=…&page=…` → `[ThingSummary]`: `id, name, public_url, thumbnail, creator{name}`;
 * - `/things/<id>` → the thing: `license` (text such as "Creative Commons - Attribution"),
 *   `description`, `added`, `default_image`, `download_count` …;
 * - `/things/<id>/files` → `[{ id, name, size, download_url, public_url, thumbnail, date }]`;
 * - `/things/<id>/tags` → `[{ name }]`.
 * File downloads go through `download_url`, which needs the token: every file is `requiresAuth`,
 * and nothing is downloadable through this server.
 */
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, License, SourceCensus } from "../core/schemas/index.ts";
import { UpstreamError } from "../core/http/types.ts";
import { licenseById } from "../core/license.ts";
import { collectWindow, pageWindow } from "./kit/page-window.ts";
import { isGone } from "./kit/fetch.ts";

const ID = "thingiverse";
const NAME = "Thingiverse";
const SITE = "https://www.thingiverse.com";
const API = "https://api.thingiverse.com";
const KEY_ENV = "THINGIVERSE_TOKEN";
const PAGE_SIZE = 30;

const Creator = z.looseObject({ name: z.string().optional() });
const Summary = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  public_url: z.string().optional(),
  thumbnail: z.string().nullish(),
  creator: Creator.nullish(),
  is_private: z.union([z.boolean(), z.number()]).optional(),
  is_published: z.union([z.boolean(), z.number()]).optional(),
});
type Summary = z.infer<typeof Summary>;
const Thing = Summary.extend({
  description: z.string().nullish(),
  added: z.string().nullish(),
  license: z.string().nullish(),
  default_image: z.looseObject({ sizes: z.array(z.looseObject({ type: z.string(), size: z.string(), url: z.string() })).optional() }).nullish(),
});
type Thing = z.infer<typeof Thing>;
const FileEntry = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  size: z.number().nullish(),
  download_url: z.string(),
});
const Tag = z.looseObject({ name: z.string() });

function tokenOf(ctx: SourceContext): string {
  const token = ctx.config.keys[KEY_ENV];
  if (!token) throw new Error(`${ID}: ${KEY_ENV} is not set (the Thingiverse API needs an app token)`);
  return token;
}

async function getJson(url: string, ctx: SourceContext): Promise<unknown> {
  return ctx.http.getJson(url, { signal: ctx.signal, headers: { authorization: `Bearer ${tokenOf(ctx)}`, accept: "application/json" } });
}

const pageUrl = (id: number) => `${SITE}/thing:${id}`;

/**
 * Thingiverse's licence names. Thingiverse does not say which Creative Commons version it means,
 * so the flags are set and no SPDX id is claimed (except CC0, which has one version).
 */
const LICENSES: Array<[RegExp, (name: string) => License]> = [
  [/public domain dedication|cc0/i, () => licenseById("CC0-1.0")],
  [/attribution.*non.?commercial.*share.?alike/i, (n) => cc(n, false)],
  [/attribution.*non.?commercial.*no.?deriv/i, (n) => cc(n, false)],
  [/attribution.*non.?commercial/i, (n) => cc(n, false)],
  [/attribution.*share.?alike/i, (n) => cc(n, true)],
  [/attribution.*no.?deriv/i, (n) => cc(n, true)],
  [/creative commons.*attribution/i, (n) => cc(n, true)],
];
const cc = (name: string, commercialUse: boolean): License => ({ name, commercialUse, attributionRequired: true });

export function thingLicense(raw: string | null | undefined): License | undefined {
  const name = raw?.trim();
  if (!name) return undefined;
  for (const [pattern, make] of LICENSES) if (pattern.test(name)) return make(name);
  return { name };
}

function parseList(body: unknown, url: string): { items: Summary[]; total?: number } {
  const list = Array.isArray(body) ? body : body && typeof body === "object" && Array.isArray((body as { hits?: unknown }).hits) ? (body as { hits: unknown[] }).hits : undefined;
  if (!list) throw new UpstreamError(`${ID}: ${url} did not answer a list of things`, url, "parse");
  const total = !Array.isArray(body) ? (body as { total?: unknown }).total : undefined;
  const items = list.map((raw, i) => {
    const parsed = Summary.safeParse(raw);
    if (!parsed.success) throw new UpstreamError(`${ID}: thing #${i} of ${url} has an unexpected shape`, url, "parse");
    return parsed.data;
  });
  return { items, ...(typeof total === "number" ? { total: Math.round(total) } : {}) };
}

function toAsset(t: Summary | Thing, extra: { tags?: string[]; formats?: string[] } = {}): Asset {
  const thing = t as Thing;
  const license = thingLicense(thing.license);
  const large = thing.default_image?.sizes?.find((s) => s.type === "preview" && s.size === "large")?.url;
  // Some summaries carry a model file as "thumbnail" (…/medium_thumb_x.stl): only images are kept.
  const thumb = [large, t.thumbnail].find((u): u is string => typeof u === "string" && /^https?:\/\/.*\.(jpe?g|png|gif|webp)$/i.test(u));
  const description = thing.description?.trim();
  return {
    id: `${ID}:${t.id}`,
    provider: ID,
    nativeId: String(t.id),
    title: t.name,
    ...(description ? { description } : {}),
    type: "model",
    tags: extra.tags ?? [],
    url: t.public_url && /^https?:\/\//.test(t.public_url) ? t.public_url : pageUrl(t.id),
    ...(thumb ? { thumbnailUrl: thumb } : {}),
    ...(t.creator?.name ? { author: t.creator.name } : {}),
    ...(license ? { license } : {}),
    price: { free: true },
    ...(extra.formats?.length ? { formats: extra.formats } : {}),
    downloadable: false,
    ...(thing.added ? { createdAt: thing.added } : {}),
  };
}

const visible = (t: Summary) => t.is_private !== true && t.is_private !== 1 && t.is_published !== false && t.is_published !== 0;

function listUrl(q: string, page: number): string {
  const paging = `per_page=${PAGE_SIZE}&page=${page}`;
  return q
    ? `${API}/search/${encodeURIComponent(q)}/?type=things&${paging}&sort=relevant`
    : `${API}/newest?${paging}`;
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const searchUrl = searchUrlOf(query);
  // Nothing here is downloadable without the user's own Thingiverse access.
  if ((query.types.length && !query.types.includes("model")) || query.downloadable) return { assets: [], searchUrl };
  tokenOf(ctx);
  const q = query.q.trim();
  const window = pageWindow(query.offset, query.limit, PAGE_SIZE);
  const { items, total } = await collectWindow(
    window,
    query.limit,
    PAGE_SIZE,
    async (page) => {
      const url = listUrl(q, page);
      return parseList(await getJson(url, ctx), url);
    },
    ctx.signal,
  );
  return { assets: items.filter(visible).map((t) => toAsset(t)), ...(total !== undefined ? { total } : {}), searchUrl };
}

const extOf = (name: string) => /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "bin";

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!/^\d+$/.test(nativeId)) return null;
  const base = `${API}/things/${nativeId}`;
  const results = await Promise.allSettled([getJson(base, ctx), getJson(`${base}/files`, ctx), getJson(`${base}/tags`, ctx)]);
  const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  if (failures.some(isGone)) return null;
  if (failures.length) throw failures[0];
  const [thingBody, filesBody, tagsBody] = results.map((r) => (r as PromiseFulfilledResult<unknown>).value);
  const thing = Thing.safeParse(thingBody);
  if (!thing.success) throw new UpstreamError(`${ID}: ${base} is not a thing`, base, "parse");
  const fileList = z.array(FileEntry).safeParse(filesBody);
  if (!fileList.success) throw new UpstreamError(`${ID}: ${base}/files is not a list of files`, `${base}/files`, "parse");
  const tagList = z.array(Tag).safeParse(tagsBody);
  if (!tagList.success) throw new UpstreamError(`${ID}: ${base}/tags is not a list of tags`, `${base}/tags`, "parse");
  const files: AssetFile[] = fileList.data
    .filter((f) => /^https?:\/\//.test(f.download_url))
    .map((f) => ({
      url: f.download_url,
      filename: f.name,
      format: extOf(f.name),
      ...(typeof f.size === "number" ? { sizeBytes: Math.round(f.size) } : {}),
      group: extOf(f.name),
      requiresAuth: true,
    }));
  const tags = [...new Set(tagList.data.map((t) => t.name))];
  const formats = [...new Set(files.map((f) => f.format))];
  return { ...toAsset(thing.data, { tags, formats }), files };
}

/** One search over every thing: its `total` counts the public catalogue. */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const url = `${API}/search/?type=things&per_page=1&page=1&sort=newest`;
  const { items, total } = parseList(await getJson(url, ctx), url);
  if (total === undefined) throw new UpstreamError(`${ID}: ${url} answered no total`, url, "parse");
  const newest = items[0];
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    free: total,
    byType: { model: total },
    unit: "assets",
    ...(newest ? { highlights: [{ label: "Newest thing", title: newest.name, url: newest.public_url && /^https?:\/\//.test(newest.public_url) ? newest.public_url : pageUrl(newest.id) }] } : {}),
    method: "Thingiverse API: the total of one empty /search/ for things (every public thing); licences are per thing and not counted",
    countedAt: ctx.now().toISOString(),
  };
}

function searchUrlOf(query: SourceQuery): string {
  const q = query.q.trim();
  return q ? `${SITE}/search?q=${encodeURIComponent(q)}&type=things&sort=relevant` : `${SITE}/newest`;
}

export const thingiverse: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for 3D-printable models (STL, OBJ, 3MF) shared by makers; files need a Thingiverse login to download.",
  assetTypes: ["model"],
  access: "api",
  pricing: "free",
  supportsDownload: false,
  mode: "live",
  key: { env: KEY_ENV, required: true },
  unit: "assets",
  searchUrl: searchUrlOf,
  search,
  getAsset,
  census,
};
