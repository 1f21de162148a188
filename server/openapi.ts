/**
 * The OpenAPI 3.1 description of the service, generated from the zod schemas of `core/schemas/`
 * (`z.toJSONSchema`), so the document cannot drift from the code. Served at `/openapi.json`.
 *
 * Every schema exported from `core/schemas/index.ts` with `.meta({ id })` becomes
 * `#/components/schemas/<id>`. The operations are written next to the server's routes with the
 * helpers below, and passed in as `endpoints`.
 */
import { z } from "zod";
import * as schemas from "../core/schemas/index.ts";

type Json = Record<string, unknown>;

export const OPENAPI_VERSION = "3.1.0";
export const API_VERSION = "0.1.0";

// ---------------------------------------------------------------------------------------------
// Helpers for building operations

/** `{ $ref }` to a component schema (any `.meta({ id })` schema exported from core/schemas). */
export const schemaRef = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });

/** A JSON response; `schema` is a component id or an inline JSON Schema. */
export const jsonResponse = (description: string, schema: string | Json): Json => ({
  description,
  content: { "application/json": { schema: typeof schema === "string" ? schemaRef(schema) : schema } },
});

/**
 * Adds a `text/event-stream` body to a response: OpenAPI 3.1 has no schema for one event, so the
 * stream's schema is the schema of each event (`event` its name, `data` its JSON), as 3.2's
 * `itemSchema` would say it.
 */
export const withEventStream = (response: Json, eventSchema: string): Json => ({
  ...response,
  content: { ...(response.content as Json), "text/event-stream": { schema: schemaRef(eventSchema) } },
});

/** A response with the Error body (`{ error, url?, retryAfter? }`). */
export const errorResponse = (description: string): Json => jsonResponse(description, "Error");

