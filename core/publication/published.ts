import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { z } from "zod";
import { AssetIndex } from "../index/search-index.ts";
import { Catalog, CatalogHistory } from "../schemas/index.ts";

/** The static files the pipeline publishes, loaded once at start. */
export interface Published {
  index: AssetIndex;
  catalog: Catalog | undefined;
  history: CatalogHistory;
  /** `index.meta.json`, absent from sets written before it existed. */
  meta?: IndexMeta;
}

/** The files of one published set. */
export const PUBLISHED_FILES = { catalog: "catalog.json", history: "catalog-history.json", index: "index.json.gz" } as const;

/**
 * The server's index file (core/index/file.ts), next to `index.json.gz` in the sets written since
 * it exists: the same index, read in place. `index.json.gz` stays the portable, browser-sized form.
 */
export const INDEX_FILE = "index.db";

/**
 * The version of the published files' formats: the publication's URL path is `/v<version>/`, and
 * `index.meta.json` says it. A change a reader of the previous version would misread takes a new one.
 */
export const PUBLICATION_VERSION = 1;

/** The meta file of a publication, next to the files it describes. */
export const META_FILE = "index.meta.json";

const FileInfo = z.object({ bytes: z.int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) });

/** `index.meta.json`: what a reader needs to trust and read a publication (format, engine, counts, checksums). */
export const IndexMeta = z
  .object({
    format: z.literal(PUBLICATION_VERSION).describe("version of the published formats; also the /v<format>/ of their URLs"),
    builtAt: z.iso.datetime().describe("when the pipeline built the files (SOURCE_DATE_EPOCH when set)"),
    engine: z
      .object({
        name: z.string().describe("how index.json.gz is searched: its records are analysed when loaded"),
        analysis: z.record(z.string(), z.unknown()).describe("the text analysis options a reader must apply to match the server"),
      })
      .describe("the search engine and analysis the index is meant for"),
    counts: z.object({
      assets: z.int().min(0),
      sources: z.record(z.string(), z.int().min(0)).describe("indexed assets per source id"),
    }),
    files: z.record(z.string(), FileInfo).describe("every other file of the publication by name, with its size and sha256"),
    indexFile: z
      .object({
        name: z.literal(INDEX_FILE),
        format: z.int().min(1).describe("the version of its layout, also in its own meta table"),
        engine: z.string().describe("what the file is and how it is read"),
      })
      .optional()
      .describe("the server's index file, when the set has one (sets written before it have only index.json.gz)"),
  })
  .meta({ id: "IndexMeta" });
export type IndexMeta = z.infer<typeof IndexMeta>;
export type FileInfo = z.infer<typeof FileInfo>;

/** A file's size and sha256, as `index.meta.json` lists it. */
export const fileInfo = (content: string | Buffer): FileInfo => ({
  bytes: Buffer.byteLength(content),
  sha256: createHash("sha256").update(content).digest("hex"),
});

