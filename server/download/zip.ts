/**
 * The streamed zip of a multi-file download.
 *
 * Layout: `<provider>-<slug>/` holding each selected file at the folder root, its companion files
 * (`includes`) at their relative paths, and `LICENSE.txt` with the credits, so a glTF opens as
 * extracted. Entries are fetched one after another, each only when yazl needs its data, so one
 * download holds at most one upstream request open.
 *
 * Failure after the first byte: the route has already sent `200` and the headers, so a failing
 * entry (upstream error, size cap, client gone) can only end the response early. The output stream
 * is destroyed with the error instead of ending cleanly: the client gets a truncated archive with
 * no central directory, which every unzip tool reports as broken, never a zip that silently lacks
 * a file.
 *
 * Each archive cut short is counted (asset_search_download_failures_total, by source and reason)
 * and, unless the client left, logged on stderr as one line naming the asset, the file and the
 * upstream status or failure kind; never the client (address, user agent, query).
 */
import type { PassThrough, Readable } from "node:stream";
import { ZipFile } from "yazl";
import { type HttpClient, UpstreamError } from "../../core/http/types.ts";
import { attributionLine } from "../../core/model/license.ts";
import type { AssetDetails, AssetFile } from "../../core/schemas/index.ts";
import { type Logger, noLog } from "../log.ts";
import type { DownloadFailureReason, Metrics } from "../stats/metrics.ts";

/**
 * zlib's fastest level for the entries that are deflated: on text such as glTF JSON it runs about
 * eight times faster than the default level 6 for archives some 15 % larger (measured with
 * bench/zip.ts), and level 6 can fall under the speed of the network it is meant to spare.
 */
const DEFLATE_LEVEL = 1;

export interface ZipPlan {
  /** The asset zipped and its source id, named by the failure log line and counter. */
  assetId: string;
  provider: string;
  entries: { path: string; url: string; sizeBytes?: number }[];
  folder: string;
  /** Sum of the entries' sizes; undefined when any size is unknown. */
  totalBytes?: number;
}

/** Name of the credits file at the root of the folder. */
export const CREDITS_FILENAME = "LICENSE.txt";

/**
 * Extensions whose content is already compressed: stored (method 0), since deflating them again
 * gains next to nothing and costs CPU on every download. EXR is stored too: nearly every EXR in the
 * wild (Poly Haven's included) is written with ZIP, PIZ or DWA compression, and HDRI EXRs are the
 * largest files served. GLB is stored: its bulk is usually embedded JPEG/PNG textures or Draco /
 * meshopt geometry. Radiance .hdr (RLE only), .bin, .gltf, .obj, .fbx, .blend … are deflated.
 */
const STORED_EXTENSIONS = new Set([
  // images
  "jpg",
  "jpeg",
  "png",
  "webp",
  "gif",
  "avif",
  "heic",
  "jxl",
  "exr",
  "ktx2",
  "basis",
  // archives and compressed containers
  "zip",
  "7z",
  "rar",
  "gz",
  "tgz",
  "bz2",
  "xz",
  "zst",
  "usdz",
  "unitypackage",
  // 3D
  "glb",
  "drc",
  // audio and video
  "mp3",
  "ogg",
  "oga",
  "opus",
  "m4a",
  "aac",
  "flac",
  "mp4",
  "m4v",
  "webm",
  "mov",
  "mkv",
  // fonts
  "woff",
  "woff2",
]);

/** True when the entry is stored (STORE), false when deflated. Decided by the file extension. */
export function isStored(path: string): boolean {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext !== undefined && STORED_EXTENSIONS.has(ext);
}

const slugify = (text: string) => text.toLowerCase().replace(/[^a-z0-9._-]/g, "-");

/**
 * A relative path safe inside the archive: `\` read as `/`; empty, `.` and `..` segments dropped
 * (an upstream include path can never climb out of the folder); control characters replaced.
 */
function safeRelativePath(raw: string): string | undefined {
  const segments = raw
    .replace(/\\/g, "/")
    .split("/")
    .filter((s) => s !== "" && s !== "." && s !== "..")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this replaces in entry names.
    .map((s) => s.replace(/[\u0000-\u001f\u007f]/g, "_"));
  return segments.length ? segments.join("/") : undefined;
}

