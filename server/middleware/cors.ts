import { type CorsOptions, type H3Event, type HTTPResponse, handleCors } from "h3";

/**
 * Any origin may read the API, the published JSON and the OpenAPI description (API explorers,
 * front ends elsewhere). No cookies are involved (the key is sent explicitly), so `*` is safe.
 */
const CORS: CorsOptions = {
  origin: "*",
  methods: ["GET", "HEAD", "POST"],
  // A front end elsewhere may send its own request id and read the one answered (server/middleware/request-log.ts).
  allowHeaders: ["authorization", "x-api-key", "content-type", "accept", "mcp-protocol-version", "x-asset-search-client", "x-request-id"],
  exposeHeaders: [
    "RateLimit",
    "RateLimit-Policy",
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "Retry-After",
    "Content-Disposition",
    "X-Request-ID",
  ],
  maxAge: "7200",
  preflight: { statusCode: 204 },
};

/** Adds the CORS headers; a preflight is answered here (204), before the key and the rate limit. */
export function cors(event: H3Event): HTTPResponse | undefined {
  return handleCors(event, CORS) || undefined;
}
