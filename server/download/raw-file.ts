/**
 * What GET /v1/assets/{id}/raw/{path} (server/routes/raw-file.ts) needs to serve one upstream file
 * from this origin: a media type that never lets upstream bytes act as a page here, a safe file
 * name, and a size cap on the stream.
 */
import { pipeline, type Readable, Transform } from "node:stream";

/** Media types by extension: what previews load (models, textures, HDRIs, audio, fonts). */
const BY_EXTENSION: Record<string, string> = {
  gltf: "model/gltf+json",
  glb: "model/gltf-binary",
  bin: "application/octet-stream",
  obj: "model/obj",
  mtl: "model/mtl",
  stl: "model/stl",
  usdz: "model/vnd.usdz+zip",
  fbx: "application/octet-stream",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  avif: "image/avif",
  ktx2: "image/ktx2",
  tif: "image/tiff",
  tiff: "image/tiff",
  svg: "image/svg+xml",
  hdr: "image/vnd.radiance",
  exr: "image/x-exr",
  mp3: "audio/mpeg",
  ogg: "audio/ogg",
  oga: "audio/ogg",
  opus: "audio/ogg",
  wav: "audio/wav",
  flac: "audio/flac",
  m4a: "audio/mp4",
  aac: "audio/aac",
  woff2: "font/woff2",
  woff: "font/woff",
  ttf: "font/ttf",
  otf: "font/otf",
  txt: "text/plain; charset=utf-8",
  json: "application/json",
  zip: "application/zip",
};

/** Upstream types that are only ever data to a browser; anything else (HTML, XML, script) is sent as bytes. */
const PASSIVE = /^(image\/(?!svg)|audio\/|video\/|font\/|model\/)[\w.+-]+$/;

/**
 * The media type of the file at `path`: by its extension when known (CDNs label .gltf, .hdr and
 * .exr as text/plain or octet-stream), else the upstream's when it is passive, else
 * application/octet-stream. An upstream's text/html is never served from this origin.
 */
export function previewType(path: string, upstream: string | undefined): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  const known = ext === undefined ? undefined : BY_EXTENSION[ext];
  if (known) return known;
  const given = upstream?.split(";")[0]?.trim().toLowerCase();
  return given && PASSIVE.test(given) ? given : "application/octet-stream";
}

/** The file's name for Content-Disposition: its last segment, ASCII letters, digits, `.`, `_` and `-` only. */
export function safeFilename(path: string): string {
  const name = (path.split("/").at(-1) ?? "").replace(/[^A-Za-z0-9._-]/g, "_").replace(/^\.+/, "");
  return name || "file";
}

/**
 * `body` passed on until it has given `maxBytes`; one byte more destroys both streams with an
 * error (the response is cut, as a zip past DOWNLOAD_MAX_BYTES is). Destroying the returned stream
 * (the client left) destroys `body`, which ends the upstream request.
 */
export function capped(body: Readable, maxBytes: number): Readable {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > maxBytes) done(new Error(`the file is larger than this server's preview cap of ${maxBytes} bytes`));
      else done(null, chunk);
    },
  });
  pipeline(body, counter, () => {}); // errors end both streams; the response reports the cut
  return counter;
}
