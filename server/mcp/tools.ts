/**
 * The MCP tools: the same capabilities as `/v1/*`, for agents, over Streamable HTTP
 * (`server/mcp/http.ts`) and stdio (`asset-search mcp`).
 *
 * - `search_assets` → the aggregated search (server/service/search.ts, as `GET /v1/search`).
 * - `get_asset` → details, licence with a ready-to-paste credit line, the file selection of
 *   `/v1/assets/{id}/files` and the absolute `/download` URL of this server.
 * - `similar_assets` → assets related to one asset of the index, each with why, as
 *   `GET /v1/assets/{id}/similar` (server/service/similar.ts).
 * - `list_providers` → every source, as `GET /v1/providers`.
 * - `get_credits` → the credits of a list of ids, as `GET /v1/credits`; with a project folder
 *   (stdio, `asset-search mcp --root`) and no ids, the credits of its lock.
 * - `download_asset` → only with a project folder: the asset written under it and recorded in its
 *   lock, as `asset-search get` (server/project/get.ts). Over HTTP it is absent: a remote server
 *   never writes to disk.
 *
 * Every tool has a zod input schema, an output schema built from `core/schemas`, and answers with
 * `structuredContent` plus the same JSON as text. Problems (bad id, unknown source, bad argument,
 * a failing or silent source) are `isError` results whose text says what to do next; the
 * arguments are validated by the same schemas and checks as the HTTP routes, and answered by the
 * same application layer (server/service/).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { UpstreamError } from "../../core/http/types.ts";
import { writeCredits } from "../../core/model/credits.ts";
import { attributionLine } from "../../core/model/license.ts";
import { type SearchArguments, searchArgumentShape } from "../../core/model/search-params.ts";
import { SimilarParams, similarArgumentShape } from "../../core/model/similar-params.ts";
import {
  AssetDetails,
  CreditsOptions,
  CreditsResponse,
  DownloadResult,
  FileParams,
  FileSelection,
  LOCK_FILENAME,
  ProvidersResponse,
  SearchResponse,
  SimilarResponse,
} from "../../core/schemas/index.ts";
import type { AppDeps } from "../context.ts";
import { planZip } from "../download/zip.ts";
import { ApiError, sourceFailure } from "../errors.ts";
import { type Logger, noLog } from "../log.ts";
import { API_VERSION } from "../openapi.ts";
import { getAsset as getIntoProject } from "../project/get.ts";
import { localLibrary } from "../project/library.ts";
import { readLock } from "../project/lock-file.ts";
import { parseParams, queryValues } from "../query.ts";
import { parseAssetId } from "../service/assets.ts";
import { creditablesOf } from "../service/credits.ts";
import { decideDelivery, NoFileMatches } from "../service/delivery.ts";
import { parseSearch, runSearch } from "../service/search.ts";
import { findSimilar } from "../service/similar.ts";
import { listProviders } from "../service/sources.ts";
import { clientFamily } from "../stats/client-family.ts";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface McpOptions {
  /** Absolute base URL of this server for download and share links (ASSET_SERVER_PUBLIC_URL, else the request origin). */
  baseUrl: string;
  /** Which surface the calls come from, for usage statistics. */
  surface: "mcp";
  /** The project folder of `asset-search mcp --root`: `download_asset` writes under it only. Never set over HTTP. */
  root?: string;
}

export const INSTRUCTIONS = [
  "Searches many asset sites at once (3D models, PBR materials and textures, HDRIs, sprites, UI, audio, fonts, packs) and returns licences, file lists and download links.",
  "Flow: 1) search_assets with a short, concrete query (and `types` when you know them) → ranked results, each with an `id`, its licence, formats and `downloadable`;",
  "`providers` has one status line per source: status `link` means that site cannot be searched from here, so give the user its `searchUrl`.",
  "2) get_asset with a result's `id` (optionally `format`, `resolution`, `maps`) → the details, the licence, the selected files with sizes and `downloadUrl`.",
  "3) Fetch `downloadUrl`: one file answers with a redirect to the file, several files come as one zip with a ready-to-use folder layout and LICENSE.txt.",
  "The files' own `url`s can also be fetched straight from the source (a file's `includes` must sit next to it at their `path`).",
  "When `downloadable` is false there is no direct download: send the user to the asset's `url`.",
  "Always tell the user the licence of every asset you use. When get_asset returns `attribution`, the licence requires credit: show that line and keep it with the asset in the project.",
  "similar_assets with a result's `id` → related assets of the indexed sources (same series, author, categories, tags or subject), each with `reasons` saying why.",
  "list_providers lists every source, whether it is enabled and which environment variable (key) would enable it.",
  "get_credits writes the credits of the assets a project uses (a list of ids), grouped by licence, in the form each licence asks for: put them in the project's credits.",
].join("\n");

