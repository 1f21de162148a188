/**
 * A publication at DATA_URL: `<DATA_URL>/v1/index.meta.json` asked with `If-None-Match`, and on a
 * new meta its files, each read no further than the size the meta gives it.
 *
 * When the meta lists an index file, it is downloaded to DATA_CACHE_DIR (checked against the meta's
 * size and sha256 as it comes) and read in place there, as a set in DATA_DIR is; `index.json.gz` is
 * then not fetched. Files of sets no longer in service are removed from there.
 *
 * Its own undici Agent, not the sources' client (core/http/client.ts): that one caches answers for
 * minutes and refuses private addresses, while DATA_URL is the operator's own choice (a mirror on
 * the same network is fine) and must be asked afresh each time.
 */
import { createHash } from "node:crypto";
import { createWriteStream, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Agent, type Dispatcher, interceptors, request } from "undici";
import type { Config } from "../../core/config.ts";
import {
  checkFileInfo,
  INDEX_FILE,
  type IndexMeta,
  listedFile,
  META_FILE,
  PUBLICATION_VERSION,
  parseMeta,
  readSetFiles,
} from "../../core/publication/published.ts";
import type { DataChange, DataSource } from "./follow.ts";

/** A meta file is a few hundred bytes; anything this large is not one. */
const META_MAX_BYTES = 1 << 20;
const MAX_REDIRECTS = 5;

type Options = Pick<Config, "userAgent" | "connectTimeoutMs" | "headersTimeoutMs" | "bodyTimeoutMs" | "dataCacheDir">;

/** The body, refused as soon as it grows past `max` bytes (a wrong or hostile server cannot fill the memory). */
async function readCapped(body: Dispatcher.ResponseData["body"], max: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) {
      body.destroy();
      throw new Error(`${what} is larger than ${max} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

const header = (res: Dispatcher.ResponseData, name: string): string | undefined => {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** A GET that answered 2xx or 304; anything else throws, naming the URL and the status. */
async function getOk(dispatcher: Dispatcher, userAgent: string, url: string, headers: Record<string, string>): Promise<Dispatcher.ResponseData> {
  const res = await request(url, { dispatcher, headers: { "user-agent": userAgent, ...headers } });
  if (res.statusCode === 304 || (res.statusCode >= 200 && res.statusCode < 300)) return res;
  res.body.resume();
  throw new Error(`GET ${url} answered HTTP ${res.statusCode}`);
}

/** Writes `url`'s body to `path` through a `.part` file, checking the meta's size and sha256 of `name` as it comes; nothing is kept on a throw. */
async function saveChecked(url: string, body: Dispatcher.ResponseData["body"], path: string, meta: IndexMeta, name: string): Promise<void> {
  const want = listedFile(meta, name);
  const partial = `${path}.part`;
  const hash = createHash("sha256");
  let size = 0;
  const check = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > want.bytes) return done(new Error(`${url} is larger than ${want.bytes} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, check, createWriteStream(partial));
    checkFileInfo(meta, name, { bytes: size, sha256: hash.digest("hex") });
    renameSync(partial, path);
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  }
}

export function urlSource(base: string, options: Options): DataSource & { close(): Promise<void> } {
  const folder = `${base}/v${PUBLICATION_VERSION}`;
  const dispatcher = new Agent({
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  }).compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  /** The ETag and bytes of the meta in service: kept only once its files are in service, so a failed load is tried again. */
  let current: { etag: string | undefined; meta: Buffer } | undefined;
  /** This server's own folder under DATA_CACHE_DIR, made on the first download. */
  let cacheDir: string | undefined;

  const get = (url: string, headers: Record<string, string> = {}) => getOk(dispatcher, options.userAgent, url, headers);

  async function file(name: string, max: number): Promise<Buffer> {
    const url = `${folder}/${name}`;
    const res = await get(url);
    if (res.statusCode === 304) throw new Error(`GET ${url} answered 304 to a request without a validator`);
    return readCapped(res.body, max, url);
  }

  /**
   * Downloads the index file to the cache folder, named by its sha256 (a file already there is that
   * file), checking its size and sha256 as it comes; the path of the whole file, or a throw and nothing kept.
   */
  async function download(meta: IndexMeta, name: string): Promise<string> {
    const want = listedFile(meta, name);
    cacheDir ??= mkdtempSync(join(options.dataCacheDir ?? tmpdir(), "asset-search-data-"));
    const path = join(cacheDir, `${want.sha256}.db`);
    if (existsSync(path)) return path;
    const url = `${folder}/${name}`;
    await saveChecked(url, (await get(url)).body, path, meta, name);
    return path;
  }

  /** Removes the downloaded files but the one in service (a file still open stays readable to its reader until closed). */
  function keepOnly(path: string | undefined): void {
    if (!cacheDir) return;
    for (const entry of readdirSync(cacheDir)) if (join(cacheDir, entry) !== path) rmSync(join(cacheDir, entry), { force: true });
  }

  return {
    async poll(): Promise<DataChange | undefined> {
      const metaUrl = `${folder}/${META_FILE}`;
      const etag = current?.etag;
      const res = await get(metaUrl, etag ? { "if-none-match": etag } : {});
      if (res.statusCode === 304) {
        res.body.resume();
        return undefined;
      }
      const bytes = await readCapped(res.body, META_MAX_BYTES, metaUrl);
      const nextEtag = header(res, "etag");
      // The same meta again (a server without ETags, or a new ETag for the same bytes): nothing changed.
      if (current?.meta.equals(bytes)) {
        current.etag = nextEtag;
        return undefined;
      }
      const meta = parseMeta(bytes);
      const [files, indexPath] = await Promise.all([
        readSetFiles((name) => file(name, listedFile(meta, name).bytes), meta),
        meta.indexFile ? download(meta, INDEX_FILE) : undefined,
      ]);
      return {
        files,
        meta,
        ...(indexPath ? { indexPath } : {}),
        origin: { source: "url" },
        commit: () => {
          current = { etag: nextEtag, meta: bytes };
          keepOnly(indexPath);
        },
      };
    },
    // A download under way is cut: the server is going away, and its downloads with it.
    async close() {
      await dispatcher.destroy();
      if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}
