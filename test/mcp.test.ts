import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type CallToolResult, LATEST_PROTOCOL_VERSION, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { SEARCH_PARAMETERS } from "../core/model/search-params.ts";
import type { Source } from "../core/model/source.ts";
import { type AssetDetails, ErrorBody, FileSelection } from "../core/schemas/index.ts";
import { GetAssetOutput, ListProvidersOutput, SearchAssetsOutput } from "../server/mcp/tools.ts";
import { SOURCES } from "../sources/index.ts";
import { listen, testApp } from "./helpers/app.ts";

type TestApp = Awaited<ReturnType<typeof testApp>>;
type Served = Awaited<ReturnType<typeof listen>> & Pick<TestApp, "replay" | "usage">;

async function serveApp(env: Record<string, string> = {}, sources?: readonly Source[]): Promise<Served> {
  const { app, replay, usage } = await testApp({ env, ...(sources ? { sources } : {}) });
  return { ...(await listen(app)), replay, usage };
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "asset-search-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

const ajv = new AjvJsonSchemaValidator();
const OUTPUTS = { search_assets: SearchAssetsOutput, get_asset: GetAssetOutput, list_providers: ListProvidersOutput } as const;

/** A successful tool result: structured content valid against the listed output schema (JSON Schema and zod), same JSON as text. */
function structured(tools: Tool[], name: keyof typeof OUTPUTS, result: CallToolResult) {
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  const tool = tools.find((t) => t.name === name)!;
  const check = ajv.getValidator(tool.outputSchema as never)(result.structuredContent);
  expect(check.errorMessage).toBeUndefined();
  const [first] = result.content;
  expect(first?.type).toBe("text");
  expect(JSON.parse((first as { text: string }).text)).toEqual(result.structuredContent);
  return OUTPUTS[name].parse(result.structuredContent);
}

const errorText = (result: CallToolResult): string => {
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
};

describe("MCP over Streamable HTTP", () => {
  let served: Served;
  let client: Client;
  let tools: Tool[];

  beforeAll(async () => {
    served = await serveApp();
    client = await connect(served.url);
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client?.close();
    await served?.close();
  });

  it("initializes with instructions that give the flow and ask for licences", () => {
    expect(client.getServerVersion()?.name).toBe("asset-search");
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const instructions = client.getInstructions() ?? "";
    for (const word of ["search_assets", "get_asset", "downloadUrl", "licence", "attribution"]) expect(instructions).toContain(word);
  });

  it("lists the tools with input and output schemas and read-only, open-world annotations", () => {
    expect(tools.map((t) => t.name).sort()).toEqual(["get_asset", "get_credits", "list_providers", "search_assets", "similar_assets"]);
    for (const tool of tools) {
      expect(tool.description, tool.name).toMatch(/\w{10}/);
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    }
    const search = tools.find((t) => t.name === "search_assets")!;
    // /v1/search's parameters under their names, plus the names the tool had before, kept as aliases.
    expect(Object.keys(search.inputSchema.properties ?? {}).sort()).toEqual(
      [...Object.keys(SEARCH_PARAMETERS), "query", "types", "free_only", "downloadable_only"].sort(),
    );
    expect(search.inputSchema.required).toBeUndefined();
    const props = search.inputSchema.properties as Record<string, { description?: string; minimum?: number; maximum?: number }>;
    expect(props.limit).toMatchObject({ minimum: 1, maximum: 100, description: SEARCH_PARAMETERS.limit.query.description });
    expect(props.maxPolys).toMatchObject({ minimum: 1, description: SEARCH_PARAMETERS.maxPolys.query.description });
    expect(props.free_only!.description).toMatch(/^alias of free/);
    expect(search.description).toContain("query, types, free_only and downloadable_only are still accepted as aliases");
    const get = tools.find((t) => t.name === "get_asset")!;
    expect(Object.keys(get.inputSchema.properties ?? {}).sort()).toEqual(["format", "id", "maps", "resolution"]);
  });

  it("search_assets finds the arm chair with its licence and one status line per source", async () => {
    const result = (await client.callTool({ name: "search_assets", arguments: { query: "arm chair", limit: 5 } })) as CallToolResult;
    const body = structured(tools, "search_assets", result) as ReturnType<typeof SearchAssetsOutput.parse>;
    const chair = body.results[0]!;
    expect(chair).toMatchObject({ id: "polyhaven:ArmChair_01", type: "model", downloadable: true });
    expect(chair.license?.spdx).toBe("CC0-1.0");
    expect(chair.formats).toContain("gltf");
    expect(chair.thumbnailUrl).toMatch(/^https:\/\//);
    expect(body.providers.find((p) => p.provider === "polyhaven")).toMatchObject({ status: "ok" });
    for (const link of body.providers.filter((p) => p.status === "link")) expect(link.searchUrl).toMatch(/^https:\/\//);
  });

  it("search_assets takes /v1/search's filters, sort and facets under their names", async () => {
    const result = (await client.callTool({
      name: "search_assets",
      arguments: { q: "sunset", type: ["hdri"], license: ["cc0"], format: ["exr"], exclude: ["ambientcg"], sort: "newest", facets: true, limit: 5 },
    })) as CallToolResult;
    const body = structured(tools, "search_assets", result) as ReturnType<typeof SearchAssetsOutput.parse>;
    expect(body.results.length).toBeGreaterThan(0);
    for (const r of body.results) {
      expect(r.license?.spdx, r.id).toBe("CC0-1.0");
      expect(r.formats, r.id).toContain("exr");
    }
    expect(body.providers.find((p) => p.provider === "ambientcg")).toBeUndefined();
    const dates = body.results.map((r) => r.createdAt ?? "");
    expect(dates).toEqual([...dates].sort().reverse());
    expect(body.facets!.total).toBe(body.facets!.source.reduce((n, f) => n + f.count, 0));
  });

  it("search_assets refuses a bad filter value by name, as /v1/search does", async () => {
    const result = (await client.callTool({ name: "search_assets", arguments: { q: "chair", license: ["nope"] } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toMatch(/^unknown license 'nope'; known licences/);
  });

  it("search_assets filters like /v1/search", async () => {
    const result = (await client.callTool({
      name: "search_assets",
      arguments: { query: "rock", types: ["texture"], providers: ["polyhaven"], free_only: true, downloadable_only: true, limit: 3, offset: 3 },
    })) as CallToolResult;
    const body = structured(tools, "search_assets", result) as ReturnType<typeof SearchAssetsOutput.parse>;
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(3);
    expect(body.results.every((r) => r.type === "texture" && r.provider === "polyhaven")).toBe(true);
    expect(body.types).toEqual(["texture"]);
    expect(body.providers.map((p) => p.provider)).toEqual(["polyhaven"]);
  });

  it("get_asset returns the licence, the selected files with sizes and this server's download URL", async () => {
    const result = (await client.callTool({ name: "get_asset", arguments: { id: "polyhaven:ArmChair_01" } })) as CallToolResult;
    const body = structured(tools, "get_asset", result) as ReturnType<typeof GetAssetOutput.parse>;
    expect(body.id).toBe("polyhaven:ArmChair_01");
    expect(body.license?.spdx).toBe("CC0-1.0");
    expect(body.attribution).toBeUndefined(); // CC0 asks for no credit
    expect(body.asset).toMatchObject({ title: "Arm Chair 01", author: expect.any(String), url: "https://polyhaven.com/a/ArmChair_01" });
    expect(body.asset.shareUrl).toBe(`${served.url}/?asset=polyhaven%3AArmChair_01`);
    expect(body.files).toHaveLength(1);
    expect(body.files[0]).toMatchObject({ format: "gltf", resolution: "2k", sizeBytes: expect.any(Number) });
    expect(body.files[0]!.includes!.every((i) => typeof i.sizeBytes === "number")).toBe(true);
    expect(body.totalBytes).toBeGreaterThan(body.files[0]!.sizeBytes!);
    expect(body.delivery).toBe("zip"); // a glTF with companions
    expect(body.downloadUrl).toBe(`http://127.0.0.1:${served.port}/v1/assets/polyhaven%3AArmChair_01/download`);
    expect(body.notes.join(" ")).toMatch(/CC0/);
    // The same selection as /files, which the download URL delivers.
    const files = FileSelection.parse(await (await fetch(body.downloadUrl!.replace(/\/download$/, "/files"))).json());
    expect(files.files).toEqual(body.files);
    expect(files.totalBytes).toBe(body.totalBytes);
  });

  it("get_asset passes format, resolution and maps on to the download URL", async () => {
    const result = (await client.callTool({
      name: "get_asset",
      arguments: { id: "polyhaven:ArmChair_01", resolution: "1k", maps: ["diff", "nor_gl"] },
    })) as CallToolResult;
    const body = structured(tools, "get_asset", result) as ReturnType<typeof GetAssetOutput.parse>;
    expect(body.files.map((f) => f.mapType)).toEqual(["diffuse", "normal_gl"]);
    expect(body.files.every((f) => f.resolution === "1k")).toBe(true);
    expect(body.delivery).toBe("zip");
    const url = new URL(body.downloadUrl!);
    expect(url.pathname).toBe("/v1/assets/polyhaven%3AArmChair_01/download");
    expect(Object.fromEntries(url.searchParams)).toEqual({ resolution: "1k", maps: "diff,nor_gl" });
    const files = FileSelection.parse(await (await fetch(`${served.url}/v1/assets/polyhaven%3AArmChair_01/files${url.search}`)).json());
    expect(files.files).toEqual(body.files);
  });

  it("list_providers lists every source with access, pricing, downloads, enabled and key", async () => {
    const result = (await client.callTool({ name: "list_providers", arguments: {} })) as CallToolResult;
    const body = structured(tools, "list_providers", result) as ReturnType<typeof ListProvidersOutput.parse>;
    expect(body.providers.find((p) => p.id === "polyhaven")).toMatchObject({
      name: "Poly Haven",
      access: "api",
      pricing: "free",
      supportsDownload: true,
      enabled: true,
    });
    expect(body.providers.every((p) => p.assetTypes.length > 0 && typeof p.enabled === "boolean")).toBe(true);
    for (const p of body.providers.filter((p) => p.enabled === false)) expect(p.keyEnv, p.id).toMatch(/^[A-Z_]+$/);
  });

  it("answers bad ids, unknown sources, bad parameters and source failures with isError results", async () => {
    const call = async (name: string, args: Record<string, unknown>) => errorText((await client.callTool({ name, arguments: args })) as CallToolResult);
    expect(await call("get_asset", { id: "no-colon-here" })).toMatch(/^malformed asset id 'no-colon-here': expected <provider>:<nativeId>\. Fix/);
    expect(await call("get_asset", { id: "nosuch:thing" })).toMatch(/^unknown asset 'nosuch:thing': no source 'nosuch'\. .*list_providers/);
    expect(await call("search_assets", { query: "chair", providers: ["nosuchsite"] })).toMatch(/^unknown source 'nosuchsite'; call list_providers/);
    expect(await call("search_assets", { query: "chair", limit: 0 })).toMatch(/limit/);
    expect(await call("search_assets", { query: "chair", types: ["modle"] })).toMatch(/types/);
    expect(await call("get_asset", { id: "polyhaven:ArmChair_01", resolution: "huge" })).toMatch(/^resolution must look like 1k, 2k, 4k or 8k, got 'huge'/);

    served.replay.add({ url: "https://api.polyhaven.com/info/Missing_01", status: 404, body: "{}" });
    served.replay.add({ url: "https://api.polyhaven.com/files/Missing_01", status: 404, body: "{}" });
    expect(await call("get_asset", { id: "polyhaven:Missing_01" })).toMatch(/^unknown asset 'polyhaven:Missing_01'\. Use an `id`/);
    served.replay.add({ url: "https://api.polyhaven.com/info/Broken_01", status: 500, body: "oops" });
    served.replay.add({ url: "https://api.polyhaven.com/files/Broken_01", status: 500, body: "oops" });
    expect(await call("get_asset", { id: "polyhaven:Broken_01" })).toMatch(/^the source site failed: .*try again later/);
  });

  it("counts tool calls and MCP searches in the usage statistics", async () => {
    const before = await served.usage.snapshot();
    await client.callTool({ name: "search_assets", arguments: { query: "chair", types: ["model"] } });
    await client.callTool({ name: "list_providers", arguments: {} });
    const after = await served.usage.snapshot();
    expect(after.window.toolCalls - before.window.toolCalls).toBe(2);
    expect(after.window.bySurface.mcp - before.window.bySurface.mcp).toBe(1);
    expect(after.window.bySurface.api).toBe(before.window.bySurface.api);
    expect(after.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["search_assets", "list_providers"]));
  });

  it("documents POST /mcp in /openapi.json (tag MCP) in a valid document", async () => {
    const doc = (await (await fetch(`${served.url}/openapi.json`)).json()) as Record<string, any>;
    const op = doc.paths["/mcp"].post;
    expect(op.tags).toEqual(["MCP"]);
    expect(op.requestBody.content["application/json"].schema.required).toEqual(["jsonrpc", "method"]);
    expect(Object.keys(op.responses).sort()).toEqual(["200", "202", "400", "401", "405", "406", "413", "415", "421", "429"]);
    expect(op.responses["429"].headers["Retry-After"]).toEqual({ $ref: "#/components/headers/Retry-After" });
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? undefined : compileErrors(result)).toBeUndefined();
  });
});

describe("get_asset licences", () => {
  // A site with an attribution licence and no direct downloads (every Poly Haven asset is CC0).
  const details: AssetDetails = {
    id: "stubsite:lamp-1",
    provider: "stubsite",
    nativeId: "lamp-1",
    title: "Desk Lamp",
    type: "model",
    tags: ["lamp"],
    url: "https://stub.example/lamp-1",
    author: "Ada",
    license: licenseById("CC-BY-4.0"),
    downloadable: false,
    files: [{ url: "https://stub.example/lamp-1.glb", filename: "lamp-1.glb", format: "glb", sizeBytes: 1234 }],
  };
  const stub: Source = {
    id: "stubsite",
    name: "Stub Site",
    homepage: "https://stub.example/",
    description: "a test source",
    assetTypes: ["model"],
    access: "link",
    pricing: "free",
    supportsDownload: false,
    mode: "link",
    searchUrl: (q) => `https://stub.example/search?q=${encodeURIComponent(q.q)}`,
    getAsset: async (id) => (id === "lamp-1" ? details : null),
  };

  it("gives a ready-to-paste credit line when the licence asks for one, and the page when there is no direct download", async () => {
    const served = await serveApp({}, [...SOURCES, stub]);
    const client = await connect(served.url);
    try {
      const tools = (await client.listTools()).tools;
      const result = (await client.callTool({ name: "get_asset", arguments: { id: "stubsite:lamp-1" } })) as CallToolResult;
      const body = structured(tools, "get_asset", result) as ReturnType<typeof GetAssetOutput.parse>;
      expect(body.attribution).toBe(
        '"Desk Lamp" by Ada (https://stub.example/lamp-1), licensed under CC-BY-4.0 (https://creativecommons.org/licenses/by/4.0/).',
      );
      expect(body.license?.attributionRequired).toBe(true);
      expect(body.files.map((f) => f.sizeBytes)).toEqual([1234]);
      expect(body.delivery).toBe("page");
      expect(body.downloadUrl).toBeUndefined();
      expect(body.notes.join(" ")).toMatch(
        /Credit is required.*No direct download from Stub Site: get it on the asset's page https:\/\/stub\.example\/lamp-1/s,
      );

      const search = (await client.callTool({ name: "search_assets", arguments: { query: "lamp", providers: ["stubsite"] } })) as CallToolResult;
      const found = structured(tools, "search_assets", search) as ReturnType<typeof SearchAssetsOutput.parse>;
      expect(found.providers).toEqual([
        { provider: "stubsite", name: "Stub Site", status: "link", count: 0, searchUrl: "https://stub.example/search?q=lamp", tookMs: 0 },
      ]);
    } finally {
      await client.close();
      await served.close();
    }
  });
});

describe("POST /mcp over raw HTTP", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serveApp();
  });
  afterAll(() => served?.close());

  const RPC = { "content-type": "application/json", accept: "application/json, text/event-stream" };
  const post = (body: unknown, headers: Record<string, string> = RPC) =>
    fetch(`${served.url}/mcp`, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });
  const rpcError = async (res: Response) => {
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: expect.any(Number), message: expect.any(String) } });
    return body.error.message;
  };

  it("answers a JSON-RPC request with JSON (no SSE, no session)", async () => {
    const res = await post({ jsonrpc: "2.0", id: 7, method: "tools/list" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("mcp-session-id")).toBeNull();
    const body = (await res.json()) as { id: number; result: { tools: unknown[] } };
    expect(body.id).toBe(7);
    expect(body.result.tools).toHaveLength(5);
  });

  it.each(["GET", "DELETE"])("405 JSON error for %s", async (method) => {
    const res = await fetch(`${served.url}/mcp`, { method, headers: { accept: "application/json, text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
    expect(ErrorBody.parse(await res.json()).error).toMatch(new RegExp(`^method ${method} not allowed on /mcp`));
  });

  it("406 when the client does not accept JSON and SSE", async () => {
    const res = await post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "content-type": "application/json", accept: "application/json" });
    expect(res.status).toBe(406);
    expect(await rpcError(res)).toMatch(/^Not Acceptable/);
  });

  it("415 for a body that is not JSON", async () => {
    const res = await post("method=ping", { ...RPC, "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(415);
    expect(await rpcError(res)).toMatch(/^Unsupported Media Type/);
  });

  it.each([
    ["tools/list", { jsonrpc: "2.0", id: 1, method: "tools/list" }],
    [
      "initialize",
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "t", version: "0" } },
      },
    ],
  ])("400 for an unsupported MCP-Protocol-Version (%s)", async (_name, body) => {
    const res = await post(body, { ...RPC, "mcp-protocol-version": "1999-01-01" });
    expect(res.status).toBe(400);
    expect(await rpcError(res)).toMatch(/Unsupported protocol version: 1999-01-01/);
  });

  it("400 for malformed JSON", async () => {
    const res = await post("{not json");
    expect(res.status).toBe(400);
    expect(await rpcError(res)).toMatch(/^Parse error/);
  });

  it("202 with no body for a notification", async () => {
    const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { ...RPC, "mcp-protocol-version": LATEST_PROTOCOL_VERSION });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
  });
});

