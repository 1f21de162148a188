/**
 * `POST /mcp`: MCP over Streamable HTTP, stateless. Every request gets
 * a new `McpServer` and a new web-standard transport answering with plain JSON (no SSE, no session).
 *
 * Who answers what:
 * - the app's middleware (before this handler): 401 wrong or missing key, 429 rate limit, both
 *   `{ error }` bodies as on `/v1/*`, and the rate-limit headers;
 * - this file: 405 for GET and DELETE (`{ error }`, `Allow: POST`: no SSE stream and no session to
 *   end on a stateless endpoint), 400 for an unsupported `MCP-Protocol-Version` on every
 *   request, `initialize` included (the SDK checks it only after initialisation), and 400 for a
 *   JSON-RPC batch: the 2025-06-18 revision of MCP dropped batching, and a batch would let one
 *   request of the rate limit run dozens of tool calls;
 * - the SDK transport: 406 when Accept lacks `application/json` or `text/event-stream`, 415 when the
 *   body is not `application/json`, 400 for unparsable JSON or JSON-RPC, 413 for a body over 1 MiB,
 *   202 (empty body) for notifications and responses, 200 with the JSON-RPC response otherwise.
 *   Its errors are JSON-RPC error objects `{ jsonrpc: "2.0", error: { code, message }, id: null }`:
 *   what MCP clients expect, and still JSON with an `error` field. Ours below use the same shape.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { H3Event } from "h3";
import { type AppDeps, publicBase } from "../context.ts";
import { ApiError } from "../errors.ts";
import { errorResponse, jsonResponse, rateLimitedResponses } from "../openapi.ts";

/** Upper bound of one JSON-RPC request body. */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

/** A JSON-RPC error response, the shape the SDK transport uses for its own HTTP errors. */
function jsonRpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), {
    status,
    headers: { "content-type": "application/json" },
  });
}

/** The headers the middleware staged (rate limit) onto `res`: h3 adds them to a returned Response only below 400. */
function withStagedHeaders(res: Response, event: H3Event): Response {
  const headers = new Headers(res.headers);
  event.res.headers.forEach((value, key) => {
    if (!headers.has(key)) headers.set(key, value);
  });
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
}

const isJsonWhitespace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * Whether the body is a JSON array (a JSON-RPC batch), from its first non-blank byte. Reads a
 * copy of the body and stops there, so the transport still reads (and size-checks) the original.
 */
async function isBatch(req: Request): Promise<boolean> {
  const reader = req.clone().body?.getReader();
  if (!reader) return false;
  try {
    for (let seen = 0; seen <= MCP_MAX_BODY_BYTES; ) {
      const { value, done } = await reader.read();
      if (done) return false;
      const first = value.findIndex((byte) => !isJsonWhitespace(byte));
      if (first >= 0) return value[first] === 0x5b;
      seen += value.length;
    }
    return false;
  } finally {
    void reader.cancel().catch(() => {});
  }
}

/** POST /mcp */
export async function mcpRoute(event: H3Event, deps: AppDeps): Promise<Response> {
  const version = event.req.headers.get("mcp-protocol-version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    const message = `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`;
    return withStagedHeaders(jsonRpcError(400, -32000, message), event);
  }
  if (await isBatch(event.req)) {
    const message = "Invalid Request: JSON-RPC batches are not supported; send one message per POST (MCP 2025-06-18 dropped batching)";
    return withStagedHeaders(jsonRpcError(400, -32600, message), event);
  }
  // The SDK's server side and the tools load with the first MCP request, not at start (bench/coldstart.ts).
  const [{ createMcpServer }, { WebStandardStreamableHTTPServerTransport }] = await Promise.all([
    import("./tools.ts"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]);
  const server = createMcpServer(deps, { baseUrl: publicBase(deps, event), surface: "mcp" });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MCP_MAX_BODY_BYTES,
  });
  try {
    await server.connect(transport);
    // With JSON responses the transport resolves once every response of the request is ready.
    return withStagedHeaders(await transport.handleRequest(event.req), event);
  } finally {
    await server.close();
  }
}

/** GET and DELETE /mcp (and any other method but POST). */
export function mcpMethodNotAllowed(event: H3Event): never {
  throw new ApiError(
    405,
    `method ${event.req.method} not allowed on /mcp: this MCP endpoint is stateless (no SSE stream, no session); send JSON-RPC requests with POST`,
    {},
    { allow: "POST" },
  );
}

