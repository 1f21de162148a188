/**
 * A static file served from memory the way a CDN serves it: strong ETag, Last-Modified,
 * Cache-Control, gzip and brotli when the client accepts them (compressed once per file, never per
 * request), 304 on revalidation and HEAD. h3's serveStatic does the negotiation and the
 * conditional request; this module only holds the bytes of each representation.
 */
import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { type H3Event, serveStatic } from "h3";

/** Node's buffers are views of plain ArrayBuffers (never shared ones), as a Response body needs. */
type Bytes = Uint8Array<ArrayBuffer>;

/** One representation of a file: its bytes and the validator that names exactly them. */
interface Representation {
  body: Bytes;
  etag: string;
}

export interface StaticFile {
  type: string;
  /** Last-Modified; a file without one is revalidated by its ETag only. */
  modified?: Date;
  /** sha256 of the identity bytes, hex: the file's ETag, and what index.meta.json lists. */
  sha256: string;
  identity: Representation;
  /** Absent for a file that is compressed already (index.json.gz): compressing it again gains nothing. */
  br?: Representation;
  gzip?: Representation;
}

/**
 * Why these caches: the files change at most once a day, when a new set goes live. Five minutes
 * bounds how long a cache may hand out the previous set; after that `must-revalidate` makes it ask
 * again, and the ETag turns the question into a 304 without a body.
 */
export const DATA_CACHE = "public, max-age=300, must-revalidate";
/** The JSON Schemas change only with the server's code. */
export const SCHEMA_CACHE = "public, max-age=3600, must-revalidate";

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The file's representations. Compression runs on zlib's thread pool, not the event loop, so a
 * large set compressed on its first request does not stall the others. Each encoded
 * representation has its own strong ETag (RFC 9110 §8.8.3: different bytes, different tag),
 * derived from the identity bytes' sha256 so it follows the file and can be told from it.
 */
export async function staticFile(bytes: Uint8Array, options: { type: string; modified?: Date; compress: boolean }): Promise<StaticFile> {
  const hash = sha256(bytes);
  const file: StaticFile = {
    type: options.type,
    ...(options.modified ? { modified: options.modified } : {}),
    sha256: hash,
    identity: { body: bytes as Bytes, etag: `"${hash}"` },
  };
  if (!options.compress) return file;
  const [br, gz] = await Promise.all([
    brotliAsync(bytes, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
    gzipAsync(bytes, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { ...file, br: { body: br as Bytes, etag: `"${hash}-br"` }, gzip: { body: gz as Bytes, etag: `"${hash}-gzip"` } };
}

/** The suffixes h3's serveStatic appends to the path to ask for an encoded representation, best first. */
const ENCODINGS = { br: ".br", gzip: ".gz" } as const;

/**
 * Answers a GET or HEAD with `file`: the representation the Accept-Encoding prefers (q=0 refuses
 * one; none accepted gives the identity bytes), `Vary: Accept-Encoding` when there is a choice,
 * and a 304 without a body when If-None-Match (or, without it, If-Modified-Since) still holds.
 */
export function serveFile(event: H3Event, file: StaticFile, cacheControl: string): Promise<unknown> {
  // serveStatic asks for `<path>.br`, then `<path>.gz` (those the client accepts), then `<path>`;
  // a file without encodings is asked for by its own name only, which may end in .gz.
  const pick = (id: string): [Representation, string | undefined] => {
    if (file.br && id.endsWith(ENCODINGS.br)) return [file.br, "br"];
    if (file.gzip && id.endsWith(ENCODINGS.gzip)) return [file.gzip, "gzip"];
    return [file.identity, undefined];
  };
  return serveStatic(event, {
    headers: { "cache-control": cacheControl },
    ...(file.br ? { encodings: ENCODINGS } : {}),
    indexNames: [],
    getMeta: (id) => {
      const [representation, encoding] = pick(id);
      return {
        type: file.type,
        size: representation.body.length,
        ...(file.modified ? { mtime: file.modified } : {}),
        etag: representation.etag,
        ...(encoding ? { encoding } : {}),
      };
    },
    getContents: (id) => pick(id)[0].body,
  });
}
