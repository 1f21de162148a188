/**
 * Openverse (https://openverse.org): openly licensed audio (Jamendo, Freesound, Wikimedia Commons, ccMixter …) gathered by
 * WordPress.org, searched live through its public API, anonymously: at most 20 results per page, and only the first pages.
 */
import { z } from "zod";
import { UpstreamError } from "../core/http/types.ts";
import { ccLicense } from "../core/model/license.ts";
import { type AssetDetails, type AssetFile, assetMaker, compact } from "./kit/asset.ts";
import { countBy, highest, sum } from "./kit/census.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, type SourceIo, unlessGone } from "./kit/fetch.ts";
import { ccCode, LICENSE_TERMS, mapAll } from "./kit/filters.ts";
import { collectWindow } from "./kit/page-window.ts";
import { isHttpUrl, slugify, withWords } from "./kit/url.ts";

const ID = "openverse";
const SITE = "https://openverse.org";
const API = "https://api.openverse.org/v1";
const asset = assetMaker(ID);
const PAGE_SIZE = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AUDIO_EXT = /\.(mp3|ogg|oga|opus|wav|flac|aiff?|m4a|aac|mid|midi)$/i;
/** Hosts whose URLs answer the audio bytes to a plain GET although the path has no extension. */
const DIRECT_HOSTS = [/(^|\.)storage\.jamendo\.com$/i];

/** The audio `category` values the API accepts (its audio search request's category enum). */
const CATEGORIES = ["audiobook", "music", "news", "podcast", "pronunciation", "sound_effect"];
/** Formats this source renames from Openverse's filetype (mp32 → mp3, oga → ogg): the API's `extension` holds the site's own name, so these are not asked upstream. */
const RENAMED_FORMATS = ["mp3", "ogg"];

const [str, num] = [z.string().nullish(), z.number().nullish()];
const AudioRecord = z
  .looseObject({ id: z.string().min(1), license: z.string() })
  // The rest may be absent or null: the file, the credits, the classification.
  .extend({ title: str, url: str, filetype: str, filesize: num, thumbnail: str, mature: z.boolean().nullish() })
  .extend({ creator: str, license_version: str, license_url: str, attribution: str, provider: str, source: str })
  .extend({ category: str, genres: z.array(z.string()).nullish(), tags: z.array(z.looseObject({ name: z.string() })).nullish() })
  .extend({ alt_files: z.array(z.looseObject({ url: z.string(), filetype: str, filesize: num })).nullish() });
type AudioRecord = z.infer<typeof AudioRecord>;
const SearchPage = z.looseObject({ result_count: z.number().optional(), page_count: z.number().optional(), results: z.array(z.unknown()) });
const StatsEntry = z.looseObject({ source_name: z.string(), display_name: z.string().optional(), source_url: z.string().optional(), media_count: z.number() });
type StatsEntry = z.infer<typeof StatsEntry>;

/** Openverse's `mp32` (Jamendo's 192k MP3) and friends → a plain extension. */
function formatOf(filetype: string | null | undefined, url: string): string | undefined {
  const ft = filetype?.toLowerCase().trim();
  if (ft) return /^mp3/.test(ft) ? "mp3" : ft === "oga" ? "ogg" : ft;
  return AUDIO_EXT.exec(URL.canParse(url) ? new URL(url).pathname : "")?.[1]?.toLowerCase();
}

/** A URL a plain GET answers with the audio file: an audio file path, or a known direct-file host. */
export function isPlainFileUrl(url: string): boolean {
  const u = isHttpUrl(url) ? new URL(url) : undefined;
  return Boolean(u && (AUDIO_EXT.test(u.pathname) || DIRECT_HOSTS.some((h) => h.test(u.hostname))));
}

function toAsset(r: AudioRecord) {
  const format = r.url ? formatOf(r.filetype, r.url) : undefined;
  return asset(r.id, {
    title: r.title?.trim() || "Untitled",
    description: r.attribution,
    type: "audio",
    tags: [...new Set([...(r.tags ?? []).map((t) => t.name), ...(r.genres ?? [])].filter(Boolean))],
    categories: [r.category, r.source ?? r.provider].filter((c): c is string => Boolean(c)),
    url: `${SITE}/audio/${encodeURIComponent(r.id)}`,
    // Rebuilt on api.openverse.org: the `thumbnail` answered points at the host the API was reached at.
    thumbnailUrl: r.thumbnail ? `${API}/audio/${encodeURIComponent(r.id)}/thumb/` : undefined,
    author: r.creator,
    license: ccLicense(r.license, r.license_version, r.license_url) ?? compact({ name: r.license, url: r.license_url }),
    price: { free: true },
    formats: format ? [format] : undefined,
    downloadable: Boolean(r.url && isPlainFileUrl(r.url)),
  });
}

