/**
 * Freesound (https://freesound.org): Creative Commons sound effects and samples, searched live through API v2 with a key
 * sent as `Authorization: Token <key>`, so that it never appears in a URL or an error message.
 */
import { z } from "zod";
import { ccLicenseFromUrl, licenseFamily } from "../core/model/license.ts";
import { type AssetDetails, type AssetFile, assetMaker, compact, round } from "./kit/asset.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, requiredKey, type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { extensionOf } from "./kit/files.ts";
import { LICENSE_TERMS, mapAll, type SearchFilters, type Sort } from "./kit/filters.ts";
import { htmlText } from "./kit/html.ts";
import { collectWindow } from "./kit/page-window.ts";
import { isHttpUrl, withWords } from "./kit/url.ts";

const ID = "freesound";
const SITE = "https://freesound.org";
const API = "https://freesound.org/apiv2";
const asset = assetMaker(ID);
export const SEARCH_FIELDS = "id,name,url,username,license,tags,description,created,duration,type,filesize,previews,images,num_downloads,avg_rating";
const PREVIEWS = ["preview-hq-mp3", "preview-hq-ogg", "preview-lq-mp3", "preview-lq-ogg"] as const;

/** The `license` filter's names of Freesound's licences (API v2 search docs), by our licence family. */
const LICENSE_NAMES: Record<string, string> = { cc0: "Creative Commons 0", "cc-by": "Attribution", "cc-by-nc": "Attribution NonCommercial" };
/** Original file types the `type` filter can ask; mp3 and ogg are left out: every sound lists them as its preview formats too. */
const ORIGINAL_TYPES = ["wav", "aiff", "m4a", "flac"];
/** The API's `sort` options for our data sorts: newest added first, most downloaded first. */
const SORTS: Partial<Record<Sort, string>> = { newest: "created_desc", popular: "downloads_desc" };
const FILTERS = [...LICENSE_TERMS, "author", "format", "newest", "popular"] as const;
const extOf = (url: string) => extensionOf(new URL(url).pathname);

const quoted = (s: string) => `"${s.replace(/["\\]/g, "\\$&")}"`;
/** A Solr filter on `field` matching any of the values. */
const anyOf = (field: string, values: string[] | undefined) => values && `${field}:${values.length === 1 ? values[0] : `(${values.join(" OR ")})`}`;

/**
 * The filters in the search's `filter` parameter (Solr syntax, space-separated filters all apply): the licence by its
 * Freesound name, commercial use and no attribution as the licences that allow them, the uploader's `username`
 * (matched whole, case-insensitive) and the original file `type`.
 */
export function soundFilter(f: SearchFilters): string | undefined {
  const originals = mapAll(f.format, (x) => (ORIGINAL_TYPES.includes(x) ? x : undefined));
  const commercial = f.commercial === undefined ? undefined : f.commercial ? ["Attribution", "Creative Commons 0"] : ["Attribution NonCommercial"];
  const parts = [
    anyOf("license", mapAll(f.license, (t) => LICENSE_NAMES[licenseFamily(t)])?.map(quoted)),
    anyOf("license", commercial?.map(quoted)),
    f.attribution === false ? `license:${quoted("Creative Commons 0")}` : undefined,
    f.author ? `username:${quoted(f.author)}` : undefined,
    anyOf("type", originals),
  ];
  return parts.filter(Boolean).join(" ") || undefined;
}

const Links = z.record(z.string(), z.string());
const Sound = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  license: z.string(),
  tags: z.array(z.string()).default([]),
  ...z.object({ url: z.string(), username: z.string(), description: z.string(), created: z.string(), type: z.string(), download: z.string() }).partial().shape,
  ...z.object({ filesize: z.number(), previews: Links, images: Links, num_downloads: z.number().min(0) }).partial().shape,
});
const SearchPage = z.looseObject({ count: z.number().optional(), results: z.array(z.unknown()) });

const auth = (io: SourceIo) => ({ authorization: `Token ${requiredKey(io, "FREESOUND_API_KEY", "every Freesound API request needs a key")}` });

export const parseSound = (raw: unknown, where: string) => expectShape(ID, where, Sound, raw, `${where} is not a sound`);

