/**
 * The route table: every endpoint of the service with its method, path, rules, handler and OpenAPI
 * operation. server/app.ts registers it with h3 and answers from it the methods and paths it does
 * not hold; `/openapi.json` is its operations; test/readme.test.ts holds README.md's table to it.
 */

import { publicBase } from "../context.ts";
import { mcpMethodNotAllowed, mcpOperation, mcpRoute } from "../mcp/http.ts";
import { buildOpenApi, jsonResponse } from "../openapi.ts";
import { createStatsRoute, statsOpenApiPaths } from "../stats/route.ts";
import { AGENT_ROUTES } from "./agents.ts";
import { assetRoute, filesRoute } from "./assets.ts";
import { creditsRoute } from "./credits.ts";
import { docsFileRoute, docsRoute } from "./docs.ts";
import { downloadRoute } from "./download.ts";
import { kitRoute } from "./kit.ts";
import { assetPageRoute, searchPageRoute, sourcePageRoute, sourcesPageRoute, staticRoute, statsPageRoute } from "./pages.ts";
import { publishedCatalogRoute, publishedHistoryRoute, publishedIndexRoute, publishedMetaRoute, SCHEMA_ROUTES } from "./publication.ts";
import { rawFileRoute } from "./raw-file.ts";
import { API, get, OPEN, type Route } from "./route.ts";
import { searchRoute } from "./search.ts";
import { similarRoute } from "./similar.ts";
import { catalogFileRoute, catalogHistoryRoute, catalogRoute, licensesRoute, providersRoute } from "./sources.ts";
import { healthRoute, readyRoute } from "./system.ts";
import { thumbnailRoute } from "./thumbnail.ts";

/**
 * The document of this table, its server the public URL (or the origin asked, without one): built
 * once per app, and again only when another allowed host asks.
 */
const openApiRoute = get(
  "/openapi.json",
  OPEN,
  (deps) => {
    let built: { base: string; document: Record<string, unknown> } | undefined;
    return (event) => {
      const base = publicBase(deps, event);
      if (built?.base !== base) built = { base, document: buildOpenApi({ endpoints: ROUTES, serverUrl: base }) };
      return built.document;
    };
  },
  {
    operationId: "getOpenApi",
    tags: ["System"],
    summary: "This OpenAPI 3.1 description",
    description: "The operations of this server, their parameters, responses and schemas, generated from the code; `servers` is this server's public URL.",
    security: [],
    responses: { 200: jsonResponse("The OpenAPI 3.1 document", { type: "object" }) },
  },
);

/** Every method reaches the MCP handler, so every one is protected like POST. */
const mcpHttpRoute: Route = {
  method: "POST",
  path: "/mcp",
  rules: API,
  handler: (deps) => (event) => mcpRoute(event, deps),
  refuse: mcpMethodNotAllowed,
  operation: mcpOperation(),
};

// server/stats/route.ts describes GET /v1/stats as a path item: the operation is its `get`.
const statsRoute = get("/v1/stats", API, createStatsRoute, (statsOpenApiPaths()["/v1/stats"] as { get: Record<string, unknown> }).get);

/** In the order of /openapi.json's `paths`. */
export const ROUTES: readonly Route[] = [
  searchPageRoute,
  assetPageRoute,
  sourcesPageRoute,
  sourcePageRoute,
  statsPageRoute,
  docsRoute,
  docsFileRoute,
  staticRoute,
  ...AGENT_ROUTES,
  searchRoute,
  assetRoute,
  filesRoute,
  similarRoute,
  downloadRoute,
  kitRoute,
  creditsRoute,
  thumbnailRoute,
  rawFileRoute,
  providersRoute,
  licensesRoute,
  catalogRoute,
  catalogFileRoute,
  catalogHistoryRoute,
  publishedCatalogRoute,
  publishedHistoryRoute,
  publishedIndexRoute,
  publishedMetaRoute,
  ...SCHEMA_ROUTES,
  healthRoute,
  readyRoute,
  openApiRoute,
  mcpHttpRoute,
  statsRoute,
];
