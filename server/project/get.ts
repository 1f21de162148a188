/**
 * One asset into a project folder: `asset-search get` and the MCP tool `download_asset`.
 *
 * The layout is the zip's (server/download/zip.ts): `<dir>/<provider>-<slug>/` with each selected
 * file at its root, its companions at their relative paths and LICENSE.txt. The lock file
 * (`assets.lock.json`, core/schemas/lock.ts) sits in the project folder `root`, beside `<dir>`.
 *
 * All or nothing per asset: every path is checked before the first byte (server/project/paths.ts),
 * each file is downloaded to a temporary name beside its place while its sha256 is computed, and
 * only when every file has arrived are they renamed into place and the lock entry written. A
 * failure (a site that fails mid-file, the size cap) removes the temporary files: no partial file
 * under a final name, no lock entry.
 *
 * Nothing is fetched twice: a file whose bytes on disk still have the sha256 the lock records for
 * the same path and URL stays; and when the lock already holds the asset with the same options and
 * every file matches, nothing at all is asked upstream.
 */
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { UpstreamError } from "../../core/http/types.ts";
import { attributionLine } from "../../core/model/license.ts";
import { type AssetFile, type DownloadResult, type FileParams, LOCK_FILENAME, type LockedAsset, type LockedOptions } from "../../core/schemas/index.ts";
import { CREDITS_FILENAME, creditsText, planZip } from "../download/zip.ts";
import { ApiError, sourceFailure } from "../errors.ts";
import { overTheCap } from "../service/delivery.ts";
import type { AssetLibrary } from "./library.ts";
import { readLock, updateLock } from "./lock-file.ts";
import { assertInside, relativeSegments, under } from "./paths.ts";
import { assetDrifts, hashFile } from "./verify.ts";

/** What a download reports as it goes, for a progress bar or plain lines. */
export type Progress =
  | { kind: "start"; id: string; files: number; totalBytes?: number }
  | { kind: "bytes"; path: string; bytes: number }
  | { kind: "file"; path: string; sizeBytes: number; fetched: boolean };

export interface GetOptions {
  /** The project folder: the lock file is here, and nothing is written outside it. */
  root: string;
  /** The folder the assets go to, relative to `root` with `/`. */
  dir: string;
  params: FileParams;
  signal?: AbortSignal;
  onProgress?: (event: Progress) => void;
}

/** The options as the lock keeps them: only those given. */
function lockedOptions(params: Partial<FileParams>): LockedOptions {
  return {
    ...(params.format ? { format: params.format } : {}),
    ...(params.resolution ? { resolution: params.resolution } : {}),
    ...(params.maps?.length ? { maps: params.maps } : {}),
    ...(params.all !== undefined ? { all: params.all } : {}),
  };
}

const sameOptions = (a: LockedOptions, b: LockedOptions) => JSON.stringify(lockedOptions(a)) === JSON.stringify(lockedOptions(b));

/** Refuses the selection when an upstream file name or companion path would climb out of the asset's folder (zip-slip). */
function checkUpstreamNames(provider: string, files: AssetFile[]): void {
  for (const file of files) {
    relativeSegments(file.filename, `the file name from ${provider}`);
    for (const include of file.includes ?? []) relativeSegments(include.path, `the companion path from ${provider}`);
  }
}

/** Streams `url` into `temp`, counting and hashing; `budget` is what the cap still allows. */
async function fetchTo(library: AssetLibrary, url: string, temp: string, path: string, budget: number, options: GetOptions) {
  const hash = createHash("sha256");
  let sizeBytes = 0;
  let res: Awaited<ReturnType<AssetLibrary["http"]["stream"]>>;
  try {
    res = await library.http.stream(url, options.signal ? { signal: options.signal } : {});
  } catch (err) {
    throw err instanceof UpstreamError ? sourceFailure(err) : err;
  }
  const tooLarge = () => new ApiError(413, `the selection is larger than the cap of ${library.maxBytes} bytes; pick a lower resolution or fewer files`);
  if (res.sizeBytes !== undefined && res.sizeBytes > budget) {
    res.body.destroy();
    throw tooLarge();
  }
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      sizeBytes += chunk.length;
      if (sizeBytes > budget) return done(tooLarge());
      hash.update(chunk);
      options.onProgress?.({ kind: "bytes", path, bytes: chunk.length });
      done(null, chunk);
    },
  });
  let bodyError: Error | undefined;
  res.body.once("error", (err: Error) => (bodyError = err));
  try {
    await pipeline(res.body, count, createWriteStream(temp, { flags: "wx" }));
  } catch (err) {
    // The site's failure (a reset, a body cut short) says so; a local one (a full disk) is itself.
    if (err instanceof UpstreamError) throw sourceFailure(err);
    if (err === bodyError) throw sourceFailure(new UpstreamError(`${url} failed mid-body: ${(err as Error).message}`, url, "network"));
    throw err;
  }
  return { sha256: hash.digest("hex"), sizeBytes };
}

/** The lock entry's files, if every one is still on disk with its locked bytes. */
async function upToDate(root: string, entry: LockedAsset): Promise<boolean> {
  return (await assetDrifts(root, entry)).every((d) => d.kind === "extra");
}

