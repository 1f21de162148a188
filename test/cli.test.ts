import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { SEARCH_PARAMETERS } from "../core/model/search-params.ts";
import { SearchAssetsOutput } from "../server/mcp/tools.ts";
import { CLI } from "./helpers/entry.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// Offline: upstream requests are answered from the recordings, the index from data/.
const ENV = { ...getDefaultEnvironment(), ASSET_SERVER_REPLAY: "test/fixtures", DATA_DIR: "data", RATE_LIMIT_PER_MINUTE: "0" };

const run = promisify(execFile);
const cli = (args: string[], command: string[] = CLI) => run(process.execPath, [...command, ...args], { cwd: ROOT, env: ENV, timeout: 30_000 });

describe("asset-search mcp (stdio)", () => {
  it("serves the tools to a stock client over stdio", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI, "mcp"],
      cwd: ROOT,
      env: ENV,
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: "asset-search-test", version: "0.0.0" });
    await client.connect(transport);
    try {
      expect(client.getInstructions()).toContain("search_assets");
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["get_asset", "get_credits", "list_providers", "search_assets", "similar_assets"]);
      const result = (await client.callTool({ name: "search_assets", arguments: { query: "arm chair", limit: 3 } })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const body = SearchAssetsOutput.parse(result.structuredContent);
      expect(body.results[0]?.id).toBe("polyhaven:ArmChair_01");
      expect(body.providers.find((p) => p.provider === "polyhaven")?.status).toBe("ok");
      const bad = (await client.callTool({ name: "get_asset", arguments: { id: "nosuch:thing" } })) as CallToolResult;
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
    expect(stderr).toMatch(/asset-search MCP server on stdio/); // logs on stderr, never on the protocol's stdout
  });
});

describe("asset-search search", () => {
  it("prints a table of results and one status line per source", async () => {
    const { stdout } = await cli(["search", "arm", "chair", "--limit", "3"]);
    const lines = stdout.split("\n");
    expect(lines[0]).toMatch(/^#\s+Title\s+Type\s+Source\s+Licence\s+Download\s+ID$/);
    expect(stdout).toMatch(/Arm Chair 01\s+model\s+polyhaven\s+CC0-1\.0\s+yes\s+polyhaven:ArmChair_01/);
    expect(stdout).toMatch(/^Sources:$/m);
    expect(stdout).toMatch(/^ {2}polyhaven\s+ok\s+\d+ results? of \d+, \d+ ms$/m);
  });

  it("runs from the TypeScript through tsx, as npm run dev does, with filters", async () => {
    const { stdout } = await cli(
      ["search", "rock", "--type", "texture", "--providers", "polyhaven", "--free", "-n", "2", "--json"],
      ["--import", "tsx", "cli/main.ts"],
    );
    const body = SearchAssetsOutput.parse(JSON.parse(stdout));
    expect(body.results).toHaveLength(2);
    expect(body.results.every((r) => r.type === "texture")).toBe(true);
    expect(body.providers.map((p) => p.provider)).toEqual(["polyhaven"]);
  });

  it("has a flag for every /v1/search parameter, and applies filters, sort and facets", async () => {
    const { stdout: help } = await cli(["help"]);
    for (const name of Object.keys(SEARCH_PARAMETERS).filter((n) => n !== "q")) {
      expect(help, name).toContain(`--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
    }
    const args = ["search", "sunset", "--type", "hdri", "--providers", "polyhaven", "--license", "cc0", "--format", "exr", "--resolution", "16k"];
    const { stdout } = await cli([...args, "--sort", "newest", "--facets", "--no-commercial", "--json"]);
    // commercial=false: CC0 allows commercial use, so Poly Haven (CC0 only) is skipped, naming the filter.
    expect(SearchAssetsOutput.parse(JSON.parse(stdout)).providers).toEqual([
      expect.objectContaining({ provider: "polyhaven", status: "skipped", error: "every asset is CC0-1.0, which commercial=false leaves out" }),
    ]);
    const body = SearchAssetsOutput.parse(JSON.parse((await cli([...args, "--sort", "newest", "--facets", "--json"])).stdout));
    expect(body.results.length).toBeGreaterThan(0);
    for (const r of body.results) expect(r.resolutions, r.id).toContain("16k");
    const dates = body.results.map((r) => r.createdAt ?? "");
    expect(dates).toEqual([...dates].sort().reverse());
    expect(body.facets?.source).toEqual([{ value: "polyhaven", count: body.facets!.total }]);
    const { stdout: table } = await cli([...args, "--facets", "-n", "2"]);
    expect(table).toMatch(/^Facets \(\d+ results in all\):$/m);
    expect(table).toMatch(/^ {2}license {2}cc0 \(\d+\)$/m);
  });

  it("refuses bad arguments with the API's message and exit code 2", async () => {
    const [failure, unknown] = await Promise.all(
      [["search", "chair", "--type", "modle"], ["frobnicate"]].map((args) => cli(args).catch((e: { code: number; stderr: string }) => e)),
    );
    const badSort = await cli(["search", "chair", "--sort", "sideways"]).catch((e: { code: number; stderr: string }) => e);
    expect(badSort).toMatchObject({ code: 2 });
    expect((badSort as { stderr: string }).stderr).toMatch(/sort must be one of relevance, newest, name, popular, got 'sideways'/);
    expect(failure).toMatchObject({ code: 2 });
    expect((failure as { stderr: string }).stderr).toMatch(/unknown type 'modle'/);
    expect(unknown).toMatchObject({ code: 2 });
    expect((unknown as { stderr: string }).stderr).toMatch(/unknown command 'frobnicate'[\s\S]*Usage:/);
  });
});