// ---------------------------------------------------------------------------------------------
// Schemas

/** Names the tool took before it shared /v1/search's parameters, still accepted so that existing agents keep working. */
const SEARCH_ALIASES = { query: "q", types: "type", free_only: "free", downloadable_only: "downloadable" } as const;

const searchInput = {
  ...searchArgumentShape,
  query: searchArgumentShape.q.describe("alias of q, kept for agents written before the tool took /v1/search's names"),
  types: searchArgumentShape.type.describe("alias of type, kept for agents written before the tool took /v1/search's names"),
  free_only: searchArgumentShape.free.describe("alias of free, kept for agents written before the tool took /v1/search's names"),
  downloadable_only: searchArgumentShape.downloadable.describe("alias of downloadable, kept for agents written before the tool took /v1/search's names"),
};

const getAssetInput = {
  id: z.string().min(1).max(300).describe("asset id `<provider>:<nativeId>` from search_assets, for example polyhaven:ArmChair_01"),
  format: z
    .string()
    .max(20)
    .optional()
    .describe("preferred format or package (glb, gltf, fbx, blend, obj, usd, hdr, exr, jpg, png, zip); the closest available wins"),
  resolution: z.string().max(10).optional().describe("texture/HDRI resolution (1k, 2k, 4k, 8k); the closest available is used; default 2k"),
  maps: z.array(z.string().max(40)).max(20).optional().describe("texture map types for map sets, for example ['diff', 'nor_gl', 'rough', 'ao']"),
};

/** `similar_assets`: the id, then `/v1/assets/{id}/similar`'s parameters. */
const similarInput = {
  id: getAssetInput.id.describe("asset id `<provider>:<nativeId>` from search_assets, of an indexed source, for example polyhaven:ArmChair_01"),
  ...similarArgumentShape,
};

/** `download_asset`: get_asset's selection, `all`, and the folder under the root. */
const downloadInput = {
  ...getAssetInput,
  all: z
    .boolean()
    .optional()
    .describe(FileParams.shape.all.description ?? ""),
  dir: z.string().max(200).optional().describe("folder under the project root the asset goes to, relative with `/`; default assets"),
};

const creditsFormat = z
  .enum(["md", "html", "txt", "json"])
  .optional()
  .describe(CreditsOptions.shape.format.description ?? "");
const creditsModified = z
  .array(z.string().max(300))
  .max(50)
  .optional()
  .describe(CreditsOptions.shape.modified.description ?? "");

/** Over HTTP (and stdio without a root): the credits of the ids given. */
const creditsInput = {
  ids: z.array(z.string().min(1).max(300)).min(1).max(50).describe("asset ids `<provider>:<nativeId>` from search_assets"),
  format: creditsFormat,
  modified: creditsModified,
};

/** With a project root: the ids are optional; without them, the credits of the root's lock. */
const rootCreditsInput = {
  ...creditsInput,
  ids: creditsInput.ids.optional().describe(`asset ids; omitted: every asset of the project's ${LOCK_FILENAME}`),
};

export const SearchAssetsOutput = z.object(SearchResponse.shape);
export const DownloadAssetOutput = z.object(DownloadResult.shape);
export const GetCreditsOutput = CreditsResponse.extend({ format: z.enum(["md", "html", "txt", "json"]) });
export type GetCreditsOutput = z.infer<typeof GetCreditsOutput>;

export const GetAssetOutput = FileSelection.extend({
  asset: AssetDetails.omit({ files: true }).describe("the asset's details; `formats` and `resolutions` list what get_asset can select"),
  attribution: z.string().optional().describe("ready-to-paste credit line; present when the licence requires credit"),
  delivery: z
    .enum(["file", "zip", "page"])
    .describe(
      "what downloadUrl gives: `file` a redirect to the one file, `zip` one archive of the files; `page` no direct download, get it on the asset's page",
    ),
  downloadUrl: z.url().optional().describe("absolute download URL of this server for exactly the selected files"),
  notes: z.array(z.string()).describe("what to tell the user or do next (licence, credit, files behind a login, keys)"),
});
export type GetAssetOutput = z.infer<typeof GetAssetOutput>;

export const ListProvidersOutput = z.object(ProvidersResponse.shape);
export const SimilarAssetsOutput = z.object(SimilarResponse.shape);