export async function getAsset(library: AssetLibrary, id: string, options: GetOptions): Promise<DownloadResult> {
  const root = await realpath(options.root).catch(() => {
    throw new ApiError(400, `the project folder ${options.root} does not exist`);
  });
  const dir = relativeSegments(options.dir, "folder");
  const lockPath = join(root, LOCK_FILENAME);
  const wanted = lockedOptions(options.params);
  const previous = (await readLock(lockPath)).assets.find((a) => a.id === id);
  const dirPrefix = dir.length ? `${dir.join("/")}/` : "";

  const answer = (entry: LockedAsset, fetched: Set<string>, upToDate: boolean): DownloadResult => {
    const attribution = attributionLine(entry.title, entry.author, entry.license, entry.url);
    return {
      id: entry.id,
      folder: entry.folder,
      lockFile: LOCK_FILENAME,
      upToDate,
      ...(entry.license ? { license: entry.license } : {}),
      ...(attribution ? { attribution } : {}),
      files: entry.files.map((f) => ({ ...f, fetched: fetched.has(f.path) })),
    };
  };

  if (previous && sameOptions(previous.options, wanted) && previous.folder.startsWith(dirPrefix) && (await upToDate(root, previous))) {
    await assertInside(root, join(root, previous.folder), `folder '${previous.folder}'`);
    const totalBytes = previous.files.reduce((sum, f) => sum + f.sizeBytes, 0);
    options.onProgress?.({ kind: "start", id: previous.id, files: previous.files.length, totalBytes });
    for (const f of previous.files) options.onProgress?.({ kind: "file", path: f.path, sizeBytes: f.sizeBytes, fetched: false });
    return answer(previous, new Set(), true);
  }

  const { details, files } = await library.choose(id, options.params, options.signal);
  checkUpstreamNames(details.provider, files);
  const plan = planZip(details, files);
  // Every byte comes through here, a lone file's too: the cap the delivery puts on zips holds for it.
  const tooLarge = overTheCap(plan.totalBytes, library.maxBytes);
  if (tooLarge) throw tooLarge;
  const folder = [...dir, plan.folder];
  const targets = plan.entries.map((e) => ({ ...e, ...under(root, [...folder, ...relativeSegments(e.path, `the file name from ${details.provider}`)]) }));
  const license = under(root, [...folder, CREDITS_FILENAME]);
  for (const t of [...targets, license]) await assertInside(root, t.path, `'${t.rel}'`);

  options.onProgress?.({ kind: "start", id: details.id, files: targets.length, ...(plan.totalBytes !== undefined ? { totalBytes: plan.totalBytes } : {}) });
  const staged: { temp: string; final: string }[] = [];
  const written: LockedAsset["files"] = [];
  const fetched = new Set<string>();
  let spent = 0;
  const stage = async (final: string) => {
    await mkdir(dirname(final), { recursive: true });
    // Checked again once the folders exist: a link put in place meanwhile is still caught.
    await assertInside(root, dirname(final), `'${dirname(final)}'`);
    const temp = join(dirname(final), `.${basename(final)}.${randomBytes(4).toString("hex")}.part`);
    staged.push({ temp, final });
    return temp;
  };
  try {
    for (const t of targets) {
      const known = previous?.files.find((f) => f.path === t.rel && f.url === t.url);
      const onDisk = known ? await hashFile(t.path) : undefined;
      if (known && onDisk?.sha256 === known.sha256) {
        written.push(known);
        options.onProgress?.({ kind: "file", path: t.rel, sizeBytes: known.sizeBytes, fetched: false });
        continue;
      }
      const got = await fetchTo(library, t.url, await stage(t.path), t.rel, library.maxBytes - spent, options);
      spent += got.sizeBytes;
      written.push({ path: t.rel, url: t.url, ...got });
      fetched.add(t.rel);
      options.onProgress?.({ kind: "file", path: t.rel, sizeBytes: got.sizeBytes, fetched: true });
    }
    await writeFile(await stage(license.path), creditsText(details, files), { flag: "wx" });
    for (const { temp, final } of staged) await rename(temp, final);
  } catch (err) {
    await Promise.all(staged.map(({ temp }) => rm(temp, { force: true })));
    throw err;
  }

  // Files of the previous selection that this one no longer has, unless someone changed them.
  const kept = new Set(written.map((f) => f.path));
  for (const old of previous?.files ?? []) {
    if (kept.has(old.path)) continue;
    if ((await hashFile(join(root, old.path)))?.sha256 === old.sha256) await rm(join(root, old.path), { force: true });
  }

  const entry: LockedAsset = {
    id: details.id,
    title: details.title,
    url: details.url,
    provider: details.provider,
    ...(details.author ? { author: details.author } : {}),
    ...(details.license ? { license: details.license } : {}),
    ...(details.price ? { price: details.price } : {}),
    folder: folder.join("/"),
    options: wanted,
    downloadedAt: new Date().toISOString(),
    files: written,
  };
  await updateLock(lockPath, (assets) => assets.set(entry.id, entry));
  return answer(entry, fetched, false);
}
