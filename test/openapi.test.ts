import { compileErrors, validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SearchParams } from "../core/model/search-params.ts";
import { SimilarParams } from "../core/model/similar-params.ts";
import * as schemas from "../core/schemas/index.ts";
import { buildOpenApi, jsonResponse, rateLimitedResponses } from "../server/openapi.ts";
import { ROUTES } from "../server/routes/table.ts";

type Json = Record<string, any>;
// The route table without POST /mcp and GET /v1/stats, whose operations test/mcp.test.ts and test/stats.test.ts check.
const contract = ROUTES.filter((r) => r.path !== "/mcp" && r.path !== "/v1/stats");
const doc = buildOpenApi({ endpoints: contract }) as Json;
const op = (path: string, method: string): Json => doc.paths[path]?.[method];

async function validationErrors(api: Json): Promise<string | undefined> {
  const result = await validate(structuredClone(api) as any); // validate dereferences in place
  return result.valid ? undefined : compileErrors(result);
}

/** Resolves a local JSON pointer (`#/a/b~1c`) in the document. */
function resolve(ref: string): unknown {
  return ref
    .slice(2)
    .split("/")
    .map((s) => decodeURIComponent(s).replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<any>((node, key) => node?.[key], doc);
}

function collectRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) for (const n of node) collectRefs(n, out);
  else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string") out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

// Expected responses per operation: a component id (JSON body), or the kind of body.
const ZIP = "<zip>";
const NONE = "<none>";
const OBJECT = "<object>";
const GZIP = "<gzip>";
const SCHEMA = "<schema>";
const META = "<index meta>";
const WEBP = "<webp>";
const BYTES = "<bytes>";
const CREDITS = "<credits>";
const EXPECTED: Record<string, Record<string, string>> = {
  "GET /v1/search": { 200: "SearchResponse", 400: "Error", 401: "Error", 429: "Error" },
  "GET /v1/assets/{id}": { 200: "AssetDetails", 400: "Error", 401: "Error", 404: "Error", 429: "Error", 502: "Error", 503: "Error", 504: "Error" },
  "GET /v1/assets/{id}/similar": { 200: "SimilarResponse", 400: "Error", 401: "Error", 404: "Error", 429: "Error" },
  "GET /v1/assets/{id}/files": { 200: "FileSelection", 400: "Error", 401: "Error", 404: "Error", 429: "Error", 502: "Error", 503: "Error", 504: "Error" },
  "GET /v1/assets/{id}/download": {
    200: ZIP,
    302: NONE,
    400: "Error",
    401: "Error",
    404: "Error",
    409: "Error",
    413: "Error",
    429: "Error",
    502: "Error",
    503: "Error",
    504: "Error",
  },
  "GET /v1/download": {
    200: ZIP,
    400: "Error",
    401: "Error",
    404: "Error",
    409: "Error",
    413: "Error",
    429: "Error",
    502: "Error",
    503: "Error",
    504: "Error",
  },
  "GET /v1/credits": { 200: CREDITS, 400: "Error", 401: "Error", 404: "Error", 429: "Error", 502: "Error", 503: "Error", 504: "Error" },
  "GET /v1/assets/{id}/thumbnail": { 200: WEBP, 304: NONE, 400: "Error", 401: "Error", 404: "Error", 429: "Error" },
  "GET /v1/assets/{id}/raw/{path}": {
    200: BYTES,
    400: "Error",
    401: "Error",
    404: "Error",
    409: "Error",
    413: "Error",
    429: "Error",
    502: "Error",
    503: "Error",
    504: "Error",
  },
  "GET /v1/providers": { 200: "ProvidersResponse", 401: "Error", 429: "Error" },
  "GET /v1/licenses": { 200: "LicensesResponse", 401: "Error", 429: "Error" },
  "GET /v1/catalog": { 200: "Catalog", 401: "Error", 429: "Error" },
  "GET /catalog.json": { 200: "Catalog", 304: NONE },
  "GET /catalog-history.json": { 200: "CatalogHistory", 304: NONE },
  "GET /v1/catalog.json": { 200: "Catalog", 304: NONE, 401: "Error", 429: "Error" },
  "GET /v1/catalog-history.json": { 200: "CatalogHistory", 304: NONE, 401: "Error", 429: "Error" },
  "GET /v1/index.json.gz": { 200: GZIP, 304: NONE, 401: "Error", 429: "Error" },
  "GET /v1/index.meta.json": { 200: META, 304: NONE, 401: "Error", 429: "Error" },
  "GET /schemas/Catalog.json": { 200: SCHEMA, 304: NONE },
  "GET /schemas/CatalogHistory.json": { 200: SCHEMA, 304: NONE },
  "GET /schemas/IndexMeta.json": { 200: SCHEMA, 304: NONE },
  "GET /schemas/Asset.json": { 200: SCHEMA, 304: NONE },
  "GET /schemas/BrowserIndexMeta.json": { 200: SCHEMA, 304: NONE },
  "GET /schemas/BrowserRecord.json": { 200: SCHEMA, 304: NONE },
  "GET /schemas/AssetsLock.json": { 200: SCHEMA, 304: NONE },
  "GET /health": { 200: "Health" },
  "GET /ready": { 200: "Readiness", 503: "Readiness" },
  "GET /openapi.json": { 200: OBJECT },
};
// The Host checks of server/app.ts: a 400 without a Host, and a 421 to a Host it does not answer for, except where any Host is answered.
const ANY_HOST = ["GET /health", "GET /ready"];
const NOT_PUBLISHED = [
  "GET /catalog.json",
  "GET /catalog-history.json",
  "GET /v1/catalog.json",
  "GET /v1/catalog-history.json",
  "GET /v1/index.json.gz",
  "GET /v1/index.meta.json",
];
for (const [key, responses] of Object.entries(EXPECTED)) {
  responses[400] ??= "Error";
  if (!ANY_HOST.includes(key)) responses[421] = "Error";
  if (NOT_PUBLISHED.includes(key)) responses[404] = "Error";
}
const operations = Object.keys(EXPECTED).map((key) => {
  const [method, path] = key.split(" ") as [string, string];
  return { key, path, method: method.toLowerCase() };
});

