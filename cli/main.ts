/**
 * The command line (`asset-search`, package.json `bin`):
 *
 *   asset-search serve [--port N] [--host H]   the HTTP server (same as `npm start`)
 *   asset-search mcp                           the MCP tools over stdio (logs go to stderr only)
 *   asset-search search <query> [--type T]… [--providers P]… [--free] [--downloadable]
 *                       [--limit N] [--offset N] [--json]
 *
 * Configured by the same environment variables as the server (core/config.ts): the published
 * `data/` (DATA_DIR; default the package's own `data/`), ASSET_SERVER_REPLAY for offline replay,
 * source keys, ASSET_SERVER_PUBLIC_URL for the download links of `get_asset`.
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { type Config, loadConfig } from "../core/config.ts";
import type { SearchResponse } from "../core/schemas/index.ts";
import { ApiError } from "../server/errors.ts";
import { createMcpServer } from "../server/mcp/tools.ts";
import { parseSearch, runSearch } from "../server/service/search.ts";
import { createDeps, describeDeps, startServer } from "../server/start.ts";

const USAGE = `Usage:
  asset-search serve [--port N] [--host H]     run the HTTP server (API, /mcp, web page)
  asset-search mcp                             serve the MCP tools over stdio
  asset-search search <query> [options]        search every source and print a table

Search options:
  -t, --type <type>          asset type (model, texture, material, hdri, sprite, ui, audio, font, pack, other); repeat or comma-separate
  -p, --providers <ids>      only these sources (ids as in /v1/providers); repeat or comma-separate
      --free                 only free assets
      --downloadable         only assets this server can download directly
  -n, --limit <N>            results, 1 to 100 (default 24)
      --offset <N>           per-source offset for paging
      --json                 print the search response as JSON

Environment: the server's variables (DATA_DIR, ASSET_SERVER_REPLAY, ASSET_SERVER_PUBLIC_URL, source keys …).`;

/** The package's own published data, so the installed command works from any folder. */
const PACKAGE_DATA = fileURLToPath(new URL("../data", import.meta.url));

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
  parseArgs({ args, options: {}, strict: true });
  // stdout carries the protocol: anything else printed there would corrupt it.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const deps = createDeps(config());
  const server = createMcpServer(deps, { baseUrl: stdioBaseUrl(deps.runtime.config), surface: "mcp" });
  await server.connect(new StdioServerTransport());
  // The client closing stdin ends the session; undici's keep-alive sockets must not hold the process.
  process.stdin.once("end", () => process.exit(0));
  console.error(`asset-search MCP server on stdio — ${describeDeps(deps)}`);
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

function wholeNumber(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--${name} must be a whole number, got '${raw}'`);
  return Number(raw);
}

async function search(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      type: { type: "string", short: "t", multiple: true },
      providers: { type: "string", short: "p", multiple: true },
      free: { type: "boolean" },
      downloadable: { type: "boolean" },
      limit: { type: "string", short: "n" },
      offset: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const query = positionals.join(" ");
  const deps = createDeps(config());
  const limit = wholeNumber("limit", values.limit);
  const offset = wholeNumber("offset", values.offset);
  // The same validation and search as the MCP tool and GET /v1/search.
  const params = parseSearch({
    query,
    types: list(values.type),
    providers: list(values.providers),
    free: values.free,
    downloadable: values.downloadable,
    limit,
    offset,
  });
  const res = await runSearch(params, deps, `known sources: ${deps.sources.map((s) => s.id).join(", ")}`);
  const text = values.json ? JSON.stringify(res, null, 2) : formatSearch(res);
  await new Promise<void>((resolve) => process.stdout.write(`${text}\n`, () => resolve()));
  // Keep-alive sockets of the HTTP client would hold the process open.
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case "serve":
      return serve(rest);
    case "mcp":
      return mcp(rest);
    case "search":
      return search(rest);
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
