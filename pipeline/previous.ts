import { buffer } from "node:stream/consumers";
import type { HttpClient } from "../core/http/types.ts";
import { UpstreamError } from "../core/http/types.ts";
import {
  loadPublished,
  META_FILE,
  PUBLICATION_VERSION,
  PUBLISHED_FILES,
  type Published,
  parseMeta,
  parseSet,
  type SetFiles,
} from "../core/publication/published.ts";

/** Where the previous publication is read: DATA_DIR's live set, or a publication's base URL. */
export type PreviousFrom = { dataDir: string } | { url: string; http: HttpClient };

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A file's bytes, or undefined when the server says it has none (404). */
async function fetchBytes(http: HttpClient, url: string): Promise<Buffer | undefined> {
  try {
    const res = await http.stream(url);
    return await buffer(res.body);
  } catch (err) {
    if (err instanceof UpstreamError && err.status === 404) return undefined;
    throw err;
  }
}

/**
 * The publication under `<base>/v1/`: its meta first, then each file, checked against the meta's
 * sha256. No meta (404) is a first run; anything else that fails (a network error, a missing or
 * altered file) throws, so a run never starts afresh by mistake and drops the history.
 */
export async function fetchPublication(base: string, http: HttpClient): Promise<Published | undefined> {
  const dir = `${base}/v${PUBLICATION_VERSION}`;
  const metaBytes = await fetchBytes(http, `${dir}/${META_FILE}`);
  if (metaBytes === undefined) return undefined;
  const meta = parseMeta(metaBytes);
  const files = {} as SetFiles;
  for (const [key, name] of Object.entries(PUBLISHED_FILES) as [keyof SetFiles, string][]) {
    const bytes = await fetchBytes(http, `${dir}/${name}`);
    if (bytes === undefined) throw new Error(`${dir}/${name} is missing (HTTP 404) although ${META_FILE} lists it`);
    files[key] = bytes;
  }
  return parseSet(files, meta);
}

/** The previous publication, or undefined on a first run. */
export async function readPrevious(from: PreviousFrom, log: (line: string) => void): Promise<Published | undefined> {
  if ("url" in from) {
    const previous = await fetchPublication(from.url, from.http);
    log(previous ? `previous publication: ${from.url} built ${previous.meta?.builtAt}` : `no publication at ${from.url} yet: first run`);
    return previous;
  }
  try {
    return loadPublished(from.dataDir);
  } catch (err) {
    log(`previous data in ${from.dataDir} is unreadable (${message(err).slice(0, 300)}); starting afresh`);
    return undefined;
  }
}
