/**
 * The command line (`asset-search`, package.json `bin`):
 *
 *   asset-search serve [--port N] [--host H]   the HTTP server (same as `npm start`)
 *   asset-search mcp [--root <folder>]         the MCP tools over stdio (logs go to stderr only);
 *                                              with --root, also download_asset into that folder
 *   asset-search search <query> [--type T]… [--license L]… [--sort S] [--facets] … [--json]
 *                       (one flag per /v1/search parameter, from core/model/search-params.ts)
 *   asset-search get | credits | licenses | verify   assets into a project (cli/project.ts)
 *
 * Configured by the same environment variables as the server (core/config.ts): the published
 * `data/` (DATA_DIR; default the package's own `data/`), ASSET_SERVER_REPLAY for offline replay,
 * source keys, ASSET_SERVER_PUBLIC_URL for the download links of `get_asset`, ASSET_SEARCH_URL for
 * `get` to ask a running server instead of the library in process.
 */
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type Config, loadConfig } from "../core/config.ts";
import { SEARCH_CLI_KINDS, SEARCH_PARAMETERS, type SearchArguments, type SearchParamName } from "../core/model/search-params.ts";
import { packagePath } from "../core/package-path.ts";
import type { SearchResponse } from "../core/schemas/index.ts";
import { ApiError } from "../server/errors.ts";
import { createMcpServer } from "../server/mcp/tools.ts";
import { parseSearch, runSearch } from "../server/service/search.ts";
import { createDeps, describeDeps, startServer } from "../server/start.ts";
import { CREDITS_FLAGS, credits, flagLine, flagName, GET_FLAGS, get, licenses, verify } from "./project.ts";

/** Short forms of the most used search flags. */
const SHORT: Partial<Record<SearchParamName, string>> = { type: "t", providers: "p", limit: "n" };

/** The search flags: one per /v1/search parameter but `q` (the positional words), with its description. */
const SEARCH_FLAGS = (Object.keys(SEARCH_CLI_KINDS) as SearchParamName[])
  .filter((name) => name !== "q")
  .map((name) => ({
    name,
    flag: flagName(name),
    kind: SEARCH_CLI_KINDS[name],
    short: SHORT[name],
    description: SEARCH_PARAMETERS[name].query.description ?? "",
  }));

function flagUsage({ flag, kind, short, description }: (typeof SEARCH_FLAGS)[number]): string {
  const form = `${short ? `-${short}, ` : "    "}--${flag}${kind === "switch" ? "" : " <value>"}`;
  const how = kind === "switch" ? ` (--no-${flag}: false)` : kind === "values" ? " (repeat or comma-separate)" : "";
  return `  ${form.padEnd(27)}${description}${how}`;
}

const USAGE = `Usage:
  asset-search serve [--port N] [--host H]     run the HTTP server (API, /mcp, web page)
  asset-search mcp [--root <folder>]           serve the MCP tools over stdio; --root: also download_asset into <folder>
  asset-search search <query> [options]        search every source and print a table
  asset-search get <id>… [options]             download assets into <dir>/<provider>-<slug>/, recorded in assets.lock.json
  asset-search credits [options]               write the credits of everything in the lock
  asset-search licenses [--fail-on <list>]     summarise the lock's licences; exit 1 when a --fail-on category is present
                                               (noncommercial, unknown, attribution)
  asset-search verify                          re-hash the files against the lock; exit 1 naming every drift

Search options (the parameters of GET /v1/search):
${SEARCH_FLAGS.map(flagUsage).join("\n")}
      --json                 print the search response as JSON

Get options (the parameters of GET /v1/assets/{id}/files):
${GET_FLAGS.map(flagLine).join("\n")}
      --dir <folder>         where the assets go (default assets); the lock file goes beside it
      --json                 print what was written as JSON

Credits options (the parameters of GET /v1/credits):
${CREDITS_FLAGS.map(flagLine).join("\n")}
      --out <file>           write to this file (atomically) instead of stdout
credits, licenses and verify read --lock <file> (default assets.lock.json).

Environment: the server's variables (DATA_DIR, ASSET_SERVER_REPLAY, ASSET_SERVER_PUBLIC_URL, source keys …).`;

/** The package's own published data, so the installed command works from any folder. */
const PACKAGE_DATA = packagePath("data");

function config(): Config {
  return loadConfig({ DATA_DIR: PACKAGE_DATA, ...process.env });
}

class UsageError extends Error {}

// ---------------------------------------------------------------------------------------------
// serve

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { port: { type: "string" }, host: { type: "string" } }, strict: true });
  const env = { ...process.env, ...(values.port ? { PORT: values.port } : {}), ...(values.host ? { HOST: values.host } : {}) };
  await startServer(loadConfig({ DATA_DIR: PACKAGE_DATA, ...env }));
}

// ---------------------------------------------------------------------------------------------
// mcp (stdio)

