/**
 * Freesound (https://freesound.org): a very large collaborative library of sound effects and
 * samples under Creative Commons licences, with API v2 (https://freesound.org/apiv2/). Every request
 * needs an API key (FREESOUND_API_KEY), sent as `Authorization: Token <key>` (documented by
 * Freesound as equivalent to `&token=<key>`), so the key never appears in a URL or an error message.
 * Live: searched through `/apiv2/search/text/`.
 *
 * Upstream shapes used here:
 * - `/apiv2/search/text/?query=…&fields=…&page_size=…&page=…` → `{ count, next, previous, results }`;
 *   each result has the fields asked (without `fields`, only id, name, tags, license, username);
 * - `/apiv2/sounds/<id>/` → one sound: `url` (its page), `name`, `tags`, `description`, `license`
 *   (a Creative Commons deed URL), `type`, `filesize`, `duration` (s), `username`, `download`
 *   (the original file: needs OAuth2), `previews` (public MP3/OGG previews), `images` (waveforms) …
 */
import { ccLicenseFromUrl } from "../core/license.ts";
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, SourceCensus } from "../core/schemas/index.ts";
import { UpstreamError } from "../core/http/types.ts";
import { collectWindow, pageWindow } from "./kit/page-window.ts";
import { unlessGone } from "./kit/fetch.ts";

const ID = "freesound";
const NAME = "Freesound";
const SITE = "https://freesound.org";
const API = "https://freesound.org/apiv2";
const KEY_ENV = "FREESOUND_API_KEY";
/** The fields a search result needs for an Asset (the API's maximum page size is 150). */
export const SEARCH_FIELDS = "id,name,url,username,license,tags,description,created,duration,type,filesize,previews,images,num_downloads,avg_rating";
/** Page size when the offset is not a multiple of the limit (else one page of exactly `limit`). */
const PAGE_SIZE = 50;
/** Preview keys in the order they are offered: high quality first, MP3 before OGG. */
const PREVIEWS = ["preview-hq-mp3", "preview-hq-ogg", "preview-lq-mp3", "preview-lq-ogg"] as const;

const Sound = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  url: z.string().optional(),
  username: z.string().optional(),
  license: z.string(),
  tags: z.array(z.string()).default([]),
  description: z.string().optional(),
  created: z.string().optional(),
  duration: z.number().optional(),
  type: z.string().optional(),
  filesize: z.number().optional(),
  download: z.string().optional(),
  previews: z.record(z.string(), z.string()).optional(),
  images: z.record(z.string(), z.string()).optional(),
  num_downloads: z.number().optional(),
});
type Sound = z.infer<typeof Sound>;
const SearchPage = z.looseObject({ count: z.number().optional(), results: z.array(z.unknown()) });

function keyOf(ctx: SourceContext): string {
  const key = ctx.config.keys[KEY_ENV];
  if (!key) throw new Error(`${ID}: ${KEY_ENV} is not set (every Freesound API request needs a key)`);
  return key;
}

const auth = (ctx: SourceContext) => ({ authorization: `Token ${keyOf(ctx)}`, accept: "application/json" });

const pageUrl = (s: Sound) =>
  s.url && /^https?:\/\//.test(s.url) ? s.url : `${SITE}/people/${encodeURIComponent(s.username ?? "")}/sounds/${s.id}/`;

/** Descriptions may hold HTML links; keep the text. */
const plain = (html: string) =>
  html.replace(/<[^>]*>/g, "").replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/\s+/g, " ").trim();

const extOf = (url: string) => /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase();

export function parseSound(raw: unknown, where: string): Sound {
  const parsed = Sound.safeParse(raw);
  if (!parsed.success) throw new UpstreamError(`${ID}: ${where} is not a sound`, where, "parse");
  return parsed.data;
}