// ---------------------------------------------------------------------------------------------
// Results

function ok<S extends z.ZodType>(schema: S, value: z.input<S>): CallToolResult {
  // Parsing strips anything the output schema does not declare, so strict clients validate it.
  const structured = schema.parse(value) as Record<string, unknown>;
  return { structuredContent: structured, content: [{ type: "text", text: JSON.stringify(structured) }] };
}

const HINTS: Record<number, string> = {
  400: "Fix the arguments and call again.",
  404: "Use an `id` exactly as search_assets returned it (`<provider>:<nativeId>`); list_providers has the source ids.",
  502: "The source site is failing right now: try again later, or send the user to the asset's page.",
  504: "The source site is slow right now: try again later, or send the user to the asset's page.",
};

/** An isError result an agent can act on: what went wrong, then what to do. */
export function toolError(error: unknown, log: Logger = noLog): CallToolResult {
  let message: string;
  let status = 500;
  if (error instanceof ApiError) {
    status = error.status;
    message = error.message;
  } else if (error instanceof UpstreamError) {
    const failure = sourceFailure(error);
    status = failure.status;
    message = failure.message;
  } else {
    log.error({ event: "error", err: error }, "unexpected error in an MCP tool");
    message = `internal error: ${error instanceof Error ? error.message : String(error)}`;
  }
  const hint = error instanceof NoFileMatches ? `It offers ${error.offered}: call again with one of them.` : HINTS[status];
  return { isError: true, content: [{ type: "text", text: hint ? `${message}. ${hint}` : message }] };
}

async function guarded(log: Logger | undefined, run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return toolError(error, log);
  }
}

// ---------------------------------------------------------------------------------------------
// Tools

type SearchArgs = z.infer<z.ZodObject<typeof searchInput>>;
type GetAssetArgs = z.infer<z.ZodObject<typeof getAssetInput>>;

/** The tool's arguments under /v1/search's names: an alias counts where its parameter is not given. */
function searchAssets(deps: AppDeps, args: SearchArgs) {
  const { query, types, free_only, downloadable_only, ...rest } = args;
  const named: SearchArguments = rest;
  const aliased = { query, types, free_only, downloadable_only };
  for (const [alias, name] of Object.entries(SEARCH_ALIASES)) named[name] ??= aliased[alias as keyof typeof aliased];
  return runSearch(parseSearch(named), deps, "call list_providers for the ids");
}

/** The absolute `/download` URL of `id` for the asked parameters (only those asked: the route selects the same files). */
export function downloadUrl(baseUrl: string, id: string, args: Pick<GetAssetArgs, "format" | "resolution" | "maps">): string {
  const query = new URLSearchParams();
  if (args.format) query.set("format", args.format);
  if (args.resolution) query.set("resolution", args.resolution);
  if (args.maps?.length) query.set("maps", args.maps.join(","));
  const qs = query.toString();
  return `${baseUrl}/v1/assets/${encodeURIComponent(id)}/download${qs ? `?${qs}` : ""}`;
}

export async function getAsset(deps: AppDeps, opts: McpOptions, args: GetAssetArgs, signal?: AbortSignal): Promise<GetAssetOutput> {
  const ref = parseAssetId(args.id, deps);
  // The route's own validation: the arguments are checked and normalised exactly as /files' query.
  const params = parseParams(queryValues({ format: args.format, resolution: args.resolution, maps: args.maps }), FileParams);
  // The decision `/download` answers: "no file matches" is this tool's error in the same words, the cap a note.
  const { details, selection, delivery } = await decideDelivery(ref, params, deps, { baseUrl: opts.baseUrl, ...(signal ? { signal } : {}) });
  if (delivery.kind === "none") throw delivery.error;
  const { files: _all, ...asset } = details;
  const license = details.license;
  const attribution = attributionLine(details.title, details.author, license, details.url);
  const { config } = deps.runtime;

  const notes: string[] = [];
  if (!license) notes.push(`The source states no licence: check ${details.url} before using this asset.`);
  else {
    notes.push(`Licence: ${license.name}${license.url ? ` (${license.url})` : ""}. Tell the user.`);
    if (attribution) notes.push("Credit is required: show the `attribution` line and keep it with the asset in the project.");
    else if (license.attributionRequired === false) notes.push("No credit is required.");
    if (license.commercialUse === false) notes.push("Commercial use is not allowed.");
    if (license.commercialUse === undefined && license.attributionRequired === undefined) {
      notes.push(`The terms of this licence are unknown here: check ${license.url ?? details.url}.`);
    }
  }
  if (details.price && !details.price.free) notes.push("This asset is paid on its source site.");
  if (delivery.kind === "page") notes.push(`No direct download from ${ref.source.name}: get it on the asset's page ${details.url}.`);
  const locked = details.files.filter((f) => f.requiresAuth).length;
  if (locked) notes.push(`${locked} file(s) of this asset need a login or purchase on ${ref.source.name}; they are never selected here.`);
  if (delivery.kind === "too-large") notes.push(`downloadUrl answers 413: ${delivery.error.message}.`);
  if (delivery.kind !== "page" && config.apiKey) {
    notes.push("This server needs its API key for downloadUrl: send `Authorization: Bearer <key>` or append `api_key=<key>`.");
  }

  return {
    ...selection,
    asset,
    ...(attribution ? { attribution } : {}),
    delivery: delivery.kind === "redirect" ? "file" : delivery.kind === "page" ? "page" : "zip",
    ...(delivery.kind !== "page" ? { downloadUrl: downloadUrl(opts.baseUrl, details.id, args) } : {}),
    notes,
  };
}

