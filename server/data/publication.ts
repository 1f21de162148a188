/**
 * A publication's files as fetched (from DATA_URL or a DATA_DIR set), checked against its
 * `index.meta.json` and read into the data a server answers from.
 */
import { createHash } from "node:crypto";
import { setImmediate as nextTurn } from "node:timers/promises";
import { z } from "zod";
import { IndexMeta, META_FILE, PUBLICATION_VERSION, PUBLISHED_FILES, type Published } from "../../core/published.ts";
import { Catalog, CatalogHistory } from "../../core/schemas/index.ts";
import { AssetIndex } from "../../core/search-index.ts";

/** The files a server reads, by name. */
export const REQUIRED_FILES: readonly string[] = Object.values(PUBLISHED_FILES);

/** The meta file, refused before anything else when its format is not the one this server reads. */
export function parseMeta(bytes: Buffer): IndexMeta {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString("utf8"));
  } catch (err) {
    throw new Error(`${META_FILE} is not JSON: ${(err as Error).message}`);
  }
  const format = (raw as { format?: unknown } | null)?.format;
  if (format !== PUBLICATION_VERSION) {
    throw new Error(`${META_FILE} has format ${JSON.stringify(format)}; this server reads format ${PUBLICATION_VERSION} only`);
  }
  const meta = IndexMeta.safeParse(raw);
  if (!meta.success) throw new Error(`${META_FILE} is not a valid meta file: ${z.prettifyError(meta.error)}`);
  return meta.data;
}

/** What the meta says of one required file; a meta without it cannot vouch for the file. */
export function expectedFile(meta: IndexMeta, name: string): { bytes: number; sha256: string } {
  const info = meta.files[name];
  if (!info) throw new Error(`${META_FILE} lists no size and sha256 for ${name}`);
  return info;
}

/** Every required file has the size and sha256 the meta gives it. */
export function checkFiles(meta: IndexMeta, files: ReadonlyMap<string, Buffer>): void {
  for (const name of REQUIRED_FILES) {
    const { bytes, sha256 } = expectedFile(meta, name);
    const body = files.get(name);
    if (!body) throw new Error(`${name} is missing`);
    if (body.length !== bytes) throw new Error(`${name} has ${body.length} bytes; ${META_FILE} says ${bytes}`);
    const actual = createHash("sha256").update(body).digest("hex");
    if (actual !== sha256) throw new Error(`${name} has sha256 ${actual}; ${META_FILE} says ${sha256}`);
  }
}

function parseJson<T>(name: string, body: Buffer, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(body.toString("utf8"));
  } catch (err) {
    throw new Error(`${name} is not JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${name} does not match its schema: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * Checks the files against the meta (when there is one: DATA_DIR sets written before the meta have
 * none) and reads them. Building the index is synchronous CPU work: each step runs in a turn of its
 * own, so requests that arrived meanwhile are answered between the steps, from the data in service.
 */
export async function readPublication(files: ReadonlyMap<string, Buffer>, meta: IndexMeta | undefined): Promise<Published> {
  if (meta) checkFiles(meta, files);
  const file = (name: string): Buffer => {
    const body = files.get(name);
    if (!body) throw new Error(`${name} is missing`);
    return body;
  };
  await nextTurn();
  const catalog = parseJson(PUBLISHED_FILES.catalog, file(PUBLISHED_FILES.catalog), Catalog);
  const history = parseJson(PUBLISHED_FILES.history, file(PUBLISHED_FILES.history), CatalogHistory);
  await nextTurn();
  let index: AssetIndex;
  try {
    index = AssetIndex.deserialize(file(PUBLISHED_FILES.index));
  } catch (err) {
    throw new Error(`${PUBLISHED_FILES.index} could not be read: ${(err as Error).message}`);
  }
  await nextTurn();
  return { index, catalog, history };
}