/** One sound as an Asset. Works with the default search fields too (no url, previews or images). */
export function soundToAsset(s: Sound): Asset {
  const license = ccLicenseFromUrl(s.license) ?? { name: s.license.trim() };
  const previewFormats = Object.entries(s.previews ?? {}).flatMap(([k, url]) => (/^preview-/.test(k) && /^https?:\/\//.test(url) ? [extOf(url)] : []));
  const formats = [...new Set([s.type?.toLowerCase(), ...previewFormats].filter((f): f is string => Boolean(f)))];
  const thumb = s.images?.waveform_m ?? s.images?.waveform_l;
  const description = s.description ? plain(s.description) : "";
  return {
    id: `${ID}:${s.id}`,
    provider: ID,
    nativeId: String(s.id),
    title: s.name,
    ...(description ? { description } : {}),
    type: "audio",
    tags: s.tags,
    url: pageUrl(s),
    ...(thumb && /^https?:\/\//.test(thumb) ? { thumbnailUrl: thumb } : {}),
    ...(s.username ? { author: s.username } : {}),
    license,
    price: { free: true },
    ...(formats.length ? { formats } : {}),
    // Every sound has public previews; the original file needs the user's OAuth2 login.
    downloadable: true,
    ...(s.created ? { createdAt: s.created } : {}),
  };
}

/** The public previews first (plain GETs), then the original file (OAuth2: requiresAuth). */
export function soundFiles(s: Sound): AssetFile[] {
  const out: AssetFile[] = [];
  for (const key of PREVIEWS) {
    const url = s.previews?.[key];
    if (!url || !/^https?:\/\//.test(url)) continue;
    const format = extOf(url) ?? key.split("-").pop()!;
    out.push({ url, filename: new URL(url).pathname.split("/").pop() || `${s.id}-${key}.${format}`, format, group: "audio" });
  }
  if (s.download && /^https?:\/\//.test(s.download)) {
    const format = s.type?.toLowerCase() || "audio";
    const filename = new RegExp(`\\.${format}$`, "i").test(s.name) ? s.name : `${s.name}.${format}`;
    out.push({
      url: s.download,
      filename,
      format,
      ...(typeof s.filesize === "number" ? { sizeBytes: Math.round(s.filesize) } : {}),
      group: "original",
      requiresAuth: true,
    });
  }
  return out;
}

function searchPageUrl(q: string, page: number, pageSize: number, fields = SEARCH_FIELDS): string {
  const params = new URLSearchParams({ query: q, fields, page_size: String(pageSize), page: String(page) });
  return `${API}/search/text/?${params}`;
}

async function fetchPage(url: string, ctx: SourceContext) {
  const body = await ctx.http.getJson(url, { signal: ctx.signal, headers: auth(ctx) });
  const parsed = SearchPage.safeParse(body);
  if (!parsed.success) throw new UpstreamError(`${ID}: the text search answer has no results array`, url, "parse");
  return { items: parsed.data.results.map((r, i) => parseSound(r, `${url} result #${i}`)), total: parsed.data.count };
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const searchUrl = searchUrlOf(query);
  if (query.types.length && !query.types.includes("audio")) return { assets: [], searchUrl };
  keyOf(ctx);
  const q = query.q.trim();
  const pageSize = query.offset % query.limit === 0 ? query.limit : PAGE_SIZE;
  const window = pageWindow(query.offset, query.limit, pageSize);
  try {
    const { items, total } = await collectWindow(window, query.limit, pageSize, (page) => fetchPage(searchPageUrl(q, page, pageSize), ctx), ctx.signal);
    return { assets: items.map(soundToAsset), ...(total !== undefined ? { total } : {}), searchUrl };
  } catch (err) {
    // Past the last page Freesound answers 404 ("Invalid page"): nothing more to show.
    if (err instanceof UpstreamError && err.status === 404 && window.pages[0]! > 1) return { assets: [], searchUrl };
    throw err;
  }
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!/^\d+$/.test(nativeId)) return null;
  const url = `${API}/sounds/${nativeId}/`;
  const body = await unlessGone(ctx.http.getJson(url, { signal: ctx.signal, headers: auth(ctx) }));
  if (body === undefined) return null;
  const sound = parseSound(body, url);
  const files = soundFiles(sound);
  return { ...soundToAsset(sound), downloadable: files.some((f) => !f.requiresAuth), files };
}

/** One empty-query search with a page of one: its `count` is every sound. */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const url = searchPageUrl("", 1, 1, "id");
  const body = await ctx.http.getJson(url, { signal: ctx.signal, headers: auth(ctx) });
  const count = SearchPage.safeParse(body).data?.count;
  const total = count === undefined ? undefined : Math.max(0, Math.round(count));
  if (total === undefined) throw new UpstreamError(`${ID}: the text search answer has no count`, url, "parse");
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    free: total,
    byType: { audio: total },
    unit: "assets",
    method: "Freesound API v2: count of an empty-query /search/text/ (every public sound); licences are per sound and not counted",
    countedAt: ctx.now().toISOString(),
  };
}

function searchUrlOf(query: SourceQuery): string {
  const q = query.q.trim();
  return `${SITE}/search/${q ? `?q=${encodeURIComponent(q)}` : ""}`;
}

export const freesound: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for sound effects, ambiences and samples: a huge Creative Commons library with public MP3/OGG previews (originals need a Freesound login).",
  assetTypes: ["audio"],
  access: "api",
  pricing: "free",
  supportsDownload: true,
  mode: "live",
  key: { env: KEY_ENV, required: true },
  unit: "assets",
  searchUrl: searchUrlOf,
  search,
  getAsset,
  census,
};
