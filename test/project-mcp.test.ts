// The MCP side of assets into a project: `download_asset` and `get_credits` over stdio with a
// project root (the SDK's own client), every way out of the root refused with nothing written;
// and over HTTP, no `download_asset`, a `get_credits` of ids, and `get_asset`'s resource links.
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssetsLock } from "../core/schemas/index.ts";
import { DownloadAssetOutput, GetCreditsOutput } from "../server/mcp/tools.ts";
import { listen, testApp } from "./helpers/app.ts";
import { CLI } from "./helpers/entry.ts";
import { scratchDirs } from "./helpers/scratch.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures");
const scratch = scratchDirs("asset-search-mcp-root-", (fn) => afterAll(fn));

async function stdioClient(root: string, replay = FIXTURES): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI, "mcp", "--root", root],
    cwd: ROOT,
    env: { ...getDefaultEnvironment(), ASSET_SERVER_REPLAY: replay, DATA_DIR: "data", RATE_LIMIT_PER_MINUTE: "0" },
    stderr: "ignore",
  });
  const client = new Client({ name: "asset-search-test", version: "0.0.0" });
  await client.connect(transport);
  return client;
}

const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
const errorText = (result: CallToolResult) => {
  expect(result.isError).toBe(true);
  return (result.content[0] as { text: string }).text;
};
const tree = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();

describe("asset-search mcp --root (stdio)", () => {
  let client: Client;
  let root: string;
  let outside: string;

  beforeAll(async () => {
    root = scratch();
    outside = scratch();
    client = await stdioClient(root);
  });
  afterAll(async () => {
    await client?.close();
  });

  it("lists download_asset and get_credits beside the read-only tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["download_asset", "get_asset", "get_credits", "list_providers", "search_assets", "similar_assets"]);
    const download = tools.find((t) => t.name === "download_asset")!;
    expect(Object.keys(download.inputSchema.properties ?? {}).sort()).toEqual(["all", "dir", "format", "id", "maps", "resolution"]);
    expect(download.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.find((t) => t.name === "get_credits")!.inputSchema.required ?? []).toEqual([]);
  });

  it("download_asset writes under the root, updates the lock and returns paths, sizes and the licence", async () => {
    const result = await call(client, "download_asset", { id: "polyhaven:ArmChair_01", format: "gltf" });
    expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
    const out = DownloadAssetOutput.parse(result.structuredContent);
    expect(out).toMatchObject({ id: "polyhaven:ArmChair_01", folder: "assets/polyhaven-armchair_01", lockFile: "assets.lock.json", upToDate: false });
    expect(out.license?.spdx).toBe("CC0-1.0");
    expect(out.files.map((f) => [f.path, f.fetched])).toEqual([
      ["assets/polyhaven-armchair_01/ArmChair_01_2k.gltf", true],
      ["assets/polyhaven-armchair_01/textures/Armchair_01_nor_gl_2k.jpg", true],
      ["assets/polyhaven-armchair_01/ArmChair_01.bin", true],
      ["assets/polyhaven-armchair_01/textures/Armchair_01_diff_2k.jpg", true],
      ["assets/polyhaven-armchair_01/textures/Armchair_01_arm_2k.jpg", true],
    ]);
    for (const f of out.files) expect(readFileSync(join(root, f.path)).length, f.path).toBe(f.sizeBytes);
    const lock = AssetsLock.parse(JSON.parse(readFileSync(join(root, "assets.lock.json"), "utf8")));
    expect(lock.assets.map((a) => [a.id, a.files.length])).toEqual([["polyhaven:ArmChair_01", 5]]);

    const credits = await call(client, "get_credits", { format: "txt" });
    const text = GetCreditsOutput.parse(credits.structuredContent).text;
    expect(text).toContain('  "Arm Chair 01" by Kirill Sannikov (https://polyhaven.com/a/ArmChair_01), licensed under CC0-1.0');
  });

  it("refuses every way out of the root with a clear error, and writes nothing", async () => {
    symlinkSync(outside, join(root, "linked"));
    mkdirSync(join(root, "inner"));
    symlinkSync(outside, join(root, "inner", "deeper"));
    const before = tree(root);
    const lock = readFileSync(join(root, "assets.lock.json"), "utf8");
    const attempts: [string, RegExp][] = [
      ["../escape", /^refused folder '\.\.\/escape': it climbs out with '\.\.'; give a path inside the folder/],
      ["assets/../../escape", /^refused folder 'assets\/\.\.\/\.\.\/escape': it climbs out with '\.\.'/],
      [join(outside, "abs"), /^refused folder '\/.*\/abs': it is absolute/],
      ["C:/Users/escape", /^refused folder 'C:\/Users\/escape': it starts with a drive letter/],
      ["..\\escape", /^refused folder '\.\.\\escape': it holds a backslash/],
      ["linked", /^refused '.*': linked is a symbolic link that leads outside /],
      ["inner/deeper/assets", /^refused '.*': inner\/deeper is a symbolic link that leads outside /],
    ];
    for (const [dir, message] of attempts) {
      expect(errorText(await call(client, "download_asset", { id: "polyhaven:ArmChair_01", format: "gltf", dir })), dir).toMatch(message);
    }
    expect(tree(outside)).toEqual([]);
    expect(tree(root)).toEqual(before);
    expect(readFileSync(join(root, "assets.lock.json"), "utf8")).toBe(lock);
  });

  it("refuses an upstream file name that would climb out (zip-slip), writing nothing", async () => {
    // A scratch copy of Poly Haven's two recordings for the armchair, its companion paths made hostile by the test.
    const replay = scratch();
    const manifest = JSON.parse(readFileSync(join(FIXTURES, "polyhaven/manifest.json"), "utf8")) as { entries: { url: string; file?: string }[] };
    const entries = manifest.entries.filter((e) => e.url.endsWith("/ArmChair_01"));
    for (const e of entries) {
      const body = readFileSync(join(FIXTURES, "polyhaven", e.file!), "utf8");
      writeFileSync(join(replay, e.file!), body.replaceAll('"textures/Armchair_01_diff_2k.jpg"', '"../../../evil.jpg"'));
    }
    writeFileSync(join(replay, "manifest.json"), JSON.stringify({ note: "test-made: hostile copy", entries }));
    const hostileRoot = scratch();
    const hostile = await stdioClient(hostileRoot, replay);
    try {
      const text = errorText(await call(hostile, "download_asset", { id: "polyhaven:ArmChair_01", format: "gltf" }));
      expect(text).toMatch(/^refused the companion path from polyhaven '\.\.\/\.\.\/\.\.\/evil\.jpg': it climbs out with '\.\.'/);
    } finally {
      await hostile.close();
    }
    expect(tree(hostileRoot)).toEqual([]);
  });
});

