/**
 * Compression of the API's JSON answers (a search, the providers, the census), which the web app
 * fetches on every page: brotli or gzip, whichever the client accepts, the server preferring brotli.
 * Only whole JSON bodies of a 200 over a kilobyte: an event stream, a zip and a preview file are
 * passed through as they are (their bytes go out as they arrive, or are compressed already), and a
 * small body gains less than the header costs. Brotli at quality 5 and gzip at level 6 are the
 * usual choice for answers made per request: most of the gain for a fraction of the time of the
 * highest levels, which the static files (server/static/file.ts) use once per file.
 */
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { type H3Event, onResponse } from "h3";

const MIN_BYTES = 1024;
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The encoding to use: brotli, else gzip, when the client accepts it (q=0 refuses). */
export function chosenEncoding(acceptEncoding: string | null): "br" | "gzip" | undefined {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (q === undefined || Number(q) > 0) accepted.add(name.trim());
  }
  if (accepted.has("br")) return "br";
  if (accepted.has("gzip") || accepted.has("*")) return "gzip";
  return undefined;
}

async function compressed(response: Response, event: H3Event): Promise<Response | undefined> {
  if (response.status !== 200 || !response.body || event.req.method !== "GET") return undefined;
  const headers = response.headers;
  if (!headers.get("content-type")?.startsWith("application/json") || headers.has("content-encoding")) return undefined;
  const encoding = chosenEncoding(event.req.headers.get("accept-encoding"));
  if (!encoding) return undefined;
  const body = Buffer.from(await response.arrayBuffer());
  const out = new Headers(headers);
  out.append("vary", "accept-encoding");
  if (body.length < MIN_BYTES) return new Response(body, { status: 200, headers: out });
  const packed =
    encoding === "br"
      ? await brotliAsync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } })
      : await gzipAsync(body, { level: 6 });
  out.set("content-encoding", encoding);
  out.set("content-length", String(packed.length));
  return new Response(new Uint8Array(packed), { status: 200, headers: out });
}

export const compressJson = onResponse((response, event) => compressed(response, event));