/** The last segment of a URL's path, decoded; undefined when there is none. */
function urlBasename(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split("/").filter(Boolean).at(-1);
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}

/** Where a selected file itself goes: its filename (last segment only) at the folder root. */
function rootPath(file: AssetFile): string {
  const name = safeRelativePath(file.filename)?.split("/").at(-1) ?? safeRelativePath(urlBasename(file.url) ?? "");
  return name?.split("/").at(-1) ?? "file";
}

/**
 * Lays out the selected files: `<provider>-<slug>/` + each file's filename at the folder root, its
 * `includes` at their relative paths (e.g. `textures/x_2k.jpg`, `scene.bin`), de-duplicated by path
 * (two files sharing a companion: once), plus nothing else. slug = nativeId lower-cased,
 * non [a-z0-9._-] → "-".
 *
 * Paths are de-duplicated first-wins: a later file or include at a path already taken is left out
 * (for the same URL that is the shared companion; for another URL the archive cannot hold both).
 * An upstream file named like the credits file is renamed `source-LICENSE.txt`.
 */
export function planZip(details: AssetDetails, files: AssetFile[]): ZipPlan {
  const folder = `${slugify(details.provider)}-${slugify(details.nativeId)}`;
  const byPath = new Map<string, ZipPlan["entries"][number]>();
  const add = (path: string | undefined, url: string, sizeBytes: number | undefined) => {
    if (!path) return;
    if (path.toLowerCase() === CREDITS_FILENAME.toLowerCase()) path = `source-${path}`;
    if (byPath.has(path)) return;
    byPath.set(path, { path, url, ...(sizeBytes !== undefined ? { sizeBytes } : {}) });
  };
  for (const file of files) {
    add(rootPath(file), file.url, file.sizeBytes);
    for (const include of file.includes ?? []) add(safeRelativePath(include.path), include.url, include.sizeBytes);
  }
  const entries = [...byPath.values()];
  const known = entries.every((e) => e.sizeBytes !== undefined);
  return {
    assetId: details.id,
    provider: details.provider,
    entries,
    folder,
    ...(known ? { totalBytes: entries.reduce((sum, e) => sum + (e.sizeBytes ?? 0), 0) } : {}),
  };
}

/**
 * A licence/credits text (title, source page, author, licence name/url/SPDX, the attribution line
 * when required, and the list of files with their source URLs).
 */
export function creditsText(details: AssetDetails, files: AssetFile[]): string {
  const license = details.license;
  const lines: string[] = [details.title, "=".repeat(Math.max(3, Math.min(details.title.length, 72))), ""];
  lines.push(`Source:      ${details.url}`);
  lines.push(`Provider:    ${details.provider} (id ${details.id})`);
  if (details.author) lines.push(`Author:      ${details.author}`);
  if (license) {
    lines.push(`Licence:     ${license.name}`);
    if (license.url) lines.push(`Licence URL: ${license.url}`);
    if (license.spdx) lines.push(`SPDX:        ${license.spdx}`);
    if (license.commercialUse !== undefined) lines.push(`Commercial use: ${license.commercialUse ? "allowed" : "not allowed"}`);
    if (license.attributionRequired !== undefined) lines.push(`Attribution:    ${license.attributionRequired ? "required" : "not required"}`);
  } else {
    lines.push("Licence:     unknown: check the source page before using these files.");
  }
  const credit = attributionLine(details.title, details.author, license, details.url);
  if (credit) lines.push("", "Credit line (the licence requires attribution):", credit);
  lines.push("", "Files (path in this folder, then where it was downloaded from):");
  for (const entry of planZip(details, files).entries) lines.push(`  ${entry.path}`, `    ${entry.url}`);
  lines.push("", "The licence above is the one the source site states for this asset; the source page is authoritative.", "");
  return lines.join("\n");
}

/** The total size of the download went over the cap (before or while streaming). */
export class ZipTooLargeError extends Error {
  constructor(
    readonly limitBytes: number,
    /** The size announced or counted so far when the cap was hit (a lower bound of the real total). */
    readonly actualBytes?: number,
  ) {
    super(`the download is larger than the limit of ${limitBytes} bytes${actualBytes !== undefined ? ` (at least ${actualBytes} bytes)` : ""}`);
    this.name = "ZipTooLargeError";
  }
}

