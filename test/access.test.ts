/**
 * Access control on every path that reaches a handler: the key and the rate limit
 * follow the route the router matched, whatever spelling of its path; batches, forwarded
 * addresses, Host headers and asset ids cannot get around them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { ErrorBody } from "../core/schemas/index.ts";
import { listen, testApp } from "./helpers/app.ts";
import { rawRequest } from "./helpers/raw-request.ts";

const KEY = "s3cret-key";
const MCP_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const toolCall = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "list_providers", arguments: {} } });

/** Every way of spelling `path` that a router or a URL parser might take for the same route. */
function variants(path: string): string[] {
  const [first, ...rest] = path.slice(1).split("/");
  const tail = rest.length ? `/${rest.join("/")}` : "";
  const encodedFirst = `/%${first!.charCodeAt(0).toString(16)}${first!.slice(1)}${tail}`;
  return [
    path,
    `${path}/`,
    `${path}/.`,
    `${path}//`,
    `/${path}`,
    `/${first}/${tail.slice(1) ? `/${tail.slice(1)}` : ""}`,
    `/x/..${path}`,
    `/${first}/.${tail}`,
    path.toUpperCase(),
    `/${first!.toUpperCase()}${tail}`,
    encodedFirst,
    `${path.slice(0, -1)}%${path.at(-1)!.charCodeAt(0).toString(16).toUpperCase()}`,
  ];
}

const PROTECTED: [method: string, path: string][] = [
  ["GET", "/v1/search"],
  ["GET", "/v1/providers"],
  ["GET", "/v1/catalog"],
  ["GET", "/v1/stats"],
  ["GET", "/v1/assets/polyhaven:ArmChair_01"],
  ["GET", "/v1/assets/polyhaven:ArmChair_01/files"],
  ["GET", "/v1/assets/polyhaven:ArmChair_01/download"],
  ["GET", "/v1/assets/polyhaven:ArmChair_01/raw/ArmChair_01_2k.gltf"],
  ["POST", "/mcp"],
];

describe("every spelling of a protected route is protected like it, or not served", () => {
  let server: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    const { app } = await testApp({ env: { ASSET_SERVER_API_KEY: KEY, RATE_LIMIT_PER_MINUTE: "100000" } });
    server = await listen(app);
  });
  afterAll(() => server.close());

  it.each(PROTECTED)("%s %s", async (method, path) => {
    const body = method === "POST" ? JSON.stringify(toolCall(1)) : undefined;
    const headers = method === "POST" ? MCP_HEADERS : {};
    const seen: string[] = [];
    for (const variant of variants(path)) {
      const res = await rawRequest(server.url, method, variant, headers, body);
      seen.push(`${variant} → ${res.status}`);
      if (res.status === 404) {
        expect(JSON.parse(res.body).error, variant).toMatch(/^no route for /);
        continue;
      }
      expect(res.status, variant).toBe(401);
      expect(JSON.parse(res.body), variant).toEqual({
        error: "API key required: send Authorization: Bearer <key>, x-api-key: <key> or ?api_key=<key>",
      });
      expect(res.headers["ratelimit-limit"], variant).toBe("100000");
      expect(res.headers["www-authenticate"], variant).toBe("Bearer");
    }
    // The canonical path and at least the trailing-slash and dot spellings reach the route.
    expect(seen.filter((s) => s.endsWith("401")).length, seen.join("\n")).toBeGreaterThanOrEqual(3);
  });

  it("/mcp/ with the key answers the tool call (it is the same route)", async () => {
    const res = await rawRequest(server.url, "POST", "/mcp/", { ...MCP_HEADERS, "x-api-key": KEY }, JSON.stringify(toolCall(1)));
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body).result.structuredContent.providers.length).toBeGreaterThan(20);
  });
});

