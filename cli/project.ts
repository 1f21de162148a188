/**
 * The project commands of the command line (cli/main.ts dispatches to them):
 *
 *   asset-search get <id>… [--format F] [--resolution R] [--maps M]… [--all] [--dir assets] [--json]
 *   asset-search credits [--format md|html|txt|json] [--modified <id>]… [--lock assets.lock.json] [--out FILE]
 *   asset-search licenses [--fail-on noncommercial,unknown,attribution] [--lock …] [--json]
 *   asset-search verify [--lock …] [--json]
 *
 * The options of `get` are the parameters of `/v1/assets/{id}/files` (core/schemas/query.ts's
 * FileParams) and those of `credits` the ones of `/v1/credits` (core/schemas/credits.ts): one flag
 * each, with the schema's description, validated by the same schema. Exit codes: 0 fine, 1 a check
 * failed (`licenses --fail-on`, `verify`), 2 bad arguments or a refused asset.
 */
import { dirname, join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import cliProgress from "cli-progress";
import type { z } from "zod";
import type { Config } from "../core/config.ts";
import { failures, summarizeLicenses, writeCredits } from "../core/model/credits.ts";
import { createRuntime } from "../core/model/runtime.ts";
import {
  type CliKind,
  CREDITS_CLI_KINDS,
  CreditsOptions,
  type DownloadResult,
  FAIL_ON,
  type FailOn,
  FILE_CLI_KINDS,
  FileParams,
  LOCK_FILENAME,
} from "../core/schemas/index.ts";
import { ApiError } from "../server/errors.ts";
import { getAsset, type Progress } from "../server/project/get.ts";
import { type AssetLibrary, localLibrary, remoteLibrary } from "../server/project/library.ts";
import { readLock, writeAtomically } from "../server/project/lock-file.ts";
import { verifyLock } from "../server/project/verify.ts";
import { parseParams, queryValues } from "../server/query.ts";
import { createDeps } from "../server/start.ts";

/** `maxPolys` → `max-polys`. */
export const flagName = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

interface SchemaFlag {
  name: string;
  flag: string;
  kind: CliKind;
  description: string;
}

/** One flag per parameter of a query-string schema, with its description. */
const schemaFlags = (schema: z.ZodObject, kinds: Record<string, CliKind>): SchemaFlag[] =>
  Object.entries(kinds).map(([name, kind]) => ({ name, flag: flagName(name), kind, description: (schema.shape[name] as z.ZodType).description ?? "" }));

export const GET_FLAGS = schemaFlags(FileParams, FILE_CLI_KINDS);
export const CREDITS_FLAGS = schemaFlags(CreditsOptions, CREDITS_CLI_KINDS);

export const flagLine = ({ flag, kind, description }: SchemaFlag) =>
  `  ${`    --${flag}${kind === "switch" ? "" : " <value>"}`.padEnd(27)}${description}${kind === "values" ? " (repeat or comma-separate)" : ""}`;

const parseOptions = (flags: SchemaFlag[]) =>
  Object.fromEntries(
    flags.map(({ flag, kind }) => [flag, { type: kind === "switch" ? "boolean" : "string", ...(kind === "values" ? { multiple: true } : {}) }]),
  ) as Record<string, { type: "boolean" | "string"; multiple?: boolean }>;

/** The flags' values under the schema's names, as query-string values, validated by `schema` (a 400 ApiError when bad). */
function fromFlags<S extends z.ZodObject>(flags: SchemaFlag[], values: Record<string, unknown>, schema: S): z.output<S> {
  const given: Record<string, string | boolean | string[] | undefined> = {};
  for (const { name, flag } of flags) given[name] = values[flag] as string | boolean | string[] | undefined;
  return parseParams(queryValues(given), schema);
}

async function print(text: string): Promise<void> {
  await new Promise<void>((done) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`, () => done()));
}

const kib = (bytes: number) =>
  bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

// ---------------------------------------------------------------------------------------------
// get

/** A progress bar on a terminal (stderr), plain lines on stdout otherwise. */
function reporter(json: boolean): { onProgress: (e: Progress) => void; stop: () => void } {
  if (json) return { onProgress: () => {}, stop: () => {} };
  if (!process.stderr.isTTY) {
    return {
      onProgress: (e) => {
        if (e.kind === "file") process.stdout.write(`${e.fetched ? "fetched" : "unchanged"}  ${e.path}  (${kib(e.sizeBytes)})\n`);
      },
      stop: () => {},
    };
  }
  const bar = new cliProgress.SingleBar(
    { stream: process.stderr, format: "{id} [{bar}] {percentage}% | {done}/{files} files | {file}", hideCursor: true, clearOnComplete: true },
    cliProgress.Presets.shades_classic,
  );
  let done = 0;
  // Bytes when the source states every size, else files.
  let byBytes = false;
  return {
    onProgress: (e) => {
      if (e.kind === "start") {
        byBytes = e.totalBytes !== undefined;
        bar.start(e.totalBytes ?? e.files, 0, { id: e.id, files: e.files, done: 0, file: "" });
      } else if (e.kind === "bytes") {
        if (byBytes) bar.increment(e.bytes, { file: e.path });
      } else {
        done += 1;
        if (!byBytes) bar.increment(1, { done, file: e.path });
        else if (!e.fetched) bar.increment(e.sizeBytes, { done });
        else bar.update({ done });
      }
    },
    stop: () => bar.stop(),
  };
}

function library(config: Config): AssetLibrary {
  if (config.serverUrl) return remoteLibrary(config.serverUrl, config.serverApiKey, createRuntime(config).http, config.downloadMaxBytes);
  const deps = createDeps(config);
  return localLibrary(deps, config.publicUrl ?? `http://localhost:${config.port}`);
}

export async function get(args: string[], config: Config): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: { ...parseOptions(GET_FLAGS), dir: { type: "string" }, json: { type: "boolean" } },
  });
  if (!positionals.length) throw new ApiError(400, "get needs at least one asset id, for example asset-search get polyhaven:ArmChair_01");
  const params = fromFlags(GET_FLAGS, values, FileParams);
  const target = resolve((values.dir as string | undefined) ?? "assets");
  // The lock goes beside the folder: the folder's parent is the project folder.
  const root = dirname(target);
  const dir = relative(root, target);
  const lib = library(config);
  const results: DownloadResult[] = [];
  for (const id of positionals) {
    const progress = reporter(values.json === true);
    try {
      results.push(await getAsset(lib, id, { root, dir, params, onProgress: progress.onProgress }));
    } finally {
      progress.stop();
    }
    const r = results.at(-1)!;
    if (values.json) continue;
    const where = relative(process.cwd(), join(root, r.folder)) || ".";
    const licence = r.license ? (r.license.spdx ?? r.license.name) : "licence unknown: check the source page";
    const fetched = r.files.filter((f) => f.fetched).length;
    await print(
      `${r.id} → ${where}/ (${r.files.length} files, ${fetched} fetched; ${licence})` +
        (r.upToDate ? ": already up to date, nothing asked upstream" : `; ${relative(process.cwd(), join(root, r.lockFile))} updated`) +
        (r.attribution ? `\nCredit required: ${r.attribution}` : ""),
    );
  }
  if (values.json) await print(JSON.stringify(results.length === 1 ? results[0] : results, null, 2));
}

