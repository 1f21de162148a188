/**
 * Openverse (https://openverse.org): openly licensed audio (Jamendo, Freesound, Wikimedia Commons,
 * ccMixter …) gathered by WordPress.org, with a public JSON API (https://api.openverse.org).
 * Live: searched through `/v1/audio/?q=…&page_size=…&page=…`.
 *
 * Upstream shapes used here:
 * - search → `{ result_count, page_count, page_size, page, results: [AudioRecord] }`;
 * - `/v1/audio/<uuid>/` → one AudioRecord: `id, title, url` (the audio file on the original
 *   provider), `foreign_landing_url`, `creator`, `license` (`cc0`, `by`, `by-nc-sa` …),
 *   `license_version`, `license_url`, `attribution`, `provider`, `source`, `category`, `genres`,
 *   `filetype`, `filesize`, `duration` (ms), `tags[].name`, `alt_files`, `thumbnail` …
 * Openverse builds `thumbnail`/`detail_url` from the host it is reached at (the recordings were made
 * through a local proxy), so the thumbnail link is rebuilt on api.openverse.org from the id.
 *
 * Anonymous requests may ask at most 20 results per page (and only the first pages); no key is used.
 */
import { ccLicense } from "../core/license.ts";
import { z } from "zod";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, SourceCensus } from "../core/schemas/index.ts";
import { UpstreamError } from "../core/http/types.ts";
import { followUpPage, pageWindow } from "./kit/page-window.ts";
import { unlessGone } from "./kit/fetch.ts";

const ID = "openverse";
const NAME = "Openverse";
const SITE = "https://openverse.org";
const API = "https://api.openverse.org/v1";
/** The anonymous maximum of `page_size`. */
const PAGE_SIZE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AUDIO_EXT = /\.(mp3|ogg|oga|opus|wav|flac|aiff?|m4a|aac|mid|midi)$/i;
/** Hosts whose URLs answer the audio bytes to a plain GET although the path has no extension. */
const DIRECT_HOSTS = [/(^|\.)storage\.jamendo\.com$/i];

const AltFile = z.looseObject({
  url: z.string(),
  filetype: z.string().nullish(),
  filesize: z.number().nullish(),
});
const AudioRecord = z.looseObject({
  id: z.string().min(1),
  title: z.string().nullish(),
  url: z.string().nullish(),
  foreign_landing_url: z.string().nullish(),
  creator: z.string().nullish(),
  license: z.string(),
  license_version: z.string().nullish(),
  license_url: z.string().nullish(),
  attribution: z.string().nullish(),
  provider: z.string().nullish(),
  source: z.string().nullish(),
  category: z.string().nullish(),
  genres: z.array(z.string()).nullish(),
  filetype: z.string().nullish(),
  filesize: z.number().nullish(),
  duration: z.number().nullish(),
  tags: z.array(z.looseObject({ name: z.string() })).nullish(),
  alt_files: z.array(AltFile).nullish(),
  thumbnail: z.string().nullish(),
  mature: z.boolean().nullish(),
});
type AudioRecord = z.infer<typeof AudioRecord>;
const SearchPage = z.looseObject({
  result_count: z.number().optional(),
  page_count: z.number().optional(),
  results: z.array(z.unknown()),
});

const pageUrl = (id: string) => `${SITE}/audio/${encodeURIComponent(id)}`;

/** Openverse's `mp32` (Jamendo's 192k MP3) and friends → a plain extension. */
function formatOf(filetype: string | null | undefined, url: string): string | undefined {
  const ft = filetype?.toLowerCase().trim();
  if (ft) return /^mp3/.test(ft) ? "mp3" : ft === "oga" ? "ogg" : ft;
  return AUDIO_EXT.exec(safePath(url))?.[1]?.toLowerCase();
}

function safePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

/** A URL a plain GET answers with the audio file: an audio file path, or a known direct-file host. */
export function isPlainFileUrl(url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return false;
  return AUDIO_EXT.test(u.pathname) || DIRECT_HOSTS.some((h) => h.test(u.hostname));
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 80) || "audio";

function parseRecord(raw: unknown, where: string): AudioRecord {
  const parsed = AudioRecord.safeParse(raw);
  if (!parsed.success) throw new UpstreamError(`${ID}: ${where} is not an audio record`, where, "parse");
  return parsed.data;
}

function toAsset(r: AudioRecord): Asset {
  const license = ccLicense(r.license, r.license_version, r.license_url) ?? { name: r.license, ...(r.license_url ? { url: r.license_url } : {}) };
  const format = r.url ? formatOf(r.filetype, r.url) : undefined;
  const tags = [...new Set([...(r.tags ?? []).map((t) => t.name), ...(r.genres ?? [])].filter(Boolean))];
  const categories = [r.category, r.source ?? r.provider].filter((c): c is string => Boolean(c));
  return {
    id: `${ID}:${r.id}`,
    provider: ID,
    nativeId: r.id,
    title: r.title?.trim() || "Untitled",
    ...(r.attribution ? { description: r.attribution } : {}),
    type: "audio",
    tags,
    categories,
    url: pageUrl(r.id),
    ...(r.thumbnail ? { thumbnailUrl: `${API}/audio/${encodeURIComponent(r.id)}/thumb/` } : {}),
    ...(r.creator ? { author: r.creator } : {}),
    license,
    price: { free: true },
    ...(format ? { formats: [format] } : {}),
    downloadable: Boolean(r.url && isPlainFileUrl(r.url)),
  };
}