const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS = ["RateLimit-Policy", "RateLimit", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"];

/**
 * The responses of a rate-limited route (every /v1/* route and /mcp): adds 429 and, unless
 * `auth: false`, 401 (key required when ASSET_SERVER_API_KEY is set), and puts the rate-limit
 * headers on every response (plus Retry-After on the 429).
 */
export function rateLimitedResponses(responses: Record<string, Json>, { auth = true } = {}): Record<string, Json> {
  const all: Record<string, Json> = {
    ...responses,
    ...(auth && !responses["401"] ? { 401: errorResponse("API key required or not accepted (only when the server sets ASSET_SERVER_API_KEY)") } : {}),
    ...(!responses["429"] ? { 429: errorResponse("Rate limit exceeded; `retryAfter` says how many seconds to wait") } : {}),
  };
  return Object.fromEntries(
    Object.entries(all).map(([code, response]) => {
      const names = code === "429" ? [...RATE_LIMIT_HEADERS, "Retry-After"] : RATE_LIMIT_HEADERS;
      const headers = { ...(response.headers as Json | undefined), ...Object.fromEntries(names.map((n) => [n, headerRef(n)])) };
      return [code, { ...response, headers }];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Components generated from the zod schemas

/**
 * Output mode closes every object (`additionalProperties: false`); the API and the published files
 * grow additively, so a closed schema would make strict clients reject new fields.
 */
const openObjects = ({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodTypes; jsonSchema: z.core.JSONSchema.BaseSchema }): void => {
  const def = zodSchema._zod.def;
  if (def.type === "object" && !def.catchall && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
};

/**
 * A standalone JSON Schema (draft 2020-12) of what the service outputs, for readers of the
 * published files (served under `/schemas/`): the schemas it reuses with a meta id are in `$defs`.
 */
export function jsonSchemaDocument(schema: z.ZodType): Json {
  const { $ref, $defs, ...document } = z.toJSONSchema(schema, { target: "draft-2020-12", io: "output", override: openObjects }) as Json;
  // A root with a meta id comes out as a `$ref` to itself in `$defs`: the document is that schema, at the root.
  const id = typeof $ref === "string" ? /^#\/\$defs\/([^/]+)$/.exec($ref)?.[1] : undefined;
  if (id === undefined) return { ...document, ...($ref ? { $ref } : {}), ...($defs ? { $defs } : {}) };
  const { [id]: root, ...others } = $defs as Record<string, Json>;
  const hoisted = JSON.parse(JSON.stringify({ ...root, $defs: others }).replaceAll(`"#/$defs/${id}"`, '"#"')) as Json;
  if (Object.keys(others).length === 0) delete hoisted.$defs;
  return { ...document, ...hoisted };
}

/**
 * The responses of a static file (the published set, the JSON Schemas): 200 with the validators
 * and cache headers of server/static/file.ts, 304 when a revalidation finds it unchanged.
 */
export function staticFileResponses(description: string, mediaType: string, schema: Json, { encoded = true } = {}): Record<string, Json> {
  const header = (text: string): Json => ({ description: text, schema: { type: "string" } });
  const validators = {
    ETag: header("Strong validator of the bytes sent: the sha256 of the file, with `-br` or `-gzip` for a compressed representation."),
    "Last-Modified": header("When the live set was built."),
    "Cache-Control": header("A few minutes, then revalidate with If-None-Match or If-Modified-Since."),
  };
  const negotiation = encoded
    ? {
        Vary: header("`Accept-Encoding`: the body is brotli or gzip when the request accepts it."),
        "Content-Encoding": header("`br` or `gzip` when the body is compressed; absent for the identity bytes."),
      }
    : {};
  return {
    200: { description, headers: { ...validators, ...negotiation }, content: { [mediaType]: { schema } } },
    304: { description: "Not modified: the If-None-Match or If-Modified-Since of the request still holds; no body", headers: validators },
  };
}

/** Every exported schema of core/schemas that carries a meta id, as components/schemas. */
function componentSchemas(): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const value of Object.values(schemas)) {
    const id = value instanceof z.ZodType ? z.globalRegistry.get(value)?.id : undefined;
    if (typeof id === "string") registry.add(value as z.ZodType, { id });
  }
  const { schemas: generated } = z.toJSONSchema(registry, {
    target: "draft-2020-12",
    io: "output", // response bodies are what the server outputs
    uri: (id) => `#/components/schemas/${id}`,
    override: openObjects,
  });
  if ("__shared" in generated) throw new Error("a reused schema without a meta id was extracted; give it .meta({ id })");
  // `$schema` is implied by the document (3.1 = draft 2020-12) and a `$id` with a fragment is not allowed.
  return Object.fromEntries(Object.entries(generated).map(([id, { $schema: _s, $id: _i, ...rest }]) => [id, rest as Json]));
}

/**
 * The query parameters of a string→value transform schema (SearchParams, FileParams): the input
 * schema (a string, its description and length limit), with the type, bounds and default the
 * parameter's `.meta()` gives where the value is not a string (core/schemas/query.ts).
 */
export function queryParameters(params: z.ZodObject): Json[] {
  return Object.entries(params.shape).map(([name, field]) => {
    const { $schema: _s, description, ...schema } = z.toJSONSchema(field as z.ZodType, { target: "draft-2020-12", io: "input" });
    // The input form of a schema has no default (the value is optional); the meta's default is what the service uses.
    const fallback = (field as z.ZodType).meta()?.default;
    return { name, in: "query", required: false, description, schema: { ...schema, ...(fallback !== undefined ? { default: fallback } : {}) } };
  });
}

// ---------------------------------------------------------------------------------------------
// The document

const TAGS = [
  { name: "Search", description: "Aggregated search over every enabled source, with one status line per source." },
  { name: "Assets", description: "Details, licence and files of one asset; file selection and downloads." },
  { name: "Sources", description: "The source sites, and the daily catalog census of what they hold." },
  { name: "MCP", description: "Model Context Protocol endpoint (Streamable HTTP) exposing the same capabilities as tools." },
  { name: "System", description: "Health and machine-readable description of the service." },
];

function describeService(components: Record<string, Json>): string {
  const additive = Object.entries(components).flatMap(([schema, json]) =>
    Object.entries((json.properties ?? {}) as Record<string, Json>)
      .filter(([, p]) => typeof p.description === "string" && p.description.startsWith("additive:"))
      .map(([field, p]) => `- \`${schema}.${field}\`: ${(p.description as string).slice("additive:".length).trim()}`),
  );
  const historyFields = Object.keys(schemas.CatalogHistoryPoint.shape)
    .map((f) => `\`${f}\``)
    .join(", ");
  return [
    "Search many third-party asset sites at once (models, PBR materials, textures, HDRIs, sprites, UI, audio, fonts, packs),",
    "with their licences and file lists, and download the files. Typical flow: search, then asset details, then download.",
    "A slow or failing source never fails a search: it is reported in the response's `providers` array.",
    "",
    "## Authentication",
    "The public server is open: no credentials are needed. The security schemes below apply only when a self-hosted",
    "server sets `ASSET_SERVER_API_KEY`; the key is then required on `/v1/*` and `/mcp` (a missing or wrong key is a 401)",
    "and may be sent as `Authorization: Bearer <key>`, as the `x-api-key` header, or as the `api_key` query parameter",
    "(meant for plain download links). `/health`, `/openapi.json`, `/catalog.json` and `/catalog-history.json` never need it.",
    "",
    "## Hosts and browsers",
    "Every endpoint but `/health` answers 421 to a `Host` the server was not configured for (`ALLOWED_HOSTS`; by default",
    "loopback names, the listening address and the host of `ASSET_SERVER_PUBLIC_URL`), since links are built from it.",
    "`/v1/*`, `/mcp`, `/health`, `/openapi.json`, `/catalog.json` and `/catalog-history.json` send",
    "`Access-Control-Allow-Origin: *`, expose the rate-limit headers and answer CORS preflights with 204.",
    "",
    "## Rate limits",
    "120 requests per minute per client on `/v1/*` and `/mcp` by default (`RATE_LIMIT_PER_MINUTE`). Every response there",
    "carries the `RateLimit-*` headers; a 429 also carries `Retry-After`, and its body has `retryAfter` in seconds.",
    "`/v1/assets/{id}/thumbnail` counts in a bucket of its own, ten times as large (policy `thumbnails`): a page of",
    "results asks for many thumbnails at once.",
    "",
    "## Additive fields",
    "Fields this service adds to the contract's resources (within v1 the API only grows additively):",
    ...additive,
    "",
    "## Catalog history",
    "`/catalog-history.json` is `{ points: CatalogHistoryPoint[] }`, one point per UTC day of the daily census,",
    `with ${historyFields} (listings per source id).`,
    "",
    "## Versioning",
    "The major version is in the path (`/v1`). Deprecated endpoints announce themselves with the `Deprecation` and",
    "`Sunset` headers at least 90 days before removal.",
  ].join("\n");
}

function headerComponents(): Record<string, Json> {
  const header = (description: string, type: "string" | "integer"): Json => ({ description, schema: { type } });
  return {
    "RateLimit-Policy": header("Quota policy: `q` = requests per window, `w` = window in seconds (for example `120;w=60`).", "string"),
    RateLimit: header("Current quota: `r` = requests remaining, `t` = seconds until the window resets.", "string"),
    "RateLimit-Limit": header("Requests allowed per window.", "integer"),
    "RateLimit-Remaining": header("Requests left in the current window.", "integer"),
    "RateLimit-Reset": header("Seconds until the window resets.", "integer"),
    "Retry-After": header("Only on 429: seconds to wait before retrying.", "integer"),
  };
}

/** One operation of the service: `path` as OpenAPI writes it (`/v1/assets/{id}`); one without `operation` is left out. */
export interface Endpoint {
  method: string;
  path: string;
  operation?: Json;
  /** `anyHost`: answered whatever the Host, so never a 421 (server/routes/route.ts). */
  rules?: { anyHost?: boolean };
}

/**
 * The 4xx server/app.ts answers before any route runs: a 400 to an HTTP/1.1 request without a
 * Host, and a 421 to a Host the server does not answer for (server/middleware/host.ts).
 */
function withHostResponses(operation: Json, anyHost: boolean): Json {
  const responses = operation.responses as Record<string, Json>;
  return {
    ...operation,
    responses: {
      ...responses,
      ...(!responses["400"] ? { 400: errorResponse("An HTTP/1.1 request without a Host header") } : {}),
      ...(anyHost || responses["421"] ? {} : { 421: errorResponse("Misdirected: a Host this server does not answer for (ALLOWED_HOSTS)") }),
    },
  };
}

/** The names of the component schemas `node` refers to, and those they refer to, transitively. */
function reachedSchemas(node: unknown, components: Record<string, Json>, reached = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) reachedSchemas(item, components, reached);
  else if (node && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      const id = key === "$ref" && typeof value === "string" ? /^#\/components\/schemas\/(.+)$/.exec(value)?.[1] : undefined;
      if (id !== undefined && !reached.has(id)) {
        reached.add(id);
        reachedSchemas(components[id], components, reached);
      } else reachedSchemas(value, components, reached);
    }
  }
  return reached;
}

export interface OpenApiOptions {
  /** The endpoints, in the order of `paths`; those on one path share its path item. */
  endpoints?: readonly Endpoint[];
  /** Absolute base URL of the server (`servers[0].url`); omitted = relative to the document. */
  serverUrl?: string;
}

export function buildOpenApi(options: OpenApiOptions = {}): Record<string, unknown> {
  const paths: Record<string, Json> = {};
  for (const { method, path, operation, rules } of options.endpoints ?? []) {
    if (operation) paths[path] = { ...paths[path], [method.toLowerCase()]: withHostResponses(operation, rules?.anyHost === true) };
  }
  // Only the schemas the operations use: the others (the CLI's lock file, the MCP tools' results) have their own documents.
  const all = componentSchemas();
  const reached = reachedSchemas(paths, all);
  const components = Object.fromEntries(Object.entries(all).filter(([id]) => reached.has(id)));
  return {
    openapi: OPENAPI_VERSION,
    info: {
      title: "Asset Search and Download Service",
      version: API_VERSION,
      description: describeService(all),
      contact: { name: "asset-search", url: "https://github.com/asset-search/asset-search" },
      license: { name: "MIT", identifier: "MIT" },
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: TAGS,
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }],
    paths,
    components: {
      schemas: components,
      headers: headerComponents(),
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "`Authorization: Bearer <ASSET_SERVER_API_KEY>`" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key", description: "`x-api-key: <ASSET_SERVER_API_KEY>`" },
        apiKeyQuery: { type: "apiKey", in: "query", name: "api_key", description: "`?api_key=<ASSET_SERVER_API_KEY>`, for plain download links" },
      },
    },
  };
}
