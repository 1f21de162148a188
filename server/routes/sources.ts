/** The source sites: their list and the daily census (`/v1/catalog`, and as static files). */
import { jsonResponse, rateLimitedResponses } from "../../core/openapi.ts";
import { catalog, listProviders } from "../service/sources.ts";
import { API, OPEN, type Route } from "./route.ts";

export const providersRoute: Route = {
  method: "GET",
  path: "/v1/providers",
  rules: API,
  handler: (deps) => () => listProviders(deps),
  operation: {
    operationId: "listProviders",
    tags: ["Sources"],
    summary: "List the source sites",
    responses: rateLimitedResponses({ 200: jsonResponse("Every source", "ProvidersResponse") }),
  },
};

export const catalogRoute: Route = {
  method: "GET",
  path: "/v1/catalog",
  rules: API,
  handler: (deps) => () => catalog(deps),
  operation: {
    operationId: "getCatalog",
    tags: ["Sources"],
    summary: "The daily catalog census",
    description: "Counted once a day. The same document is served at `/catalog.json`.",
    responses: rateLimitedResponses({ 200: jsonResponse("The latest census", "Catalog") }),
  },
};

export const catalogFileRoute: Route = {
  method: "GET",
  path: "/catalog.json",
  rules: OPEN,
  handler: (deps) => () => catalog(deps),
  operation: {
    operationId: "getCatalogFile",
    tags: ["Sources"],
    summary: "The daily catalog census (static file)",
    security: [],
    responses: { 200: jsonResponse("The latest census", "Catalog") },
  },
};

export const catalogHistoryRoute: Route = {
  method: "GET",
  path: "/catalog-history.json",
  rules: OPEN,
  handler: (deps) => () => deps.published.history,
  operation: {
    operationId: "getCatalogHistory",
    tags: ["Sources"],
    summary: "One census data point per UTC day",
    security: [],
    responses: { 200: jsonResponse("Daily census points", "CatalogHistory") },
  },
};