export interface StreamZipOptions {
  http: HttpClient;
  /** Cap on the upstream bytes of all entries together (the credits file is not counted). */
  maxBytes: number;
  /** The client went away: abort the current upstream request and stop. */
  signal?: AbortSignal;
  /** Where an archive cut short is counted; without it, it is only logged. */
  metrics?: Metrics;
  /** Where an archive cut short is logged (server/log.ts); unset = nowhere. */
  log?: Logger;
}

/**
 * Streams the zip with yazl. Each entry is added with `addReadStreamLazy`, whose callback yazl
 * calls only when it starts writing that entry, i.e. after the previous entry's data is written;
 * only then does the upstream request start. STORE for already-compressed formats (`isStored`),
 * DEFLATE otherwise. `LICENSE.txt` (the credits) is the first entry.
 *
 * ZIP64: not forced. yazl switches each entry's data descriptor and central directory record to
 * ZIP64 on its own once a size or an offset passes 0xfffffffe, and writes the ZIP64 end records
 * when the archive needs them, all decided after the data is written, so archives over 4 GiB are
 * valid without knowing sizes up front. Forcing it would make every small download unreadable by
 * tools without ZIP64 support (macOS Archive Utility) for no gain.
 *
 * Upstream sizes are not passed to yazl (`size`): a stale size from a source's API would fail an
 * otherwise good download.
 *
 * The output is destroyed with an error when: an upstream request or body fails (UpstreamError),
 * the bytes of all entries pass `maxBytes` (ZipTooLargeError; an announced content-length that
 * would pass it fails before the body is read), or `signal` aborts (its reason). In every case the
 * current upstream request is aborted and no further entry is requested. Destroying the returned
 * stream (e.g. by `pipeline` when the response closes) does the same.
 */
export function streamZip(plan: ZipPlan, credits: string, options: StreamZipOptions): Readable {
  return streamArchive([plan], [{ path: `${plan.folder}/${CREDITS_FILENAME}`, text: credits }], options);
}

/** Name of the one credits file at the root of a multi-asset zip (`GET /v1/download`). */
export const KIT_CREDITS_FILENAME = "CREDITS.txt";

/**
 * Several assets in one zip (`GET /v1/download`): each in its own folder as `streamZip` lays it
 * out but without a LICENSE.txt, and one `CREDITS.txt` at the root for all of them, first. The
 * same cap (over all assets together), abort and failure handling as `streamZip`.
 */
export function streamKit(plans: ZipPlan[], credits: string, options: StreamZipOptions): Readable {
  return streamArchive(plans, [{ path: KIT_CREDITS_FILENAME, text: credits }], options);
}