describe("the rate limit on /mcp/ spellings", () => {
  it("counts /mcp/ and /mcp/. against the same quota and answers 429 past it", async () => {
    const { app } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "3" } });
    const server = await listen(app);
    try {
      const statuses: (string | undefined)[] = [];
      for (const path of ["/mcp/", "/mcp/.", "/mcp", "/mcp/"]) {
        const res = await rawRequest(server.url, "POST", path, MCP_HEADERS, JSON.stringify(toolCall(1)));
        statuses.push(`${res.status} r=${res.headers["ratelimit-remaining"]}`);
      }
      expect(statuses).toEqual(["200 r=2", "200 r=1", "200 r=0", "429 r=0"]);
    } finally {
      await server.close();
    }
  });
});

describe("JSON-RPC batches", () => {
  it("refuses a batch with a JSON-RPC error and runs none of its calls", async () => {
    const { get, usage } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "120" } });
    const batch = Array.from({ length: 50 }, (_, i) => ({ ...toolCall(i + 1), params: { name: "search_assets", arguments: { query: "chair" } } }));
    const res = await get("/mcp", { method: "POST", headers: MCP_HEADERS, body: `\n  ${JSON.stringify(batch)}` });
    expect(res.status).toBe(400);
    expect(res.headers.get("ratelimit-remaining")).toBe("119");
    expect(await res.json()).toEqual({
      jsonrpc: "2.0",
      error: { code: -32600, message: "Invalid Request: JSON-RPC batches are not supported; send one message per POST (MCP 2025-06-18 dropped batching)" },
      id: null,
    });
    expect((await usage.snapshot()).window).toMatchObject({ searches: 0, toolCalls: 0 });
  });
});

describe("TRUST_PROXY hops", () => {
  const from = async (get: (p: string, i?: RequestInit) => Response | Promise<Response>, xff: string) =>
    (await get("/v1/providers", { headers: { "x-forwarded-for": xff } })).status;

  it("a rotating spoofed leftmost entry does not make a new client", async () => {
    const { get } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "5", TRUST_PROXY: "true" } });
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push(await from(get, `10.0.${i}.1, 203.0.113.9`));
    expect(statuses).toEqual([...Array(5).fill(200), ...Array(15).fill(429)]);
    expect(await from(get, "203.0.113.10")).toBe(200);
  });

  it("takes the entry as many hops from the right as TRUST_PROXY says", async () => {
    const { get } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "1", TRUST_PROXY: "2" } });
    // client-written, real client, our first proxy (the socket is our second one)
    expect(await from(get, "198.51.100.1, 203.0.113.5, 10.0.0.2")).toBe(200);
    expect(await from(get, "198.51.100.2, 203.0.113.5, 10.0.0.3")).toBe(429);
    expect(await from(get, "198.51.100.1, 203.0.113.6, 10.0.0.2")).toBe(200);
  });

  it.each([
    ["false", 0],
    ["true", 1],
    ["3", 3],
  ])("reads TRUST_PROXY=%s as %i hops", (value, hops) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxyHops).toBe(hops);
  });

  it("refuses a TRUST_PROXY it cannot read, naming it", () => {
    expect(() => loadConfig({ TRUST_PROXY: "loopback" })).toThrow("TRUST_PROXY must be true, false or a number of proxy hops, got 'loopback'");
  });
});

