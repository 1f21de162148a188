/**
 * Jamendo (https://www.jamendo.com): independent music under Creative Commons licences, searched live through API v3.0
 * with a client id. The id travels in the URL (`client_id=`), so it is blanked out of every failure's message and URL.
 * The census is one request: `fullcount=true` adds `results_fullcount` to an answer's headers, the number of rows the
 * query has without `limit` and `offset` (developer.jamendo.com/v3.0, the `fullcount` parameter of the read methods).
 */
import { z } from "zod";
import { ccLicenseFromUrl } from "../core/model/license.ts";
import { SourceError, toSourceError } from "../core/model/source-error.ts";
import { type AssetDetails, type AssetFile, assetMaker, round, uniqueWords } from "./kit/asset.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, requiredKey, type SourceIo, shapeError } from "./kit/fetch.ts";
import { LICENSE_TERMS } from "./kit/filters.ts";
import { isHttpUrl, slugify, withWords } from "./kit/url.ts";

const ID = "jamendo";
const SITE = "https://www.jamendo.com";
const API = "https://api.jamendo.com/v3.0/tracks";
const KEY_ENV = "JAMENDO_CLIENT_ID";
const asset = assetMaker(ID);
/** Tags and download counts come from `musicinfo` and `stats`; mp32 is the good-quality MP3 (mp31 is 96 kb/s). */
const READ = { include: "musicinfo stats", imagesize: "200" };
const AUDIO = { audioformat: "mp32" };

const strs = z.array(z.string()).default([]);
const Track = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  duration: z.number().min(0).optional(),
  ...z.object({ artist_name: z.string(), album_name: z.string(), license_ccurl: z.string(), releasedate: z.string() }).partial().shape,
  ...z.object({ shareurl: z.string(), image: z.string(), audiodownload: z.string(), audiodownload_allowed: z.boolean() }).partial().shape,
  musicinfo: z.looseObject({ tags: z.looseObject({ genres: strs, vartags: strs, instruments: strs }).optional() }).optional(),
  stats: z.looseObject({ rate_downloads_total: z.number().min(0).optional() }).optional(),
});
type Track = z.infer<typeof Track>;
/**
 * Every answer is `{ headers, results }`; `headers.code` is 0 on success, else an error id with `error_message` (API docs,
 * Response Codes). With `fullcount=true` the headers also hold `results_fullcount`.
 */
const Answer = z.looseObject({
  headers: z.looseObject({ code: z.number(), error_message: z.string().optional(), results_fullcount: z.number().int().min(0).optional() }),
  results: z.array(z.unknown()),
});

/** The tracks `params` asks for, and the full count when it asks `fullcount`; the client id is never part of a message or URL that leaves this function. */
async function tracks(io: SourceIo, params: Record<string, string>): Promise<{ tracks: Track[]; fullcount?: number }> {
  const key = requiredKey(io, KEY_ENV, "every Jamendo API request needs a client id");
  const url = `${API}?${new URLSearchParams({ format: "json", client_id: key, ...params })}`;
  const hide = (s: string) => s.split(encodeURIComponent(key)).join("<key>");
  try {
    const { headers, results } = expectShape(ID, url, Answer, await io.json(url), "the tracks answer has no headers and results");
    if (headers.code !== 0) throw new SourceError(ID, "refused", `the API answered code ${headers.code}: ${headers.error_message || "no message"}`, url);
    if (params.fullcount && headers.results_fullcount === undefined) throw shapeError(ID, url, "the tracks answer has no results_fullcount");
    const found = results.map((raw, i) => expectShape(ID, url, Track, raw, `result #${i} is not a track`));
    return { tracks: found, fullcount: headers.results_fullcount };
  } catch (err) {
    const { kind, message, url: where, status } = toSourceError(ID, err);
    throw new SourceError(ID, kind, hide(message.slice(ID.length + 2)), where && hide(where), { status });
  }
}

