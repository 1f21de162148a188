/**
 * One delivery decision (server/service/delivery.ts) read by every surface: `/files`, `/download`
 * and the MCP tool `get_asset` agree on the total size, the cap and "no file matches", in the same
 * words. The assets are SYNTHETIC, made by the test.
 */
import { afterEach, describe, expect, it } from "vitest";
import { type AssetFile, ErrorBody, FileSelection } from "../core/schemas/index.ts";
import { GetAssetOutput } from "../server/mcp/tools.ts";
import { mcpClient, toolErrorText } from "./helpers/mcp-client.ts";
import { oneAssetApp, syntheticDetails } from "./helpers/one-asset.ts";
import { unzip } from "./helpers/unzip.ts";

const closes: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closes.splice(0).map((close) => close()));
});

/** A texture set whose two maps both need the same 100-byte companion beside them. */
const SHARED = { path: "material.json", url: "https://files.example/material.json", sizeBytes: 100 };
const map = (role: string): AssetFile => ({
  url: `https://files.example/${role}.jpg`,
  filename: `${role}.jpg`,
  format: "jpg",
  mapType: role,
  resolution: "2k",
  sizeBytes: 10,
  includes: [SHARED],
});
const BRICKS = syntheticDetails("mat", "bricks", { type: "material", formats: ["jpg"], resolutions: ["2k"], files: [map("diffuse"), map("roughness")] });

/** The app with the bricks under a cap of `cap` bytes, and an MCP client on it. */
async function bricks(cap: number) {
  const app = oneAssetApp(BRICKS, { env: { DOWNLOAD_MAX_BYTES: String(cap) } });
  const mcp = await mcpClient(app.app);
  closes.push(mcp.close);
  const getAsset = async () => GetAssetOutput.parse((await mcp.call("get_asset", { id: "mat:bricks" })).structuredContent);
  return { ...app, mcp, getAsset };
}

describe("the total size", () => {
  it("counts a companion shared by several selected files once, on /files, in get_asset and under the cap of /download", async () => {
    const { get, replay, getAsset } = await bricks(150);
    const files = FileSelection.parse(await (await get("/v1/assets/mat:bricks/files")).json());
    expect(files.files.map((f) => f.filename)).toEqual(["diffuse.jpg", "roughness.jpg"]);
    expect(files.totalBytes).toBe(120);

    const described = await getAsset();
    expect(described).toMatchObject({ totalBytes: 120, delivery: "zip" });
    expect(described.notes.filter((n) => n.includes("413"))).toEqual([]);

    for (const { url, sizeBytes } of [map("diffuse"), map("roughness"), SHARED]) replay.add({ url, body: "x".repeat(sizeBytes ?? 0) });
    const res = await get("/v1/assets/mat:bricks/download");
    expect(res.status).toBe(200);
    const zip = await unzip(Buffer.from(await res.arrayBuffer()));
    expect([...zip.keys()].sort()).toEqual(["mat-bricks/LICENSE.txt", "mat-bricks/diffuse.jpg", "mat-bricks/material.json", "mat-bricks/roughness.jpg"]);
    expect(replay.requested.filter((u) => u === SHARED.url)).toHaveLength(1);
  });

  it("over the cap: /download answers 413 before any file is asked, and get_asset's note says the same words", async () => {
    const { get, replay, getAsset } = await bricks(110);
    const res = await get("/v1/assets/mat:bricks/download");
    expect(res.status).toBe(413);
    const { error } = ErrorBody.parse(await res.json());
    expect(error).toBe("the selection is 120 bytes, over this server's cap of 110 bytes; pick a lower resolution or fewer files");
    expect(replay.requested).toEqual([]);

    const described = await getAsset();
    expect(described).toMatchObject({ totalBytes: 120, delivery: "zip" });
    expect(described.notes).toContain(`downloadUrl answers 413: ${error}.`);
  });
});

describe("no file matches", () => {
  it("is the contract's 404 on /download, and get_asset's error in the same words with what the asset offers", async () => {
    const { get, mcp } = await bricks(150);
    const res = await get("/v1/assets/mat:bricks/download?maps=sheen");
    expect(res.status).toBe(404);
    const { error } = ErrorBody.parse(await res.json());
    expect(error).toBe("no file of 'mat:bricks' matches the requested format, resolution and maps");

    const text = toolErrorText(await mcp.call("get_asset", { id: "mat:bricks", maps: ["sheen"] }));
    expect(text).toBe(`${error}. It offers formats jpg; resolutions 2k: call again with one of them.`);
  });

  it("answers /files with the empty selection: only a download needs a file", async () => {
    const { get } = await bricks(150);
    const res = await get("/v1/assets/mat:bricks/files?maps=sheen");
    expect(res.status).toBe(200);
    expect(FileSelection.parse(await res.json())).toEqual({ id: "mat:bricks", totalBytes: 0, files: [] });
  });
});

describe("a source without direct downloads", () => {
  it("is a 409 naming the asset's page on /download, and get_asset's `page` delivery with no download URL", async () => {
    const app = oneAssetApp(BRICKS, { source: { name: "Page Only", supportsDownload: false } });
    const res = await app.get("/v1/assets/mat:bricks/download");
    expect(res.status).toBe(409);
    expect(ErrorBody.parse(await res.json())).toEqual({
      error: "Page Only has no direct downloads for 'mat:bricks'; get it on the asset's page: https://mat.example/a/bricks",
      url: "https://mat.example/a/bricks",
    });

    const mcp = await mcpClient(app.app);
    closes.push(mcp.close);
    const described = GetAssetOutput.parse((await mcp.call("get_asset", { id: "mat:bricks" })).structuredContent);
    expect(described.delivery).toBe("page");
    expect(described.downloadUrl).toBeUndefined();
  });
});