// ---------------------------------------------------------------------------------------------
// credits, licenses, verify

const lockPath = (values: Record<string, unknown>) => resolve((values.lock as string | undefined) ?? LOCK_FILENAME);

export async function credits(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { ...parseOptions(CREDITS_FLAGS), lock: { type: "string" }, out: { type: "string" } },
  });
  const { format, modified } = fromFlags(CREDITS_FLAGS, values, CreditsOptions);
  const lock = await readLock(lockPath(values));
  const written = writeCredits(lock.assets, format, modified);
  const text = typeof written === "string" ? written : `${JSON.stringify(written, null, 2)}\n`;
  if (values.out) await writeAtomically(resolve(values.out as string), text);
  else await print(text);
}

const failOnList = (raw: string[] | undefined): FailOn[] => {
  const items = (raw ?? [])
    .flatMap((v) => v.split(","))
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);
  const bad = items.filter((i) => !(FAIL_ON as readonly string[]).includes(i));
  if (bad.length) throw new ApiError(400, `unknown --fail-on '${bad.join(",")}'; known: ${FAIL_ON.join(", ")}`);
  return [...new Set(items)] as FailOn[];
};

/** Exit code 1 when a --fail-on category is present. */
export async function licenses(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { lock: { type: "string" }, "fail-on": { type: "string", multiple: true }, json: { type: "boolean" } },
  });
  const failOn = failOnList(values["fail-on"]);
  const summary = summarizeLicenses((await readLock(lockPath(values))).assets);
  const failed = failures(summary, failOn);
  if (values.json) {
    await print(JSON.stringify({ ...summary, failed }, null, 2));
  } else {
    const lines = [`${summary.assets} asset${summary.assets === 1 ? "" : "s"} in the lock`, ""];
    for (const { license, count } of summary.byLicense) lines.push(`  ${String(count).padStart(4)}  ${license}`);
    const list = (label: string, ids: string[]) => lines.push("", `${label} (${ids.length}):${ids.length ? "" : " none"}`, ...ids.map((id) => `  ${id}`));
    list("Credit required", summary.attribution);
    list("Commercial use forbidden", summary.noncommercial);
    list("Licence or terms unknown", summary.unknown);
    for (const [category, ids] of Object.entries(failed)) lines.push("", `FAIL --fail-on ${category}: ${ids.join(", ")}`);
    await print(lines.join("\n"));
  }
  return Object.keys(failed).length ? 1 : 0;
}

/** Exit code 1 when any file drifted from the lock. */
export async function verify(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, strict: true, options: { lock: { type: "string" }, json: { type: "boolean" } } });
  const path = lockPath(values);
  const lock = await readLock(path);
  const drifts = await verifyLock(dirname(path), lock);
  if (values.json) await print(JSON.stringify({ assets: lock.assets.length, drifts }, null, 2));
  else if (!drifts.length) await print(`${lock.assets.length} assets, ${lock.assets.reduce((n, a) => n + a.files.length, 0)} files: all match the lock`);
  else {
    const lines = drifts.map((d) => {
      if (d.kind === "missing") return `missing  ${d.path}  (${d.id})`;
      if (d.kind === "extra") return `extra    ${d.path}  (${d.id}: not in the lock)`;
      return `changed  ${d.path}  (${d.id}: sha256 ${d.actual!.sha256}, ${d.actual!.sizeBytes} bytes; locked ${d.expected!.sha256}, ${d.expected!.sizeBytes} bytes)`;
    });
    await print([...lines, "", `${drifts.length} drift${drifts.length === 1 ? "" : "s"} from ${relative(process.cwd(), path)}`].join("\n"));
  }
  return drifts.length ? 1 : 0;
}