/** Base URL of `get_asset`'s download links: the configured public URL, else this machine's server. */
function stdioBaseUrl(c: Config): string {
  if (c.publicUrl) return c.publicUrl;
  const host = ["0.0.0.0", "::", ""].includes(c.host) ? "localhost" : c.host.includes(":") ? `[${c.host}]` : c.host;
  return `http://${host}:${c.port}`;
}

async function mcp(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { root: { type: "string" } }, strict: true });
  const root =
    values.root === undefined
      ? undefined
      : await realpath(resolve(values.root)).catch(() => {
          throw new UsageError(`--root ${values.root}: no such folder`);
        });
  // stdout carries the protocol: anything else printed there would corrupt it.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const deps = createDeps(config());
  const server = createMcpServer(deps, { baseUrl: stdioBaseUrl(deps.runtime.config), surface: "mcp", ...(root ? { root } : {}) });
  await server.connect(new StdioServerTransport());
  // The client closing stdin ends the session; undici's keep-alive sockets must not hold the process.
  process.stdin.once("end", () => process.exit(0));
  console.error(`asset-search MCP server on stdio — ${describeDeps(deps)}${root ? `; writing under ${root}` : ""}`);
}

// ---------------------------------------------------------------------------------------------
// search

const truncate = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** Left-aligned columns, the header underlined. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/** The results as a table and one status line per source. */
function formatSearch(res: SearchResponse): string {
  const out: string[] = [];
  if (res.results.length) {
    const rows = res.results.map((a, i) => [
      String(i + 1),
      truncate(a.title, 40),
      a.type,
      a.provider,
      truncate(a.license?.spdx ?? a.license?.name ?? "?", 24) + (a.price && !a.price.free ? " (paid)" : ""),
      a.downloadable ? "yes" : "no",
      a.id,
    ]);
    out.push(table(["#", "Title", "Type", "Source", "Licence", "Download", "ID"], rows));
  } else {
    out.push(`No results for '${res.query}'.`);
  }
  if (res.facets) {
    const { total, ...facets } = res.facets;
    out.push("", `Facets (${total} results in all):`);
    for (const [name, counts] of Object.entries(facets)) out.push(`  ${name.padEnd(7)}  ${counts.map((c) => `${c.value} (${c.count})`).join(" · ")}`);
  }
  out.push("", "Sources:");
  const width = Math.max(...res.providers.map((p) => p.provider.length), 0);
  for (const p of res.providers) {
    let detail: string;
    if (p.status === "ok") detail = `${p.count} result${p.count === 1 ? "" : "s"}${p.total !== undefined ? ` of ${p.total}` : ""}, ${p.tookMs} ms`;
    else if (p.status === "link") detail = `search by hand: ${p.searchUrl ?? "(no link)"}`;
    else detail = p.error ?? "";
    out.push(`  ${p.provider.padEnd(width)}  ${p.status.padEnd(7)}  ${detail}`);
  }
  return out.join("\n");
}

const list = (values: string[] | undefined) =>
  values
    ?.flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

async function search(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    allowNegative: true,
    strict: true,
    options: {
      ...Object.fromEntries(
        SEARCH_FLAGS.map(({ flag, kind, short }) => [
          flag,
          { type: kind === "switch" ? "boolean" : "string", ...(kind === "values" ? { multiple: true } : {}), ...(short ? { short } : {}) },
        ]),
      ),
      json: { type: "boolean" },
    } as Record<string, { type: "boolean" | "string"; multiple?: boolean; short?: string }>,
  });
  const deps = createDeps(config());
  // The same validation and search as the MCP tool and GET /v1/search.
  const given: SearchArguments = { q: positionals.join(" ") };
  for (const { name, flag, kind } of SEARCH_FLAGS) {
    const value = values[flag];
    given[name] = kind === "values" ? list(value as string[] | undefined) : (value as string | boolean | undefined);
  }
  const res = await runSearch(parseSearch(given), deps, `known sources: ${deps.sources.map((s) => s.id).join(", ")}`);
  const text = values.json ? JSON.stringify(res, null, 2) : formatSearch(res);
  await new Promise<void>((resolve) => process.stdout.write(`${text}\n`, () => resolve()));
  // Keep-alive sockets of the HTTP client would hold the process open.
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------

/** Exits once stdout is written; keep-alive sockets of the HTTP client would hold the process open. */
function exit(code: number): never {
  process.exit(code);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serve(rest);
    case "mcp":
      return mcp(rest);
    case "search":
      return search(rest);
    case "get":
      await get(rest, config());
      return exit(0);
    case "credits":
      await credits(rest);
      return;
    case "licenses":
      return exit(await licenses(rest));
    case "verify":
      return exit(await verify(rest));
    case undefined:
    case "help":
    case "-h":
    case "--help":
      console.log(USAGE);
      return;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
    console.error(`asset-search: ${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof ApiError) {
    console.error(`asset-search: ${error.message}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
}