/** The archive of `plans`, the generated `texts` first. */
function streamArchive(plans: ZipPlan[], texts: { path: string; text: string }[], options: StreamZipOptions): Readable {
  const { http, maxBytes, signal, metrics, log = noLog } = options;
  const zip = new ZipFile();
  const out = zip.outputStream as PassThrough;
  const mtime = new Date();
  let counted = 0;
  let current: AbortController | undefined;
  let stopped = false;
  let ended = false;
  /** The entry being fetched and its asset: what the failure log line names. */
  let currentPath: string | undefined;
  let currentPlan = plans[0]!;

  const stop = (err?: Error, reason?: DownloadFailureReason) => {
    if (stopped) return;
    stopped = true;
    signal?.removeEventListener("abort", onAbort);
    current?.abort(err);
    if (reason) reportFailure(currentPlan, currentPath, reason, err, log, metrics);
    if (err && !out.destroyed) out.destroy(err);
  };
  const fail = (err: Error) => stop(err, failureReason(err));
  const onAbort = () => stop(abortReason(signal), "client_gone");

  zip.on("error", fail);
  out.once("end", () => (ended = true));
  // Ended, or destroyed by the consumer (the response closed: the client left): release the upstream request.
  out.once("close", () => stop(undefined, ended ? undefined : "client_gone"));

  for (const { path, text } of texts) zip.addBuffer(Buffer.from(text, "utf8"), path, { mtime, compress: true });
  for (const plan of plans) {
    for (const entry of plan.entries) {
      const path = `${plan.folder}/${entry.path}`;
      zip.addReadStreamLazy(path, { mtime, compressionLevel: isStored(entry.path) ? 0 : DEFLATE_LEVEL }, (cb) => {
        if (stopped) return;
        currentPath = path;
        currentPlan = plan;
        const controller = new AbortController();
        current = controller;
        http.stream(entry.url, { signal: controller.signal }).then(
          (res) => {
            if (stopped) {
              res.body.destroy();
              return;
            }
            if (res.sizeBytes !== undefined && counted + res.sizeBytes > maxBytes) {
              res.body.destroy();
              fail(new ZipTooLargeError(maxBytes, counted + res.sizeBytes));
              return;
            }
            res.body.on("error", (err: Error) => fail(bodyError(err, entry.url, controller.signal)));
            // Finished: nothing left to abort when the archive ends or the client leaves later.
            res.body.once("end", () => {
              if (current === controller) current = undefined;
            });
            cb(null, res.body);
            // Counted beside yazl's pipe rather than by a stream in front of it: each chunk reaches
            // yazl as the socket gave it, with no copy and no extra stream to cross.
            res.body.on("data", (chunk: Buffer) => {
              counted += chunk.length;
              if (counted > maxBytes) fail(new ZipTooLargeError(maxBytes, counted));
            });
          },
          (err: unknown) => fail(err instanceof Error ? err : new Error(String(err))),
        );
      });
    }
  }
  zip.end();

  if (signal?.aborted) queueMicrotask(onAbort);
  else signal?.addEventListener("abort", onAbort, { once: true });
  const sizes = plans.map((p) => p.totalBytes);
  const total = sizes.every((t) => t !== undefined) ? sizes.reduce<number>((a, b) => a + (b ?? 0), 0) : undefined;
  if (total !== undefined && total > maxBytes) {
    const err = new ZipTooLargeError(maxBytes, total);
    queueMicrotask(() => fail(err));
  }
  return out;
}

function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason;
  return Object.assign(new Error("the download was aborted"), { name: "AbortError" });
}

/** A failure while reading an upstream body, as an UpstreamError naming the URL. */
function bodyError(err: Error, url: string, signal: AbortSignal): Error {
  if (err instanceof UpstreamError) return err;
  // Our own abort (size cap, client gone): `stop` already holds the real reason.
  if (signal.aborted) return err;
  const code = (err as { code?: string }).code;
  // The client's idle timeout between body chunks (UND_ERR_BODY_TIMEOUT) is a timeout, not a broken connection.
  const kind = code && /TIMEOUT/.test(code) ? "timeout" : "network";
  return new UpstreamError(`${url} failed mid-body: ${err.message}`, url, kind, undefined, undefined, code);
}

/** The bounded reason of a failure that cut an archive short. */
function failureReason(err: Error): DownloadFailureReason {
  if (err instanceof ZipTooLargeError) return "size_cap";
  if (!(err instanceof UpstreamError)) return "other";
  switch (err.kind) {
    case "http":
      return "upstream_http";
    case "network":
      return "upstream_network";
    case "timeout":
      return "timeout";
    case "blocked":
      return "blocked";
    default:
      return "other";
  }
}

/** What says why: the upstream status or socket code, the cap, or (unexpected errors) the message. */
function failureDetail(reason: DownloadFailureReason, err: Error | undefined): Record<string, string | number> {
  if (err instanceof UpstreamError && err.status !== undefined) return { upstreamStatus: err.status };
  if (err instanceof UpstreamError && err.code) return { code: err.code };
  if (err instanceof ZipTooLargeError) return { limitBytes: err.limitBytes };
  if (reason === "other" && err) return { error: err.message.slice(0, 200) };
  return {};
}

/**
 * Counts an archive cut short and logs it as one `download_failed` line: the asset, the entry and
 * why, nothing of the client. The client leaving is counted, not logged: it is no failure of an entry.
 */
function reportFailure(plan: ZipPlan, path: string | undefined, reason: DownloadFailureReason, err: Error | undefined, log: Logger, metrics?: Metrics): void {
  metrics?.downloadFailure(plan.provider, reason);
  if (reason === "client_gone") return;
  const fields = { event: "download_failed", asset: plan.assetId, ...(path ? { file: path } : {}), reason, ...failureDetail(reason, err) };
  log.warn(fields, "download: zip cut short");
}