/** Reads `bytes` as JSON checked by `schema`, or throws naming the file. */
function parseJson<T>(name: string, bytes: Buffer, schema: z.ZodType<T>): T {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString("utf8"));
  } catch (err) {
    throw new Error(`${name} is not JSON: ${(err as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new Error(`${name} does not match its schema: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The meta file, refused before anything else when its format is not the one this code reads. */
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

/** What the meta says of one file of the set; a meta without it cannot vouch for the file. */
export function listedFile(meta: IndexMeta, name: string): FileInfo {
  const info = meta.files[name];
  if (!info) throw new Error(`${META_FILE} lists no size and sha256 for ${name}`);
  return info;
}

/** Throws, naming the file, unless `content` is the file `name` the meta lists (size and sha256). */
export const checkFile = (meta: IndexMeta, name: string, content: Buffer): void => checkFileInfo(meta, name, fileInfo(content));

/** As checkFile, from the size and sha256 of a file read elsewhere (a download hashed as it came). */
export function checkFileInfo(meta: IndexMeta, name: string, got: FileInfo): void {
  const want = listedFile(meta, name);
  if (got.bytes !== want.bytes || got.sha256 !== want.sha256) {
    throw new Error(
      `${name} does not match ${META_FILE}: ${got.bytes} bytes with sha256 ${got.sha256}, expected ${want.bytes} bytes with sha256 ${want.sha256}`,
    );
  }
}

/** The content of each file of a set, by the keys of PUBLISHED_FILES. */
export type SetFiles = Record<keyof typeof PUBLISHED_FILES, Buffer>;
/** A set's JSON documents: all of its files but the index. */
export type SetDocuments = Omit<SetFiles, "index">;

const SET_KEYS = Object.keys(PUBLISHED_FILES) as (keyof SetFiles)[];

/**
 * A set's files, all read at once, each by its name (from a folder, or a publication's URL);
 * `index.json.gz` is left out when the meta lists an index file, which is opened in place instead.
 */
export async function readSetFiles(read: (name: string) => Promise<Buffer>, meta: IndexMeta | undefined): Promise<SetFiles | SetDocuments> {
  const keys = meta?.indexFile ? SET_KEYS.filter((key) => key !== "index") : SET_KEYS;
  const bodies = await Promise.all(keys.map((key) => read(PUBLISHED_FILES[key])));
  return Object.fromEntries(keys.map((key, i) => [key, bodies[i]])) as SetFiles | SetDocuments;
}

/**
 * A set's index file, opened in place once its size is the meta's: its sha256 is not checked here,
 * since that would read all of a large file before the first answer (a download checks it as it comes).
 */
export function openIndexFile(path: string, meta: IndexMeta): AssetIndex {
  const want = listedFile(meta, INDEX_FILE).bytes;
  const got = existsSync(path) ? statSync(path).size : undefined;
  if (got !== want) throw new Error(`${INDEX_FILE} does not match ${META_FILE}: ${got ?? "no"} bytes, expected ${want} bytes`);
  return AssetIndex.open(path);
}

/**
 * Reading a set, step by step: the files checked against the meta (when there is one: sets
 * written before the meta have none), the JSON documents, then the index. Each `yield` is a
 * point where a server may answer requests before the next step of this CPU work.
 */
function* setSteps(files: SetFiles | SetDocuments, meta: IndexMeta | undefined, openIndex?: () => AssetIndex): Generator<void, Published> {
  if (meta) for (const key of SET_KEYS) if (key in files) checkFile(meta, PUBLISHED_FILES[key], (files as SetFiles)[key]);
  yield;
  const catalog = parseJson(PUBLISHED_FILES.catalog, files.catalog, Catalog);
  const history = parseJson(PUBLISHED_FILES.history, files.history, CatalogHistory);
  yield;
  let index: AssetIndex;
  try {
    index = openIndex ? openIndex() : AssetIndex.deserialize((files as SetFiles).index);
  } catch (err) {
    throw new Error(`${openIndex ? INDEX_FILE : PUBLISHED_FILES.index} could not be read: ${(err as Error).message}`);
  }
  yield;
  return { index, catalog, history, ...(meta ? { meta } : {}) };
}

/** Reads a set's files, each checked against the meta first when there is one. */
export function parseSet(files: SetFiles, meta?: IndexMeta): Published {
  return runSteps(setSteps(files, meta));
}

function runSteps(steps: Generator<void, Published>): Published {
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * As parseSet, each step in a turn of its own, so requests that arrived meanwhile are answered
 * between them. With `indexPath` (the set's index file, local) the index is opened in place.
 */
export async function parseSetInTurns(files: SetFiles | SetDocuments, meta: IndexMeta | undefined, indexPath?: string): Promise<Published> {
  if (indexPath && !meta) throw new Error(`an index file comes with the ${META_FILE} that lists it`);
  const steps = setSteps(files, meta, indexPath && meta ? () => openIndexFile(indexPath, meta) : undefined);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await nextTurn();
  }
}

/**
 * Layout of DATA_DIR: each pipeline run writes a complete set to `sets/<name>/`, then names it in
 * `current.json`, so a reader switches from one whole set to the next at once.
 */
export const SETS_DIR = "sets";
export const CURRENT_FILE = "current.json";

/** `current.json`. The name is a plain folder name, so the pointer cannot lead out of `sets/`. */
const SetPointer = z.object({ set: z.string().regex(/^[A-Za-z0-9-]+$/) });

/** The set `current.json` names, or undefined when DATA_DIR has no pointer (fresh, or the loose layout). */
export function currentSet(dataDir: string): string | undefined {
  const path = join(dataDir, CURRENT_FILE);
  return existsSync(path) ? SetPointer.parse(JSON.parse(readFileSync(path, "utf8"))).set : undefined;
}

/**
 * A set named by the pointer has all its files, written before the pointer: a missing one is
 * damage, as is a file that does not match the meta. Sets written before the meta have none.
 * The index file, when the meta lists one, is opened in place rather than `index.json.gz` read.
 */
function loadSet(dir: string): Published {
  const metaPath = join(dir, META_FILE);
  const meta = existsSync(metaPath) ? parseMeta(readFileSync(metaPath)) : undefined;
  const read = (name: string) => readFileSync(join(dir, name));
  const documents = { catalog: read(PUBLISHED_FILES.catalog), history: read(PUBLISHED_FILES.history) };
  if (meta?.indexFile) return runSteps(setSteps(documents, meta, () => openIndexFile(join(dir, INDEX_FILE), meta)));
  return parseSet({ ...documents, index: read(PUBLISHED_FILES.index) }, meta);
}

/** The layout before sets (loose files in DATA_DIR), still served by existing deployments. */
function loadLoose(dataDir: string): Published {
  const optional = (name: string) => (existsSync(join(dataDir, name)) ? join(dataDir, name) : undefined);
  const index = optional(PUBLISHED_FILES.index);
  const catalog = optional(PUBLISHED_FILES.catalog);
  const history = optional(PUBLISHED_FILES.history);
  return {
    index: index ? AssetIndex.deserialize(readFileSync(index)) : AssetIndex.empty(),
    catalog: catalog ? parseJson(PUBLISHED_FILES.catalog, readFileSync(catalog), Catalog) : undefined,
    history: history ? parseJson(PUBLISHED_FILES.history, readFileSync(history), CatalogHistory) : { points: [] },
  };
}

/** Whether DATA_DIR holds anything published: a pointer to a set, or the loose files of the layout before sets. */
export function hasPublication(dataDir: string): boolean {
  return [CURRENT_FILE, ...Object.values(PUBLISHED_FILES)].some((name) => existsSync(join(dataDir, name)));
}

/**
 * Reads and validates the live set of DATA_DIR: the one `current.json` names, else the loose
 * files. Nothing published gives an empty catalogue; a corrupt or incomplete set fails loudly.
 */
export function loadPublished(dataDir: string): Published {
  const set = currentSet(dataDir);
  return set === undefined ? loadLoose(dataDir) : loadSet(join(dataDir, SETS_DIR, set));
}