describe("the project tools over HTTP", () => {
  let client: Client;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const { app } = await testApp();
    const served = await listen(app);
    close = served.close;
    client = new Client({ name: "asset-search-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${served.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await close?.();
  });

  it("has no download_asset, and get_credits takes a list of ids", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["get_asset", "get_credits", "list_providers", "search_assets", "similar_assets"]);
    const credits = tools.find((t) => t.name === "get_credits")!;
    expect(credits.inputSchema.required).toEqual(["ids"]);
    expect(credits.inputSchema.properties?.ids).toMatchObject({ type: "array", items: { type: "string" } });
    const result = await call(client, "get_credits", { ids: ["polyhaven:ArmChair_01", "fontsource:abel"], format: "md" });
    const out = GetCreditsOutput.parse(result.structuredContent);
    expect(out.groups.map((g) => [g.need, g.assets.map((a) => a.id)])).toEqual([
      ["unknown", ["fontsource:abel"]],
      ["not-required", ["polyhaven:ArmChair_01"]],
    ]);
    expect(out.text).toMatch(/^# Credits\n/);
    expect(errorText(await call(client, "get_credits", { ids: ["nosuch:thing"] }))).toMatch(/^unknown or malformed asset ids: 'nosuch:thing'/);
  });

  it("get_asset links the download and each file as resource_link content", async () => {
    const result = await call(client, "get_asset", { id: "polyhaven:ArmChair_01", format: "gltf" });
    const links = result.content.filter((c) => c.type === "resource_link");
    expect(links.map((l) => [l.name, l.uri])).toEqual([
      ["polyhaven-armchair_01.zip", expect.stringMatching(/\/v1\/assets\/polyhaven%3AArmChair_01\/download\?format=gltf$/)],
      ["polyhaven-armchair_01/ArmChair_01_2k.gltf", "https://dl.polyhaven.org/file/ph-assets/Models/gltf/2k/ArmChair_01/ArmChair_01_2k.gltf"],
      [
        "polyhaven-armchair_01/textures/Armchair_01_nor_gl_2k.jpg",
        "https://dl.polyhaven.org/file/ph-assets/Models/jpg/2k/ArmChair_01/Armchair_01_nor_gl_2k.jpg",
      ],
      ["polyhaven-armchair_01/ArmChair_01.bin", "https://dl.polyhaven.org/file/ph-assets/Models/gltf/4k/ArmChair_01/ArmChair_01.bin"],
      ["polyhaven-armchair_01/textures/Armchair_01_diff_2k.jpg", "https://dl.polyhaven.org/file/ph-assets/Models/jpg/2k/ArmChair_01/Armchair_01_diff_2k.jpg"],
      ["polyhaven-armchair_01/textures/Armchair_01_arm_2k.jpg", "https://dl.polyhaven.org/file/ph-assets/Models/jpg/2k/ArmChair_01/Armchair_01_arm_2k.jpg"],
    ]);
    expect(result.content[0]?.type).toBe("text");
  });
});