/**
 * The download and each file as `resource_link` content: a client that fetches resources gets the
 * files without parsing the JSON. Each file is named by its path in the zip's layout.
 */
function resourceLinks(out: GetAssetOutput): CallToolResult["content"] {
  const plan = planZip({ ...out.asset, files: out.files }, out.files);
  const links: CallToolResult["content"] = plan.entries.map((e) => ({
    type: "resource_link",
    uri: e.url,
    name: `${plan.folder}/${e.path}`,
    ...(e.sizeBytes !== undefined ? { size: e.sizeBytes } : {}),
  }));
  if (out.downloadUrl) {
    links.unshift({
      type: "resource_link",
      uri: out.downloadUrl,
      name: out.delivery === "zip" ? `${plan.folder}.zip` : (plan.entries[0]?.path ?? plan.folder),
      description: "this server's download of exactly the selected files",
    });
  }
  return links;
}

/** The credits of `ids`, or of the root's lock when there are none, in `format`. */
async function getCredits(
  deps: AppDeps,
  opts: McpOptions,
  args: { ids?: string[] | undefined; format?: GetCreditsOutput["format"] | undefined; modified?: string[] | undefined },
  signal?: AbortSignal,
): Promise<GetCreditsOutput> {
  const format = args.format ?? "md";
  const assets = args.ids?.length
    ? await creditablesOf(args.ids, deps, { baseUrl: opts.baseUrl, ...(signal ? { signal } : {}) })
    : (await readLock(`${opts.root}/${LOCK_FILENAME}`)).assets;
  const json = writeCredits(assets, "json", args.modified) as CreditsResponse;
  return { ...json, format, text: format === "json" ? json.text : (writeCredits(assets, format, args.modified) as string) };
}