const minutes = (seconds: number) => ((s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`)(Math.round(seconds));
const canDownload = (t: Track) => t.audiodownload_allowed === true && isHttpUrl(t.audiodownload);

function toAsset(t: Track) {
  const tags = t.musicinfo?.tags;
  const length = t.duration ? `${minutes(t.duration)} long` : undefined;
  return asset(t.id, {
    title: t.name,
    description: [t.album_name && `From the album ${t.album_name}`, length].filter(Boolean).join(", ") || undefined,
    type: "audio",
    tags: uniqueWords([...(tags?.genres ?? []), ...(tags?.vartags ?? []), ...(tags?.instruments ?? [])]),
    categories: ["music", ...(tags?.genres ?? [])],
    url: isHttpUrl(t.shareurl) ? t.shareurl : `${SITE}/track/${encodeURIComponent(t.id)}`,
    thumbnailUrl: t.image,
    author: t.artist_name,
    // Every Jamendo track carries a Creative Commons deed; one we cannot read keeps its text and claims no terms.
    license: t.license_ccurl ? (ccLicenseFromUrl(t.license_ccurl) ?? { name: t.license_ccurl }) : undefined,
    price: { free: true },
    formats: ["mp3"],
    // The artist chooses whether the track may be downloaded; without that there is only the stream, which is no file.
    downloadable: canDownload(t),
    createdAt: t.releasedate,
    downloads: round(t.stats?.rate_downloads_total),
  });
}

/** The MP3 download, when the artist allows it (`audiodownload` redirects to the file, docs: tracks/file). */
function trackFiles(t: Track): AssetFile[] {
  if (!canDownload(t)) return [];
  const filename = `${slugify(`${t.artist_name ?? ""} ${t.name}`) || t.id}.mp3`;
  return [{ url: t.audiodownload!, filename, format: "mp3", group: "audio" }];
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  if (query.types.length && !query.types.includes("audio")) return { assets: [], searchUrl: searchUrl(query) };
  // The API takes an offset and up to 200 results: one request covers any window the search asks (at most 100).
  const words: Record<string, string> = query.q.trim() ? { search: query.q.trim() } : {};
  const window = { limit: String(query.limit), ...AUDIO, offset: String(query.offset) };
  const found = await tracks(io, { ...words, ...READ, ...window });
  return { assets: found.tracks.map(toAsset), searchUrl: searchUrl(query) };
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!/^\d+$/.test(nativeId)) return null;
  const track = (await tracks(io, { id: nativeId, ...READ, ...AUDIO })).tracks[0];
  return track ? { ...toAsset(track), files: trackFiles(track) } : null;
}

/** One request for the count of what the search can show: every track is free audio (the type comes from the facts). */
async function census(io: SourceIo): Promise<CensusBody> {
  const { fullcount = 0 } = await tracks(io, { limit: "1", fullcount: "true" });
  return {
    total: fullcount,
    free: fullcount,
    method:
      "Jamendo API v3.0: `results_fullcount` in the headers of /v3.0/tracks?format=json&client_id=<key>&limit=1&fullcount=true, the tracks the search asks (no `type`: the API's default track type); every track is free under a Creative Commons licence",
  };
}

const searchUrl = (query: SourceQuery) => withWords(`${SITE}/search`, "q", query.q);

export const jamendo = defineSource(
  {
    id: ID,
    name: "Jamendo",
    homepage: SITE,
    description: "Best for music: independent artists' songs and instrumentals under Creative Commons licences, MP3 downloads where the artist allows.",
    assetTypes: ["audio"],
    access: "api",
    pricing: "free",
    supportsDownload: true,
    key: { env: KEY_ENV, required: true },
    unit: "assets",
    // Nothing is passed upstream (the filter parameters of /tracks were not confirmed from its documentation); the
    // listings carry the licence deed, the artist, genres, the MP3 format, the release date and the download count.
    filtering: { upstream: [], listed: [...LICENSE_TERMS, "author", "category", "format", "newest", "popular"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
