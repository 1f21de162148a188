/** CORS: pages on other origins can read the API and the published JSON, not the HTML page. */
import { describe, expect, it } from "vitest";
import { testApp } from "./helpers/app.ts";

const ORIGIN = "http://app.example";
const EXPOSED = "RateLimit,RateLimit-Policy,RateLimit-Limit,RateLimit-Remaining,RateLimit-Reset,Retry-After,Content-Disposition,X-Request-ID";
const ALLOWED_HEADERS = "authorization,x-api-key,content-type,accept,mcp-protocol-version,x-asset-search-client,x-request-id";

const preflight = (method: string, headers = "x-api-key") => ({
  method: "OPTIONS",
  headers: { origin: ORIGIN, "access-control-request-method": method, "access-control-request-headers": headers },
});

describe("CORS", () => {
  it.each(["/v1/search?q=chair", "/v1/providers", "/v1/assets/polyhaven:ArmChair_01", "/health", "/openapi.json", "/catalog.json", "/catalog-history.json"])(
    "GET %s is readable from any origin, with the rate-limit headers exposed",
    async (path) => {
      const { get } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "10" } });
      const res = await get(path, { headers: { origin: ORIGIN } });
      expect(res.status).toBe(200);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-expose-headers")).toBe(EXPOSED);
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    },
  );

  it.each([
    ["/v1/search", "GET"],
    ["/v1/assets/polyhaven:ArmChair_01/download", "GET"],
    ["/mcp", "POST"],
    ["/openapi.json", "GET"],
    ["/catalog.json", "GET"],
  ])("a preflight of %s is a 204 that needs no key and costs no quota", async (path, method) => {
    const { get } = await testApp({ env: { ASSET_SERVER_API_KEY: "k", RATE_LIMIT_PER_MINUTE: "1" } });
    for (let i = 0; i < 3; i++) {
      const res = await get(path, preflight(method, "authorization,content-type,mcp-protocol-version"));
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("access-control-allow-methods")).toBe("GET,HEAD,POST");
      expect(res.headers.get("access-control-allow-headers")).toBe(ALLOWED_HEADERS);
      expect(res.headers.get("access-control-max-age")).toBe("7200");
      expect(res.headers.get("ratelimit-remaining")).toBeNull();
    }
    expect((await get("/v1/providers", { headers: { "x-api-key": "k" } })).headers.get("ratelimit-remaining")).toBe("0");
  });

  it("errors are readable too: a 401 and a 429 carry the CORS headers", async () => {
    const { get } = await testApp({ env: { ASSET_SERVER_API_KEY: "k", RATE_LIMIT_PER_MINUTE: "1" } });
    const unauthorised = await get("/v1/providers", { headers: { origin: ORIGIN } });
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get("access-control-allow-origin")).toBe("*");
    const limited = await get("/v1/providers", { headers: { origin: ORIGIN, "x-api-key": "k" } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("access-control-allow-origin")).toBe("*");
    expect(limited.headers.get("access-control-expose-headers")).toBe(EXPOSED);
  });

  it("the HTML page gets no CORS headers, and OPTIONS without a preflight is still a 405", async () => {
    const { get } = await testApp();
    const page = await get("/", { headers: { origin: ORIGIN } });
    expect(page.headers.get("access-control-allow-origin")).toBeNull();
    expect((await get("/", preflight("GET"))).status).toBe(404);
    const options = await get("/v1/search", { method: "OPTIONS" });
    expect(options.status).toBe(405);
    expect(await options.json()).toEqual({ error: "method OPTIONS not allowed on /v1/search" });
  });
});