describe("POST /mcp with limits and keys", () => {
  const key = "s3cret-key";

  it("401 for a missing or wrong key; the right key works with a stock client", async () => {
    const served = await serveApp({ ASSET_SERVER_API_KEY: key });
    try {
      const raw = await fetch(`${served.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "x-api-key": "wrong" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(raw.status).toBe(401);
      expect(await raw.json()).toEqual({ error: "API key not accepted" });
      await expect(connect(served.url, { authorization: "Bearer wrong" })).rejects.toThrow(/401|API key/);
      await expect(connect(served.url)).rejects.toThrow(/401|API key/);
      const client = await connect(served.url, { authorization: `Bearer ${key}` });
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(5);
      const result = (await client.callTool({ name: "get_asset", arguments: { id: "polyhaven:ArmChair_01" } })) as CallToolResult;
      expect((result.structuredContent as { notes: string[] }).notes.join(" ")).toMatch(/API key/);
      await client.close();
    } finally {
      await served.close();
    }
  });

  it("builds download URLs on ASSET_SERVER_PUBLIC_URL when it is set", async () => {
    const served = await serveApp({ ASSET_SERVER_PUBLIC_URL: "https://assets.example.org/" });
    const client = await connect(served.url);
    try {
      const result = (await client.callTool({ name: "get_asset", arguments: { id: "polyhaven:ArmChair_01", format: "blend" } })) as CallToolResult;
      expect((result.structuredContent as { downloadUrl: string }).downloadUrl).toBe(
        "https://assets.example.org/v1/assets/polyhaven%3AArmChair_01/download?format=blend",
      );
    } finally {
      await client.close();
      await served.close();
    }
  });

  it("carries the rate-limit headers, on errors too, and answers 429 past the quota", async () => {
    const served = await serveApp({ RATE_LIMIT_PER_MINUTE: "2" });
    try {
      const headers = { "content-type": "application/json", accept: "application/json" }; // 406 from the SDK
      const first = await fetch(`${served.url}/mcp`, { method: "POST", headers, body: "{}" });
      expect(first.status).toBe(406);
      expect(first.headers.get("ratelimit-limit")).toBe("2");
      expect(first.headers.get("ratelimit-remaining")).toBe("1");
      const second = await fetch(`${served.url}/mcp`, { method: "GET" });
      expect(second.status).toBe(405);
      expect(second.headers.get("ratelimit-remaining")).toBe("0");
      const limited = await fetch(`${served.url}/mcp`, { method: "POST", headers, body: "{}" });
      expect(limited.status).toBe(429);
      expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
      expect(ErrorBody.parse(await limited.json()).error).toMatch(/^rate limit exceeded/);
    } finally {
      await served.close();
    }
  });
});
