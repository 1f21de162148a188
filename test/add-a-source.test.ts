/**
 * The worked example of docs/adding-a-source.md, followed step by step: the example source
 * (test/fixtures/synthetic/example-textures/source.ts, written through the kit) is registered in
 * an app and answers a search, a details request and a broken answer as the guide says.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { example } from "./fixtures/synthetic/example-textures/source.ts";
import { testApp } from "./helpers/app.ts";

const DIR = new URL("./fixtures/synthetic/example-textures/", import.meta.url);
const SEARCH = "https://textures.example/api/search?q=brick&offset=0&limit=24";
const ITEM = "https://textures.example/api/items/red-bricks";

async function app() {
  const built = await testApp({ sources: [example] });
  built.replay.add({ url: SEARCH, file: "search.json", headers: { "content-type": "application/json" } }, DIR.pathname);
  built.replay.add({ url: ITEM, file: "item.json", headers: { "content-type": "application/json" } }, DIR.pathname);
  built.replay.add({ url: "https://textures.example/api/items/gone", status: 404, body: "" });
  return built;
}

describe("docs/adding-a-source.md", () => {
  const code = readFileSync(new URL("source.ts", DIR), "utf8");

  it("shows the example source as it is tested, and the source is under 60 lines", () => {
    const guide = readFileSync(new URL("../docs/adding-a-source.md", import.meta.url), "utf8");
    expect(guide).toContain(code.trim());
    expect(code.trimEnd().split("\n").length).toBeLessThan(60);
  });

  it("searches the example site: the items of the expected shape, the site's total, the site's own search", async () => {
    const { get, replay } = await app();
    const res = await get("/v1/search?q=brick");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(replay.requested).toContain(SEARCH);
    expect(body.providers).toEqual([{ provider: "example", name: "Example Textures", status: "ok", count: 2, total: 2, tookMs: expect.any(Number) }]);
    const bricks = body.results.find((r: { id: string }) => r.id === "example:red-bricks");
    expect(bricks).toMatchObject({
      provider: "example",
      nativeId: "red-bricks",
      title: "Red Bricks",
      type: "texture",
      tags: ["brick", "wall"],
      url: "https://textures.example/t/red-bricks",
      thumbnailUrl: "https://textures.example/thumbs/red-bricks.jpg",
      license: { spdx: "CC0-1.0" },
      price: { free: true },
      downloadable: true,
    });
    expect(body.results.map((r: { id: string }) => r.id).sort()).toEqual(["example:brick-floor", "example:red-bricks"]);
    expect(body.results.find((r: { id: string }) => r.id === "example:brick-floor")).not.toHaveProperty("thumbnailUrl");
  });

  it("lists an item's files, and answers 404 for an item the site says is gone", async () => {
    const { get } = await app();
    const res = await get("/v1/assets/example:red-bricks");
    expect(res.status).toBe(200);
    expect((await res.json()).files).toEqual([
      {
        url: "https://textures.example/files/red-bricks_2k_color.png",
        filename: "red-bricks_2k_color.png",
        format: "png",
        resolution: "2k",
        sizeBytes: 4194304,
      },
      { url: "https://textures.example/files/red-bricks_2k_normal.png", filename: "red-bricks_2k_normal.png", format: "png", resolution: "2k" },
    ]);
    expect((await get("/v1/assets/example:gone")).status).toBe(404);
  });

  it("reports an answer of another shape as the source's error, naming it once", async () => {
    const { get, replay } = await app();
    replay.add({ url: "https://textures.example/api/search?q=tiles&offset=0&limit=24", body: '{"items": 3}', headers: { "content-type": "application/json" } });
    const body = await (await get("/v1/search?q=tiles")).json();
    expect(body.providers[0]).toMatchObject({ provider: "example", status: "error" });
    expect(body.providers[0].error).toMatch(/^example: https:\/\/textures\.example\/api\/search\?q=tiles\S* answered an unexpected shape/);
    expect(body.providers[0].error).not.toMatch(/example: example:/);
  });
});
