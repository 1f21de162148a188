/** The source sites: their list and the daily census (`/v1/catalog`, and as static files). */
import { jsonResponse, rateLimitedResponses, schemaRef, staticFileResponses } from "../openapi.ts";
import { catalog, listLicenses, listProviders } from "../service/sources.ts";
import { NOT_PUBLISHED, servePublished } from "./publication.ts";
import { API, get, OPEN } from "./route.ts";

export const providersRoute = get("/v1/providers", API, (deps) => () => listProviders(deps), {
  operationId: "listProviders",
  tags: ["Sources"],
  summary: "List the source sites",
  description:
    "Every source in the registry: its asset types, pricing, licence, access, whether it is searched live or from the index, and its current health.",
  responses: rateLimitedResponses({ 200: jsonResponse("Every source", "ProvidersResponse") }),
});

export const catalogRoute = get("/v1/catalog", API, (deps) => () => catalog(deps), {
  operationId: "getCatalog",
  tags: ["Sources"],
  summary: "The daily catalog census",
  description: "Counted once a day. The same document is served at `/catalog.json`.",
  responses: rateLimitedResponses({ 200: jsonResponse("The latest census", "Catalog") }),
});

export const catalogFileRoute = get(
  "/catalog.json",
  OPEN,
  servePublished((files) => files.catalog),
  {
    operationId: "getCatalogFile",
    tags: ["Sources"],
    summary: "The daily catalog census (static file)",
    description: "The same bytes as `/v1/catalog.json`, open to any client (no key, no rate limit).",
    security: [],
    responses: { ...staticFileResponses("The latest census", "application/json", schemaRef("Catalog")), 404: NOT_PUBLISHED },
  },
);

export const catalogHistoryRoute = get(
  "/catalog-history.json",
  OPEN,
  servePublished((files) => files.history),
  {
    operationId: "getCatalogHistory",
    tags: ["Sources"],
    summary: "One census data point per UTC day",
    description: "The same bytes as `/v1/catalog-history.json`, open to any client (no key, no rate limit).",
    security: [],
    responses: { ...staticFileResponses("Daily census points", "application/json", schemaRef("CatalogHistory")), 404: NOT_PUBLISHED },
  },
);

export const licensesRoute = get("/v1/licenses", API, (deps) => () => listLicenses(deps), {
  operationId: "listLicenses",
  tags: ["Sources"],
  summary: "The licences the service knows",
  description: "Each with its SPDX id, family, name, url, whether commercial use is allowed and credit required, and how many indexed assets carry it.",
  responses: rateLimitedResponses({ 200: jsonResponse("Every known licence", "LicensesResponse") }),
});
