/**
 * A publication at DATA_URL: `<DATA_URL>/v1/index.meta.json` asked with `If-None-Match`, and on a
 * new meta its files, each read no further than the size the meta gives it.
 *
 * Its own undici Agent, not the sources' client (core/http/client.ts): that one caches answers for
 * minutes and refuses private addresses, while DATA_URL is the operator's own choice (a mirror on
 * the same network is fine) and must be asked afresh each time.
 */
import { Agent, type Dispatcher, interceptors, request } from "undici";
import type { Config } from "../../core/config.ts";
import { listedFile, META_FILE, PUBLICATION_VERSION, parseMeta, readSetFiles } from "../../core/published.ts";
import type { DataChange, DataSource } from "./follow.ts";

/** A meta file is a few hundred bytes; anything this large is not one. */
const META_MAX_BYTES = 1 << 20;
const MAX_REDIRECTS = 5;

type Options = Pick<Config, "userAgent" | "connectTimeoutMs" | "headersTimeoutMs" | "bodyTimeoutMs">;

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

export function urlSource(base: string, options: Options): DataSource & { close(): Promise<void> } {
  const folder = `${base}/v${PUBLICATION_VERSION}`;
  const dispatcher = new Agent({
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  }).compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  /** The ETag and bytes of the meta in service: kept only once its files are in service, so a failed load is tried again. */
  let current: { etag: string | undefined; meta: Buffer } | undefined;

  async function get(url: string, headers: Record<string, string> = {}): Promise<Dispatcher.ResponseData> {
    const res = await request(url, { dispatcher, headers: { "user-agent": options.userAgent, ...headers } });
    if (res.statusCode === 304 || (res.statusCode >= 200 && res.statusCode < 300)) return res;
    res.body.resume();
    throw new Error(`GET ${url} answered HTTP ${res.statusCode}`);
  }

  async function file(name: string, max: number): Promise<Buffer> {
    const url = `${folder}/${name}`;
    const res = await get(url);
    if (res.statusCode === 304) throw new Error(`GET ${url} answered 304 to a request without a validator`);
    return readCapped(res.body, max, url);
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
      const files = await readSetFiles((name) => file(name, listedFile(meta, name).bytes));
      return {
        files,
        meta,
        origin: { source: "url" },
        commit: () => {
          current = { etag: nextEtag, meta: bytes };
        },
      };
    },
    // A download under way is cut: the server is going away.
    close: () => dispatcher.destroy(),
  };
}