function filesOf(r: AudioRecord): AssetFile[] {
  const base = slug(r.title ?? r.id);
  const entries = [
    ...(r.url ? [{ url: r.url, filetype: r.filetype, filesize: r.filesize }] : []),
    ...(r.alt_files ?? []),
  ];
  const seen = new Set<string>();
  const out: AssetFile[] = [];
  for (const e of entries) {
    if (seen.has(e.url) || !/^https?:\/\//.test(e.url)) continue;
    seen.add(e.url);
    const format = formatOf(e.filetype, e.url) ?? "audio";
    const plain = isPlainFileUrl(e.url);
    out.push({
      url: e.url,
      filename: `${base}.${format}`,
      format,
      ...(typeof e.filesize === "number" && e.filesize > 0 ? { sizeBytes: Math.round(e.filesize) } : {}),
      group: "audio",
      ...(plain ? {} : { requiresAuth: true }),
    });
  }
  return out;
}

function searchPageUrl(q: string, page: number): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  params.set("page_size", String(PAGE_SIZE));
  params.set("page", String(page));
  return `${API}/audio/?${params}`;
}

async function fetchPage(q: string, page: number, ctx: SourceContext) {
  const url = searchPageUrl(q, page);
  const body = await ctx.http.getJson(url, { signal: ctx.signal });
  const parsed = SearchPage.safeParse(body);
  if (!parsed.success) throw new UpstreamError(`${ID}: the audio search answer has no results array`, url, "parse");
  const items = parsed.data.results.map((r, i) => parseRecord(r, `${url} result #${i}`));
  return { items, total: parsed.data.result_count, pageCount: parsed.data.page_count };
}

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const searchUrl = searchUrlOf(query);
  if (query.types.length && !query.types.includes("audio")) return { assets: [], searchUrl };
  const q = query.q.trim();
  const window = pageWindow(query.offset, query.limit, PAGE_SIZE);
  const records: AudioRecord[] = [];
  let total: number | undefined;
  let pageCount = Infinity;
  for (const [i, page] of window.pages.entries()) {
    if (page > pageCount) break;
    let res;
    try {
      // The window's first page must answer; a later one that fails ends the window with what was gathered.
      res = i === 0 ? await fetchPage(q, page, ctx) : await followUpPage(() => fetchPage(q, page, ctx), ctx.signal);
    } catch (err) {
      // Past the last page anonymous clients may see, the API answers 400: the listing ended.
      if (page > 1 && err instanceof UpstreamError && err.status === 400) break;
      throw err;
    }
    if (!res) break;
    total ??= res.total;
    pageCount = res.pageCount ?? pageCount;
    records.push(...res.items);
    if (res.items.length < PAGE_SIZE) break;
  }
  const assets = records
    .slice(window.skip, window.skip + query.limit)
    .filter((r) => r.mature !== true)
    .map(toAsset);
  return { assets, ...(total !== undefined ? { total } : {}), searchUrl };
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!UUID.test(nativeId)) return null;
  const url = `${API}/audio/${nativeId.toLowerCase()}/`;
  const body = await unlessGone(ctx.http.getJson(url, { signal: ctx.signal }));
  if (body === undefined) return null;
  const record = parseRecord(body, url);
  const files = filesOf(record);
  return { ...toAsset(record), downloadable: files.some((f) => !f.requiresAuth), files };
}

const StatsEntry = z.looseObject({
  source_name: z.string(),
  display_name: z.string().optional(),
  source_url: z.string().optional(),
  media_count: z.number(),
});

/** Per-source counts from `/v1/audio/stats/` (one request). */
async function census(ctx: SourceContext): Promise<SourceCensus> {
  const url = `${API}/audio/stats/`;
  const body = await ctx.http.getJson(url, { signal: ctx.signal });
  const parsed = z.array(StatsEntry).safeParse(body);
  if (!parsed.success) throw new UpstreamError(`${ID}: ${url} did not answer a list of sources with media_count`, url, "parse");
  const categories: Record<string, number> = {};
  let total = 0;
  for (const s of parsed.data) {
    const n = Math.max(0, Math.round(s.media_count));
    categories[s.display_name || s.source_name] = n;
    total += n;
  }
  const top = [...parsed.data].sort((a, b) => b.media_count - a.media_count)[0];
  const highlights: NonNullable<SourceCensus["highlights"]> = top
    ? [{ label: "Largest audio source", title: top.display_name || top.source_name, url: top.source_url && /^https?:\/\//.test(top.source_url) ? top.source_url : SITE, value: Math.round(top.media_count) }]
    : [];
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    free: total,
    byType: { audio: total },
    categories,
    unit: "assets",
    highlights,
    method: "Openverse API /v1/audio/stats/: the audio count of every source Openverse indexes, summed (categories = sources); licences are per item and not counted",
    countedAt: ctx.now().toISOString(),
  };
}

function searchUrlOf(query: SourceQuery): string {
  const q = query.q.trim();
  return `${SITE}/search/audio${q ? `?q=${encodeURIComponent(q)}` : ""}`;
}

export const openverse: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for openly licensed music and sound effects gathered from Jamendo, Freesound, Wikimedia Commons and more, with a licence and credit line per track.",
  assetTypes: ["audio"],
  access: "api",
  pricing: "free",
  supportsDownload: true,
  mode: "live",
  unit: "assets",
  searchUrl: searchUrlOf,
  search,
  getAsset,
  census,
};