// ---------------------------------------------------------------------------------------------
// OpenAPI

const JSON_RPC_ERROR = {
  type: "object",
  required: ["code", "message"],
  properties: { code: { type: "integer" }, message: { type: "string" }, data: {} },
};

const JSON_RPC_REQUEST = {
  type: "object",
  description: "A JSON-RPC 2.0 request (with `id`) or notification (without).",
  required: ["jsonrpc", "method"],
  properties: {
    jsonrpc: { const: "2.0" },
    id: { type: ["string", "integer"] },
    method: { type: "string", description: "initialize, tools/list, tools/call, ping, notifications/initialized …" },
    params: { type: "object", description: "for tools/call: `name` (search_assets, get_asset, similar_assets, list_providers, get_credits) and `arguments`" },
  },
  examples: [
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "search_assets", arguments: { query: "sunset", types: ["hdri"] } },
    },
  ],
};

const JSON_RPC_RESPONSE = {
  type: "object",
  description: "A JSON-RPC 2.0 response: `result` on success, `error` when the method failed. A tool's own failure is a `result` with `isError: true`.",
  required: ["jsonrpc"],
  properties: {
    jsonrpc: { const: "2.0" },
    id: { type: ["string", "integer", "null"] },
    result: { type: "object" },
    error: JSON_RPC_ERROR,
  },
};

const JSON_RPC_ERROR_BODY = {
  type: "object",
  description: "A JSON-RPC 2.0 error response (HTTP-level problems of the MCP transport).",
  required: ["jsonrpc", "error", "id"],
  properties: {
    jsonrpc: { const: "2.0" },
    id: { type: "null" },
    error: JSON_RPC_ERROR,
  },
};

/** The OpenAPI operation of `POST /mcp`; GET and DELETE are documented as its 405. */
export function mcpOperation(): Record<string, unknown> {
  const rpcError = (description: string) => jsonResponse(description, JSON_RPC_ERROR_BODY);
  return {
    operationId: "mcp",
    tags: ["MCP"],
    summary: "Model Context Protocol endpoint (Streamable HTTP, stateless)",
    description: [
      "Stateless JSON-RPC 2.0 over Streamable HTTP: no session, each POST is answered with plain JSON (no SSE).",
      "Send `Content-Type: application/json` and `Accept: application/json, text/event-stream`.",
      "Tools: `search_assets` (query, types, providers, free_only, downloadable_only, limit, offset), `get_asset` (id, format, resolution, maps)",
      "`similar_assets` (id, type, limit), `list_providers` and `get_credits` (ids, format, modified); each has an input and an output schema (see `tools/list`) and answers with `structuredContent` plus the same JSON as text.",
      "A tool's failure (bad id, unknown source, bad argument, failing source) is a result with `isError: true` and a message saying what to do.",
      "Transport errors (400, 406, 413, 415) are JSON-RPC error objects; 401, 405 and 429 are the service's `Error` body.",
      "`get_asset` download URLs use this server's ASSET_SERVER_PUBLIC_URL, else the request origin; its content also links the download and each file (`resource_link`).",
      "`download_asset` exists only over stdio with a project folder (`asset-search mcp --root`): this server never writes to disk.",
    ].join(" "),
    parameters: [
      {
        name: "MCP-Protocol-Version",
        in: "header",
        required: false,
        description: "Negotiated MCP protocol version; an unsupported one is a 400.",
        schema: { type: "string", enum: [...SUPPORTED_PROTOCOL_VERSIONS] },
      },
    ],
    requestBody: { required: true, content: { "application/json": { schema: JSON_RPC_REQUEST } } },
    responses: rateLimitedResponses({
      200: jsonResponse("The JSON-RPC 2.0 response", JSON_RPC_RESPONSE),
      202: { description: "Accepted: the body held only notifications (or responses); no body" },
      400: rpcError("Malformed JSON or JSON-RPC message, a JSON-RPC batch (one message per POST), or unsupported `MCP-Protocol-Version`"),
      401: errorResponse("API key required or not accepted (only when the server sets ASSET_SERVER_API_KEY)"),
      405: errorResponse("GET or DELETE /mcp: the endpoint is stateless, so there is no SSE stream and no session; `Allow: POST`"),
      406: rpcError("The client does not accept both `application/json` and `text/event-stream`"),
      413: rpcError("Request body over 1 MiB"),
      415: rpcError("The body is not `application/json`"),
    }),
  };
}