/** A new MCP server with the three tools; one per HTTP request (stateless), or one per stdio session. */
export function createMcpServer(deps: AppDeps, opts: McpOptions): McpServer {
  const server = new McpServer({ name: "asset-search", title: "Asset Search", version: API_VERSION }, { instructions: INSTRUCTIONS });
  const annotations = { readOnlyHint: true, openWorldHint: true } as const;
  // Usage statistics (server/stats/usage.ts): the tool's name, and for searches the surface, the
  // type filter and the client family only: an MCP client's name, else its User-Agent; never either itself.
  const client = (extra: Extra) => {
    const ua = extra.requestInfo?.headers["user-agent"];
    return clientFamily(server.server.getClientVersion()?.name ?? (Array.isArray(ua) ? ua[0] : ua));
  };

  server.registerTool(
    "search_assets",
    {
      title: "Search asset sites",
      description:
        "Search every enabled asset site at once. Returns ranked results (id, title, type, licence, formats, thumbnail, downloadable) " +
        "and one status line per source in `providers`; a source with status `link` must be searched by hand at its `searchUrl`. " +
        "The arguments are GET /v1/search's parameters (q, type, license, format, sort, facets …); a source that cannot apply a filter is `skipped` with the filter named. " +
        "The earlier names query, types, free_only and downloadable_only are still accepted as aliases of q, type, free and downloadable.",
      inputSchema: searchInput,
      outputSchema: SearchAssetsOutput,
      annotations: { title: "Search asset sites", ...annotations },
    },
    (args, extra) => {
      deps.usage.toolCall("search_assets");
      return guarded(deps.log, async () => {
        const res = await searchAssets(deps, args);
        deps.usage.search({ surface: opts.surface, types: res.types ?? [], hadResults: res.results.length > 0, client: client(extra) });
        return ok(SearchAssetsOutput, res);
      });
    },
  );

  server.registerTool(
    "get_asset",
    {
      title: "Get an asset's licence, files and download URL",
      description:
        "Details of one asset from search_assets: the licence (with a ready-to-paste `attribution` line when credit is required), " +
        "the files selected for the preferred format, resolution and maps with their sizes, and `downloadUrl` for exactly those files.",
      inputSchema: getAssetInput,
      outputSchema: GetAssetOutput,
      annotations: { title: "Get an asset", ...annotations },
    },
    (args, extra) => {
      deps.usage.toolCall("get_asset");
      return guarded(deps.log, async () => {
        const result = ok(GetAssetOutput, await getAsset(deps, opts, args, extra.signal));
        return { ...result, content: [...result.content, ...resourceLinks(result.structuredContent as GetAssetOutput)] };
      });
    },
  );

  server.registerTool(
    "similar_assets",
    {
      title: "Find assets related to an asset",
      description:
        "Assets related to one asset of search_assets, across every indexed source, best first: each with its `score` (0..1) and `reasons` " +
        "(series: titles that differ by a number or a variant, such as a pack's parts; author; category; tags; subject: a title word they share), " +
        "each reason with what the two share. From the index alone; the asset's own listings on other sources are left out. " +
        "An asset of a source that is not indexed (searched live) has none: search_assets with its title instead.",
      inputSchema: similarInput,
      outputSchema: SimilarAssetsOutput,
      annotations: { title: "Find related assets", ...annotations },
    },
    (args) => {
      deps.usage.toolCall("similar_assets");
      return guarded(deps.log, async () => {
        const params = parseParams(queryValues({ type: args.type, limit: args.limit }), SimilarParams);
        return ok(SimilarAssetsOutput, findSimilar(args.id, params, deps));
      });
    },
  );

  server.registerTool(
    "list_providers",
    {
      title: "List the asset sites",
      description:
        "Every source site: asset types, access (api, scrape, link), pricing, licence, whether this server downloads directly, " +
        "whether it is enabled, and `keyEnv`, the environment variable whose key enables or extends it.",
      outputSchema: ListProvidersOutput,
      annotations: { title: "List the asset sites", ...annotations },
    },
    () => {
      deps.usage.toolCall("list_providers");
      return guarded(deps.log, async () => ok(ListProvidersOutput, listProviders(deps)));
    },
  );

  server.registerTool(
    "get_credits",
    {
      title: "Write the credits of assets",
      description:
        "The credits of assets, grouped by licence (those that require attribution first), each in the form its licence asks for " +
        "(Creative Commons: title, author, source, licence, with links), as Markdown, HTML or plain text in `text`, and as `groups`. " +
        (opts.root ? `Without ids: every asset of the project's ${LOCK_FILENAME}.` : "Give the ids of the assets used."),
      // One handler for both: the ids are checked as required by the schema only over HTTP.
      inputSchema: (opts.root ? rootCreditsInput : creditsInput) as typeof rootCreditsInput,
      outputSchema: GetCreditsOutput,
      annotations: { title: "Write the credits", ...annotations },
    },
    (args, extra) => {
      deps.usage.toolCall("get_credits");
      return guarded(deps.log, async () => ok(GetCreditsOutput, await getCredits(deps, opts, args, extra.signal)));
    },
  );

  const root = opts.root;
  if (root) {
    const library = localLibrary(deps, opts.baseUrl);
    server.registerTool(
      "download_asset",
      {
        title: "Download an asset into the project",
        description:
          `Writes an asset's selected files (the options of get_asset, plus all) under the project folder, in <dir>/<provider>-<slug>/ ` +
          `with its LICENSE.txt, and records it in ${LOCK_FILENAME}: returns the written paths, sizes, sha256 and the licence. ` +
          "Paths that would leave the project folder are refused.",
        inputSchema: downloadInput,
        outputSchema: DownloadAssetOutput,
        annotations: { title: "Download into the project", readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      },
      (args, extra) => {
        deps.usage.toolCall("download_asset");
        return guarded(deps.log, async () => {
          const params = parseParams(queryValues({ format: args.format, resolution: args.resolution, maps: args.maps, all: args.all }), FileParams);
          const result = await getIntoProject(library, args.id, { root, dir: args.dir ?? "assets", params, signal: extra.signal });
          return ok(DownloadAssetOutput, result);
        });
      },
    );
  }

  return server;
}