describe("OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(await validationErrors(doc)).toBeUndefined();
  });

  it("the validator does reject a broken document", async () => {
    const broken = structuredClone(doc);
    delete broken.info.version;
    broken.paths["/v1/assets/{id}"].get.parameters = []; // path parameter no longer declared
    expect(await validationErrors(broken)).toMatch(/version|parameter/i);
  });

  it("states the OpenAPI and description versions", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("0.1.0");
    expect(doc.info.title).toMatch(/\w/);
    expect(doc.info.description).toMatch(/\w/);
  });

  it("has the five tags with descriptions, and every operation uses them", () => {
    expect(doc.tags.map((t: Json) => t.name)).toEqual(["Search", "Assets", "Sources", "MCP", "System"]);
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w{3}/);
    const names = new Set(doc.tags.map((t: Json) => t.name));
    for (const { key, path, method } of operations) {
      expect(op(path, method).tags.length, key).toBeGreaterThan(0);
      for (const tag of op(path, method).tags) expect(names.has(tag), `${key} tag ${tag}`).toBe(true);
    }
  });

  it("has exactly the expected operations, each with an operationId and summary", () => {
    const actual = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item as Json).map((m) => `${m.toUpperCase()} ${path}`));
    expect(actual.sort()).toEqual(Object.keys(EXPECTED).sort());
    const ids = operations.map(({ path, method }) => op(path, method).operationId);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { key, path, method } of operations) expect(op(path, method).summary, key).toMatch(/\w/);
  });

  it.each(operations)("$key lists every response code with its body", ({ key, path, method }) => {
    const responses = op(path, method).responses as Json;
    const expected = EXPECTED[key]!;
    expect(Object.keys(responses).sort()).toEqual(Object.keys(expected).sort());
    for (const [code, body] of Object.entries(expected)) {
      const response = responses[code];
      expect(response.description, `${key} ${code}`).toMatch(/\w/);
      if (body === NONE) expect(response.content, `${key} ${code}`).toBeUndefined();
      else if (body === ZIP) expect(response.content).toEqual({ "application/zip": { schema: { type: "string", format: "binary" } } });
      else if (body === OBJECT) expect(response.content["application/json"].schema).toEqual({ type: "object" });
      else if (body === WEBP) expect(response.content).toEqual({ "image/webp": { schema: { type: "string", format: "binary" } } });
      else if (body === BYTES) expect(response.content).toEqual({ "*/*": { schema: { type: "string", format: "binary" } } });
      else if (body === CREDITS) {
        expect(Object.keys(response.content)).toEqual(["application/json", "text/markdown", "text/html", "text/plain"]);
        expect(response.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/CreditsResponse" });
      } else if (body === GZIP) expect(response.content).toEqual({ "application/gzip": { schema: { type: "string", format: "binary" } } });
      else if (body === SCHEMA) expect(response.content).toEqual({ "application/schema+json": { schema: { type: "object" } } });
      // IndexMeta lives in core/publication/published.ts, not core/schemas: inlined, with its fields.
      else if (body === META)
        expect(Object.keys(response.content["application/json"].schema.properties)).toEqual(["format", "builtAt", "engine", "counts", "files", "indexFile"]);
      else expect(response.content["application/json"].schema, `${key} ${code}`).toEqual({ $ref: `#/components/schemas/${body}` });
    }
  });

  it("the search documents its event stream: the same 200, as text/event-stream, each event named with its data", () => {
    const ok = op("/v1/search", "get").responses["200"];
    expect(ok.content["text/event-stream"].schema).toEqual({ $ref: "#/components/schemas/SearchStreamEvent" });
    const events = doc.components.schemas.SearchStreamEvent.oneOf as Json[];
    expect(events.map((e) => [e.properties.event.const, e.properties.data.$ref])).toEqual([
      ["index", "#/components/schemas/SearchStreamIndex"],
      ["source", "#/components/schemas/SearchStreamSource"],
      ["done", "#/components/schemas/SearchResponse"],
      ["failed", "#/components/schemas/Error"],
    ]);
    expect(op("/v1/search", "get").description).toMatch(/text\/event-stream/);
  });

  it("the download redirect documents its Location header", () => {
    expect(op("/v1/assets/{id}/download", "get").responses["302"].headers.Location.schema).toEqual({ type: "string", format: "uri" });
  });

  it("every $ref resolves", () => {
    const refs = collectRefs(doc);
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((r) => !r.startsWith("#/") || resolve(r) === undefined)).toEqual([]);
  });

  it("has a component for every schema with a meta id that an operation uses", () => {
    const ids = Object.values(schemas)
      .map((s) => (s instanceof z.ZodType ? z.globalRegistry.get(s)?.id : undefined))
      .filter((id): id is string => typeof id === "string");
    expect(ids).toContain("Stats");
    // The CLI's lock file and the MCP tools' results are no operation's: they have documents of their own.
    const unused = ["AssetsLock", "DownloadResult", "LicenseSummary", "LockedAsset", "LockedFile", "LockedOptions", "WrittenFile"];
    const full = buildOpenApi({ endpoints: ROUTES }) as Json;
    expect(Object.keys(full.components.schemas).sort()).toEqual([...new Set(ids)].filter((id) => !unused.includes(id)).sort());
    for (const schema of Object.values(doc.components.schemas) as Json[]) {
      expect(schema.$id).toBeUndefined();
      expect(schema.$schema).toBeUndefined();
    }
  });

  it("Asset requires exactly the contract's required fields", () => {
    const asset = doc.components.schemas.Asset;
    expect([...asset.required].sort()).toEqual(["downloadable", "id", "nativeId", "provider", "tags", "title", "type", "url"].sort());
    expect(asset.properties.type).toEqual({ $ref: "#/components/schemas/AssetType" });
  });

  it("leaves response objects open, since the API grows additively", () => {
    expect(doc.components.schemas.Asset.additionalProperties).toBeUndefined();
    expect(doc.components.schemas.Catalog.properties.totals.additionalProperties).toBeUndefined();
    expect(JSON.stringify(doc.components.schemas)).not.toContain('"additionalProperties":false');
  });

  it("declares the asset id path parameter as required", () => {
    for (const { key, path, method } of operations.filter((o) => o.path.includes("{id}"))) {
      const id = op(path, method).parameters.find((p: Json) => p.name === "id");
      expect(id, key).toMatchObject({ in: "path", required: true, schema: { type: "string" } });
      expect(id.description).toMatch(/<provider>:<nativeId>/);
    }
  });

  it("documents every parameter with a description and a schema", () => {
    for (const { key, path, method } of operations) {
      for (const p of op(path, method).parameters ?? []) {
        expect(p.description, `${key} ${p.name}`).toMatch(/\w/);
        expect(p.schema.type, `${key} ${p.name}`).toMatch(/^(string|integer|boolean)$/);
      }
    }
  });

  it("types the query parameters as the contract says", () => {
    const types = (path: string) =>
      Object.fromEntries(
        op(path, "get")
          .parameters.filter((p: Json) => p.in === "query")
          .map((p: Json) => [p.name, p.schema]),
      );
    expect(types("/v1/search")).toEqual({
      q: { type: "string", maxLength: 300 },
      type: { type: "string" },
      providers: { type: "string" },
      exclude: { type: "string" },
      free: { type: "boolean" },
      downloadable: { type: "boolean" },
      license: { type: "string" },
      commercial: { type: "boolean" },
      attribution: { type: "boolean" },
      author: { type: "string", maxLength: 100 },
      category: { type: "string" },
      format: { type: "string" },
      resolution: { type: "string" },
      maxPolys: { type: "integer", minimum: 1 },
      animated: { type: "boolean" },
      rigged: { type: "boolean" },
      sort: { type: "string", enum: ["relevance", "newest", "name", "popular"], default: "relevance" },
      facets: { type: "boolean" },
      limit: { type: "integer", minimum: 1, maximum: 100, default: 24 },
      offset: { type: "integer", minimum: 0, default: 0 },
    });
    const files = {
      format: { type: "string", maxLength: 20 },
      resolution: { type: "string", default: "2k" },
      maps: { type: "string" },
      all: { type: "boolean" },
    };
    expect(types("/v1/assets/{id}/files")).toEqual(files);
    expect(types("/v1/assets/{id}/download")).toEqual(files);
    expect(types("/v1/assets/{id}/raw/{path}")).toEqual(files);
    expect(types("/v1/assets/{id}/thumbnail")).toEqual({ w: { type: "integer", enum: [160, 320, 640], default: 320 } });
  });

  it("the documented types, bounds, enums and defaults are what the query schemas accept", () => {
    const routes: [string, z.ZodObject][] = [
      ["/v1/search", SearchParams],
      ["/v1/assets/{id}/files", schemas.FileParams],
      ["/v1/assets/{id}/similar", SimilarParams],
    ];
    for (const [path, params] of routes) {
      for (const { name, schema: doc } of op(path, "get").parameters.filter((p: Json) => p.in === "query")) {
        const field = params.shape[name] as z.ZodType;
        expect(field, name).toBeDefined();
        if (doc.type === "integer") {
          const { minimum, maximum } = doc as { minimum: number; maximum?: number };
          expect(field.parse(undefined), name).toBe(doc.default);
          expect(field.parse(String(minimum)), name).toBe(minimum);
          expect(field.safeParse(String(minimum - 1)).success, name).toBe(false);
          if (maximum !== undefined) {
            expect(field.parse(String(maximum)), name).toBe(maximum);
            expect(field.safeParse(String(maximum + 1)).success, name).toBe(false);
          }
        }
        if (doc.type === "boolean") {
          expect(field.parse("true"), name).toBe(true);
          expect(field.parse("false"), name).toBe(false);
        }
        for (const value of doc.enum ?? []) expect(field.parse(value), name).toBe(value);
        if (doc.enum) expect(field.parse(undefined), name).toBe(doc.default);
      }
    }
  });

  it("offers three security schemes as alternatives, and leaves the open routes open", () => {
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
      apiKeyHeader: expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }),
      apiKeyQuery: expect.objectContaining({ type: "apiKey", in: "query", name: "api_key" }),
    });
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }]);
    const open = [
      "/health",
      "/ready",
      "/openapi.json",
      "/catalog.json",
      "/catalog-history.json",
      ...operations.filter((o) => o.path.startsWith("/schemas/")).map((o) => o.path),
    ];
    for (const path of open) expect(op(path, "get").security, path).toEqual([]);
    for (const { key, path, method } of operations.filter((o) => o.path.startsWith("/v1/"))) {
      expect(op(path, method).security, key).toBeUndefined(); // inherits the global requirement
    }
    expect(doc.info.description).toContain("ASSET_SERVER_API_KEY");
  });

  it("puts the rate-limit headers on every /v1 response, and Retry-After on 429", () => {
    const names = ["RateLimit-Policy", "RateLimit", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];
    for (const name of [...names, "Retry-After"]) expect(doc.components.headers[name]?.schema?.type, name).toMatch(/^(string|integer)$/);
    // The Host checks answer before the rate limit: their 400 and 421 carry no quota.
    const beforeRateLimit = (response: Json) =>
      response.description.startsWith("An HTTP/1.1 request without a Host") || response.description.startsWith("Misdirected");
    for (const { key, path, method } of operations.filter((o) => o.path.startsWith("/v1/"))) {
      for (const [code, response] of Object.entries(op(path, method).responses as Json)) {
        if (beforeRateLimit(response)) continue;
        const expected = code === "429" ? [...names, "Retry-After"] : names;
        for (const name of expected) expect(response.headers?.[name], `${key} ${code} ${name}`).toEqual({ $ref: `#/components/headers/${name}` });
        if (code !== "429") expect(response.headers["Retry-After"], `${key} ${code}`).toBeUndefined();
      }
    }
    expect(op("/health", "get").responses["200"].headers).toBeUndefined();
  });

  it("describes the additive fields and the catalog history payload", () => {
    const text = doc.info.description as string;
    for (const field of ["License.spdx", "Asset.alsoOn", "Provider.keyEnv", "Provider.mode"]) expect(text).toContain(field);
    expect(text).toContain("/catalog-history.json");
    expect(text).toContain("CatalogHistoryPoint");
  });

  it("uses the server URL when given", () => {
    expect(doc.servers).toBeUndefined();
    expect((buildOpenApi({ serverUrl: "https://assets.example" }) as Json).servers).toEqual([{ url: "https://assets.example" }]);
  });

  it("merges endpoints built with the exported helpers, per path", async () => {
    const extended = buildOpenApi({
      endpoints: [
        ...contract,
        {
          method: "POST",
          path: "/mcp",
          operation: {
            operationId: "mcp",
            tags: ["MCP"],
            summary: "MCP endpoint",
            requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
            responses: rateLimitedResponses({ 200: jsonResponse("JSON-RPC 2.0 response", { type: "object" }) }),
          },
        },
        {
          method: "GET",
          path: "/v1/stats",
          operation: {
            operationId: "getStats",
            tags: ["System"],
            summary: "Usage statistics",
            responses: rateLimitedResponses({ 200: jsonResponse("Stats", "Stats") }),
          },
        },
        {
          method: "HEAD",
          path: "/health",
          operation: { operationId: "headHealth", tags: ["System"], summary: "Liveness check", security: [], responses: { 200: { description: "up" } } },
        },
      ],
    }) as Json;
    expect(await validationErrors(extended)).toBeUndefined();
    const mcp = extended.paths["/mcp"].post.responses;
    expect(Object.keys(mcp).sort()).toEqual(["200", "400", "401", "421", "429"]);
    expect(mcp["429"].headers["Retry-After"]).toEqual({ $ref: "#/components/headers/Retry-After" });
    expect(mcp["200"].headers.RateLimit).toEqual({ $ref: "#/components/headers/RateLimit" });
    expect(extended.paths["/v1/stats"].get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Stats" });
    expect(Object.keys(extended.paths["/health"]).sort()).toEqual(["get", "head"]);
    expect(Object.keys(rateLimitedResponses({ 200: { description: "ok" } }, { auth: false })).sort()).toEqual(["200", "429"]);
  });
});
