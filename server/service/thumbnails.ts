/**
 * Thumbnails from this origin (GET /v1/assets/{id}/thumbnail), so a page asks no third-party host:
 * the asset's thumbnail URL found without asking its source where possible, the image fetched
 * through the upstream client (the address guard on every hop) under a byte cap, resized with
 * sharp and encoded as WebP, and kept in memory by total bytes. After the id check nothing fails:
 * no thumbnail, a failing or refused upstream, or bytes that are no image give the placeholder.
 */
import { LRUCache } from "lru-cache";
import pLimit from "p-limit";
import type { HttpClient } from "../../core/http/types.ts";
import type { AppDeps } from "../context.ts";
import { type StaticFile, staticFile } from "../static/file.ts";
import { type AssetRef, fetchDetails } from "./assets.ts";

/** Cap on an upstream image: a thumbnail is far smaller, anything larger is not one. */
const MAX_SOURCE_BYTES = 10 * 1024 * 1024;
/** A small file can declare a huge image: decoding stops above this many pixels. */
const MAX_INPUT_PIXELS = 40_000_000;
/** The resized images kept, by total bytes (some 2,000 at 320 px). */
const CACHE_BYTES = 32 * 1024 * 1024;
/** Upstream fetches and resizes at once, over every request: a page of results asks for 24 or more together. */
const CONCURRENCY = 6;
/** One image's fetch; it is not bound to the request, so a client leaving still leaves it cached for the next. */
const FETCH_TIMEOUT_MS = 15_000;

/** sharp is loaded with the first thumbnail: its native library costs a few hundred ms, which the command line never needs. */
let loaded: Promise<typeof import("sharp")> | undefined;
async function loadSharp() {
  loaded ??= import("sharp");
  return (await loaded).default;
}

export interface Thumbnail {
  /** WebP bytes with their strong ETag (the sha256 of the bytes). */
  file: StaticFile;
  outcome: "resized" | "cached" | "placeholder";
}

/**
 * The thumbnails of one app: `(ref, width, baseUrl)` → the resized image or the placeholder.
 * Concurrent requests for the same image share one fetch.
 */
export function createThumbnails(deps: AppDeps): (ref: AssetRef, width: number, baseUrl: string) => Promise<Thumbnail> {
  const cache = new LRUCache<string, StaticFile>({ maxSize: CACHE_BYTES, sizeCalculation: (file) => file.identity.body.length });
  const inflight = new Map<string, Promise<StaticFile | undefined>>();
  const limit = pLimit(CONCURRENCY);

  const make = async (ref: AssetRef, width: number, baseUrl: string): Promise<StaticFile | undefined> => {
    try {
      const url = await thumbnailUrl(ref, deps, baseUrl);
      if (!url) return undefined;
      return await limit(async () => staticFile(await resize(await fetchImage(deps.runtime.http, url), width), { type: "image/webp", compress: false }));
    } catch {
      return undefined; // the placeholder says it; an upstream that fails is no failure of this server
    }
  };

  return async (ref, width, baseUrl) => {
    const key = `${width} ${ref.id}`;
    const cached = cache.get(key);
    if (cached) return { file: cached, outcome: "cached" };
    let pending = inflight.get(key);
    if (!pending) {
      pending = make(ref, width, baseUrl).then((file) => {
        inflight.delete(key);
        if (file) cache.set(key, file);
        return file;
      });
      inflight.set(key, pending);
    }
    const file = await pending;
    return file ? { file, outcome: "resized" } : { file: await placeholder(width), outcome: "placeholder" };
  };
}

/** Where the asset's thumbnail is: its index record, a recent search result, else its details from the source. */
async function thumbnailUrl(ref: AssetRef, deps: AppDeps, baseUrl: string): Promise<string | undefined> {
  const known = deps.published.index.get(ref.id)?.thumbnailUrl ?? deps.thumbnailUrls?.get(ref.id);
  return known ?? (await fetchDetails(ref, deps, { baseUrl })).thumbnailUrl;
}

/** The image's bytes, refused past MAX_SOURCE_BYTES (announced or counted). */
async function fetchImage(http: HttpClient, url: string): Promise<Buffer> {
  const res = await http.stream(url, { timeoutMs: FETCH_TIMEOUT_MS, headers: { accept: "image/*" } });
  const tooLarge = () => {
    res.body.once("error", () => {}).destroy(); // its abort error is the one expected
    return new Error(`${url} is larger than ${MAX_SOURCE_BYTES} bytes`);
  };
  if (res.sizeBytes !== undefined && res.sizeBytes > MAX_SOURCE_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body) {
    total += (chunk as Buffer).length;
    if (total > MAX_SOURCE_BYTES) throw tooLarge();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Fits the image inside `width`×`width`, keeping its aspect and never enlarging it, as WebP. Not
 * cropped: sources' thumbnails are square, 4:3 or 16:9, and a card can still crop with CSS
 * (`object-fit: cover`), while a crop made here would be lost to every other use. A vector image
 * (Iconify's icons) has only a nominal size, often 24 px: it is rendered at the width asked.
 */
async function resize(bytes: Buffer, width: number): Promise<Buffer> {
  const sharp = await loadSharp();
  const input = { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" } as const;
  const meta = await sharp(bytes, input).metadata();
  const longest = Math.max(meta.width ?? 0, meta.height ?? 0);
  const density = meta.format === "svg" && longest > 0 && longest < width ? (72 * width) / longest : undefined;
  return sharp(bytes, { ...input, ...(density ? { density } : {}) })
    .rotate() // as the EXIF orientation says
    .resize({ width, height: width, fit: "inside", withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer();
}

const placeholders = new Map<number, Promise<StaticFile>>();

/**
 * A flat square of the width asked, made once per width: a faint translucent grey, so it reads as
 * an empty tile on a light or a dark page alike.
 */
function placeholder(width: number): Promise<StaticFile> {
  let made = placeholders.get(width);
  if (!made) {
    made = loadSharp()
      .then((sharp) =>
        sharp({ create: { width, height: width, channels: 4, background: { r: 128, g: 128, b: 128, alpha: 0.16 } } })
          .webp({ lossless: true })
          .toBuffer(),
      )
      .then((bytes) => staticFile(bytes, { type: "image/webp", compress: false }));
    placeholders.set(width, made);
  }
  return made;
}