/** One sound as an Asset. Works with the default search fields too (no url, previews or images). */
export function soundToAsset(s: z.infer<typeof Sound>) {
  const previewFormats = Object.entries(s.previews ?? {}).flatMap(([k, url]) => (/^preview-/.test(k) && isHttpUrl(url) ? [extOf(url)] : []));
  return asset(String(s.id), {
    title: s.name,
    description: s.description && htmlText(s.description),
    type: "audio",
    tags: s.tags,
    url: isHttpUrl(s.url) ? s.url : `${SITE}/people/${encodeURIComponent(s.username ?? "")}/sounds/${s.id}/`,
    thumbnailUrl: s.images?.waveform_m ?? s.images?.waveform_l,
    author: s.username,
    license: ccLicenseFromUrl(s.license) ?? { name: s.license.trim() },
    price: { free: true },
    formats: [...new Set([s.type?.toLowerCase(), ...previewFormats].filter((f): f is string => Boolean(f)))],
    // Every sound has public previews; the original file needs the user's OAuth2 login.
    downloadable: true,
    createdAt: s.created,
    downloads: round(s.num_downloads),
  });
}

/** The public previews first (plain GETs), then the original file (OAuth2: requiresAuth). */
export function soundFiles(s: z.infer<typeof Sound>): AssetFile[] {
  const previews = PREVIEWS.flatMap((key) => {
    const url = s.previews?.[key];
    if (!isHttpUrl(url)) return [];
    const format = extOf(url) ?? key.slice(key.lastIndexOf("-") + 1);
    return [{ url, filename: new URL(url).pathname.split("/").pop() || `${s.id}-${key}.${format}`, format, group: "audio" }];
  });
  if (!isHttpUrl(s.download)) return previews;
  const format = s.type?.toLowerCase() || "audio";
  const filename = new RegExp(`\\.${format}$`, "i").test(s.name) ? s.name : `${s.name}.${format}`;
  return [...previews, compact({ url: s.download, filename, format, sizeBytes: round(s.filesize), group: "original", requiresAuth: true })];
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.includes("audio")) return { assets: [], searchUrl: searchUrl(query) };
  const pageSize = query.offset % query.limit === 0 ? query.limit : 50;
  const page = async (n: number) => {
    const narrowing = compact({ filter: soundFilter(query.filters), sort: SORTS[query.sort] });
    const params = { query: query.q.trim(), ...narrowing, fields: SEARCH_FIELDS, page_size: String(pageSize), page: String(n) };
    const url = `${API}/search/text/?${new URLSearchParams(params)}`;
    // Past the last page Freesound answers 404 ("Invalid page"): nothing more to show.
    const body = n > 1 ? ((await unlessGone(io.json(url, auth(io)))) ?? { results: [] }) : await io.json(url, auth(io));
    const parsed = expectShape(ID, url, SearchPage, body, "the text search answer has no results array");
    return { items: parsed.results.map((r, i) => parseSound(r, `${url} result #${i}`)), total: parsed.count };
  };
  const { items, ...total } = await collectWindow(query, pageSize, io, page);
  return { assets: items.map(soundToAsset), ...total, searchUrl: searchUrl(query) };
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!/^\d+$/.test(nativeId)) return null;
  const url = `${API}/sounds/${nativeId}/`;
  const sound = await unlessGone(io.json(url, auth(io)).then((body) => parseSound(body, url)));
  if (!sound) return null;
  const files = soundFiles(sound);
  return { ...soundToAsset(sound), downloadable: files.some((f) => !f.requiresAuth), files };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const url = `${API}/search/text/?query=&fields=id&page_size=1&page=1`;
  const count = SearchPage.safeParse(await io.json(url, auth(io))).data?.count;
  if (count === undefined) throw shapeError(ID, url, "the text search answer has no count");
  const total = Math.max(0, Math.round(count));
  const method = "Freesound API v2: count of an empty-query /search/text/ (every public sound); licences are per sound and not counted";
  return { total, free: total, method };
}

const searchUrl = (query: SourceQuery) => withWords(`${SITE}/search/`, "q", query.q);

export const freesound = defineSource(
  {
    id: ID,
    name: "Freesound",
    homepage: SITE,
    description:
      "Best for sound effects, ambiences and samples: a huge Creative Commons library with public MP3/OGG previews (originals need a Freesound login).",
    assetTypes: ["audio"],
    access: "api",
    pricing: "free",
    supportsDownload: true,
    key: { env: "FREESOUND_API_KEY", required: true },
    unit: "assets",
    // These go upstream, and search results carry what they read too: the licence deed, the uploader, the file type and
    // previews, the date added and the download count.
    filtering: { upstream: FILTERS, listed: FILTERS },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