/** The record's file (on its provider) and the alternatives, each URL once; one a plain GET does not answer needs the provider's page. */
function filesOf(r: AudioRecord): AssetFile[] {
  const base = slugify(r.title ?? r.id).slice(0, 80) || "audio";
  const entries = [...(r.url ? [{ url: r.url, filetype: r.filetype, filesize: r.filesize }] : []), ...(r.alt_files ?? [])];
  return entries
    .filter((e, i) => isHttpUrl(e.url) && entries.findIndex((x) => x.url === e.url) === i)
    .map((e) => {
      const format = formatOf(e.filetype, e.url) ?? "audio";
      const sizeBytes = typeof e.filesize === "number" && e.filesize > 0 ? Math.round(e.filesize) : undefined;
      return compact({ url: e.url, filename: `${base}.${format}`, format, sizeBytes, group: "audio", requiresAuth: isPlainFileUrl(e.url) ? undefined : true });
    });
}

/**
 * The filters in the API's own parameters: `license` (comma-separated licence codes), `license_type=commercial`
 * (licences without NC), `category` and `extension` (comma-separated, any of), and `creator` (a creator-only search
 * the API ignores next to `q`, so it is sent only without search words). Sorting is left out: the API answers
 * anonymous clients in relevance order whatever `unstable__sort_by` says.
 */
function filterParams({ q, filters: f }: SourceQuery): Record<string, string | undefined> {
  const list = (values: string[] | undefined) => values?.join(",");
  return {
    license: list(mapAll(f.license, ccCode)),
    license_type: f.commercial === true ? "commercial" : undefined,
    category: list(mapAll(f.category, (c) => (CATEGORIES.includes(c) ? c : undefined))),
    extension: list(mapAll(f.format, (x) => (RENAMED_FORMATS.includes(x) ? undefined : x))),
    creator: q.trim() ? undefined : f.author,
  };
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.includes("audio")) return { assets: [], searchUrl: searchUrl(query) };
  const params = new URLSearchParams(compact({ q: query.q.trim(), page_size: String(PAGE_SIZE), ...filterParams(query) }));
  let pageCount = Infinity;
  const page = async (n: number) => {
    if (n > pageCount) return { items: [] };
    const apiUrl = `${API}/audio/?${params}&page=${n}`;
    const body = await io.json(apiUrl).catch((err: unknown) => {
      // Past the last page anonymous clients may see, the API answers 400: the listing ended.
      if (n > 1 && err instanceof UpstreamError && err.status === 400) return { results: [] };
      throw err;
    });
    const parsed = expectShape(ID, apiUrl, SearchPage, body, "the audio search answer has no results array");
    pageCount = parsed.page_count ?? pageCount;
    const items = parsed.results.map((raw, i) => expectShape(ID, apiUrl, AudioRecord, raw, `${apiUrl} result #${i} is not an audio record`));
    return { items, total: parsed.result_count };
  };
  const { items, ...total } = await collectWindow(query, PAGE_SIZE, io, page);
  return { assets: items.filter((r) => r.mature !== true).map(toAsset), ...total, searchUrl: searchUrl(query) };
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!UUID.test(nativeId)) return null;
  const record = await unlessGone(io.get(`${API}/audio/${nativeId.toLowerCase()}/`, AudioRecord));
  if (!record) return null;
  const files = filesOf(record);
  return { ...toAsset(record), downloadable: files.some((f) => !f.requiresAuth), files };
}

/** Per-source counts from `/v1/audio/stats/` (one request). */
async function census(io: SourceIo): Promise<CensusBody> {
  const stats = await io.get(`${API}/audio/stats/`, z.array(StatsEntry));
  const count = (s: StatsEntry) => Math.max(0, Math.round(s.media_count));
  const name = (s: StatsEntry) => s.display_name || s.source_name;
  const total = sum(stats, count);
  const top = highest(stats, (s) => s.media_count);
  return {
    total,
    free: total,
    categories: countBy(stats, name, count),
    highlights: top
      ? [{ label: "Largest audio source", title: name(top), url: isHttpUrl(top.source_url) ? top.source_url : SITE, value: Math.round(top.media_count) }]
      : [],
    method:
      "Openverse API /v1/audio/stats/: the audio count of every source Openverse indexes, summed (categories = sources); licences are per item and not counted",
  };
}

const searchUrl = (query: SourceQuery) => withWords(`${SITE}/search/audio`, "q", query.q);

export const openverse = defineSource(
  {
    id: ID,
    name: "Openverse",
    homepage: SITE,
    description:
      "Best for openly licensed music and sound effects gathered from Jamendo, Freesound, Wikimedia Commons and more, with a licence and credit line per track.",
    assetTypes: ["audio"],
    access: "api",
    pricing: "free",
    supportsDownload: true,
    unit: "assets",
    // Records carry a Creative Commons licence with its terms, the creator, the category and source, and the file type.
    filtering: { upstream: ["license", "commercial", "category", "format", "author"], listed: [...LICENSE_TERMS, "author", "category", "format"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