describe("Host", () => {
  const at = (app: { fetch: (r: Request) => Promise<Response> | Response }, url: string) => Promise.resolve(app.fetch(new Request(url)));

  it("answers an unknown Host with a JSON 421 and builds no link from it", async () => {
    const { app } = await testApp();
    const res = await at(app, "http://evil.example/v1/assets/polyhaven:ArmChair_01");
    expect(res.status).toBe(421);
    expect(await res.json()).toEqual({
      error: "unknown host 'evil.example': this server does not answer for it (its operator can add it to ALLOWED_HOSTS or set ASSET_SERVER_PUBLIC_URL)",
    });
    const mcp = await app.fetch(new Request("http://evil.example/mcp", { method: "POST", headers: MCP_HEADERS, body: JSON.stringify(toolCall(1)) }));
    expect(mcp.status).toBe(421);
    expect((await at(app, "http://evil.example/")).status).toBe(421);
    expect((await at(app, "http://evil.example/health")).status).toBe(200);
  });

  it("over a real socket, a forged Host header is refused", async () => {
    const { app } = await testApp();
    const server = await listen(app);
    try {
      const res = await rawRequest(server.url, "GET", "/v1/assets/polyhaven:ArmChair_01", { host: "evil.example:8787" });
      expect(res.status).toBe(421);
      const ok = await rawRequest(server.url, "GET", "/v1/assets/polyhaven:ArmChair_01");
      expect(JSON.parse(ok.body).shareUrl).toBe(`${server.url}/?asset=polyhaven%3AArmChair_01`);
    } finally {
      await server.close();
    }
  });

  it("builds links from an allowed Host, and from the public URL whatever the Host", async () => {
    const allowed = await testApp({ env: { ALLOWED_HOSTS: "assets.example, localhost" } });
    const viaAllowed = await at(allowed.app, "http://assets.example:8080/v1/assets/polyhaven:ArmChair_01");
    expect((await viaAllowed.json()).shareUrl).toBe("http://assets.example:8080/?asset=polyhaven%3AArmChair_01");
    expect((await at(allowed.app, "http://127.0.0.1/v1/providers")).status).toBe(421);

    const configured = await testApp({ env: { ASSET_SERVER_PUBLIC_URL: "https://search.example/" } });
    const viaPublic = await at(configured.app, "http://search.example/v1/assets/polyhaven:ArmChair_01");
    expect((await viaPublic.json()).shareUrl).toBe("https://search.example/?asset=polyhaven%3AArmChair_01");
    expect((await at(configured.app, "http://evil.example/v1/providers")).status).toBe(421);

    const any = await testApp({ env: { ALLOWED_HOSTS: "*" } });
    expect((await at(any.app, "http://anything.example/v1/providers")).status).toBe(200);
  });
});

describe("asset ids that would climb the upstream path", () => {
  it.each(["polyhaven:..", "polyhaven:.", "polyhaven:%2e%2e", "polyhaven:%252E%252e", "polyhaven:a%2F..%2Fb", "sketchfab:..%5Cme", "polyhaven:x%3Fa%3D1"])(
    "%s is a 400 on all three asset endpoints, and nothing is fetched",
    async (id) => {
      const { get, replay } = await testApp();
      for (const suffix of ["", "/files", "/download"]) {
        const res = await get(`/v1/assets/${id}${suffix}`);
        expect(res.status, `${id}${suffix}`).toBe(400);
        expect(ErrorBody.parse(await res.json()).error).toMatch(/^malformed asset id '(polyhaven|sketchfab):.+': /);
      }
      expect(replay.requested).toEqual([]);
    },
  );

  it("dots inside a name are still part of an asset id", async () => {
    const { get, replay } = await testApp();
    expect((await get("/v1/assets/polyhaven:ArmChair_01..")).status).toBe(502); // not recorded
    expect(replay.requested).toContain("https://api.polyhaven.com/info/ArmChair_01..");
  });
});

describe("a source this server has no key for", () => {
  it.each([
    ["googlefonts:Roboto", "Google Fonts", "GOOGLE_FONTS_API_KEY"],
    ["freesound:12345", "Freesound", "FREESOUND_API_KEY"],
    ["thingiverse:12345", "Thingiverse", "THINGIVERSE_TOKEN"],
  ])("%s answers 503 naming %s's variable on every asset endpoint", async (id, name, env) => {
    const { get, replay } = await testApp();
    for (const suffix of ["", "/files", "/download"]) {
      const res = await get(`/v1/assets/${id}${suffix}`);
      expect(res.status, suffix).toBe(503);
      expect(await res.json()).toEqual({ error: `${name} is not configured on this server: set ${env} to enable it` });
    }
    expect(replay.requested).toEqual([]);
  });
});
