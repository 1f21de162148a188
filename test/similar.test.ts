// GET /v1/assets/{id}/similar and the MCP tool similar_assets (core/search/similar.ts, the rules in
// core/relevance/similarity.ts) over a small index of synthetic records modelled on the embedded
// catalogue's (Poly Haven, cgbookcase, Kenney and font records): made up here, so that every
// shared field, and so every reason, is known.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AssetIndex } from "../core/index/search-index.ts";
import { seriesLength } from "../core/relevance/similarity.ts";
import { type Asset, SimilarResponse } from "../core/schemas/index.ts";
import { BreakerRegistry } from "../core/search/circuit-breaker.ts";
import { createApp } from "../server/app.ts";
import { SimilarAssetsOutput } from "../server/mcp/tools.ts";
import { createUsage } from "../server/stats/usage.ts";
import { SOURCES } from "../sources/index.ts";
import { listen, NOW } from "./helpers/app.ts";
import { replayRuntime } from "./helpers/replay.ts";

const CC0 = {
  name: "CC0 1.0 Universal",
  url: "https://creativecommons.org/publicdomain/zero/1.0/",
  commercialUse: true,
  attributionRequired: false,
  spdx: "CC0-1.0",
};
const SITES: Record<string, (nativeId: string) => string> = {
  polyhaven: (n) => `https://polyhaven.com/a/${n}`,
  cgbookcase: (n) => `https://www.cgbookcase.com/textures/${n}`,
  kenney: (n) => `https://kenney.nl/assets/${n}`,
  fontsource: (n) => `https://fontsource.org/fonts/${n}`,
  googlefonts: (n) => `https://fonts.google.com/specimen/${n}`,
};

function record(id: string, title: string, type: Asset["type"], fields: Partial<Asset>): Asset {
  const [provider, nativeId] = id.split(":") as [string, string];
  return { id, provider, nativeId, title, type, tags: [], url: SITES[provider]!(nativeId), license: CC0, price: { free: true }, downloadable: true, ...fields };
}

const RECORDS: Asset[] = [
  record("polyhaven:rock_wall_07", "Rock Wall 07", "texture", {
    author: "Amal Kumar",
    tags: ["rock", "wall", "weathered", "stone"],
    categories: ["outdoor", "wall", "rock"],
  }),
  record("polyhaven:rock_wall_08", "Rock Wall 08", "texture", {
    author: "Amal Kumar",
    tags: ["rock", "wall", "uneven", "stone"],
    categories: ["outdoor", "wall", "rock"],
  }),
  record("polyhaven:rock_wall_04", "Rock Wall 04", "texture", {
    author: "Dario Barresi, Charlotte Baglioni",
    tags: ["rock", "wall", "worn"],
    categories: ["outdoor", "wall"],
  }),
  record("polyhaven:mossy_stone_floor", "Mossy Stone Floor", "texture", {
    author: "Amal Kumar, Rico Cilliers",
    tags: ["moss", "stone", "floor"],
    categories: ["floor"],
  }),
  record("polyhaven:metal_plate", "Metal Plate", "texture", { author: "Rob Tuytel", tags: ["metal", "rusty", "industrial"], categories: ["metal"] }),
  record("polyhaven:metal_plate_02", "Metal Plate 02", "texture", { author: "Rob Tuytel", tags: ["metal", "rusty"], categories: ["metal"] }),
  record("cgbookcase:red-rock-01", "Red Rock 01", "texture", { tags: ["rock", "cliff", "red"], categories: ["Rock"], downloadable: false }),
  record("kenney:city-kit-roads", "City Kit (Roads)", "model", { author: "Kenney", tags: ["City", "game assets"], categories: ["3D"] }),
  record("kenney:city-kit-industrial", "City Kit (Industrial)", "model", { author: "Kenney", tags: ["City", "game assets"], categories: ["3D"] }),
  record("kenney:nature-kit", "Nature Kit", "model", { author: "Kenney", tags: ["nature", "tree", "game assets"], categories: ["3D"] }),
  record("kenney:ui-pack", "UI Pack", "ui", { author: "Kenney", tags: ["UI Pack", "game assets"], categories: ["2D"] }),
  record("fontsource:abel", "Abel", "font", { tags: ["sans-serif", "latin"], categories: ["sans-serif"] }),
  record("googlefonts:abel", "Abel", "font", { tags: ["sans-serif", "latin"], categories: ["sans-serif"] }),
  record("fontsource:abeezee", "ABeeZee", "font", { tags: ["sans-serif", "latin"], categories: ["sans-serif"] }),
  record("fontsource:metal", "Metal", "font", { tags: ["display", "latin"], categories: ["display"] }),
];

function app() {
  const runtime = replayRuntime({ now: NOW, env: { RATE_LIMIT_PER_MINUTE: "0" } });
  const published = { index: AssetIndex.build(RECORDS), catalog: undefined, history: { points: [] } };
  return createApp({ runtime, sources: SOURCES, published, breakers: new BreakerRegistry(), usage: createUsage() });
}

describe("GET /v1/assets/{id}/similar", () => {
  const served = app();
  const get = (path: string) => served.fetch(new Request(`http://localhost${path}`));
  const similar = async (id: string, query = "") => {
    const res = await get(`/v1/assets/${encodeURIComponent(id)}/similar${query}`);
    expect(res.status).toBe(200);
    return SimilarResponse.parse(await res.json());
  };

  it("puts a series mate by the same author first, with every reason it shares, the weightiest first", async () => {
    const body = await similar("polyhaven:rock_wall_08");
    expect(body.id).toBe("polyhaven:rock_wall_08");
    expect(body.results.map((r) => r.id)).toEqual([
      "polyhaven:rock_wall_07",
      "polyhaven:rock_wall_04",
      "cgbookcase:red-rock-01",
      "polyhaven:mossy_stone_floor",
    ]);
    const [mate, other, red, floor] = body.results;
    expect(mate!.reasons).toEqual([
      { kind: "series", detail: "same series: Rock Wall", values: ["Rock Wall"] },
      { kind: "author", detail: "same author: Amal Kumar", values: ["Amal Kumar"] },
      { kind: "category", detail: "same category: outdoor, wall, rock", values: ["outdoor", "wall", "rock"] },
      // "uneven", the seed's rarest tag, is not shared: the tags it shares weigh less than all its categories.
      { kind: "tags", detail: "shared tags: rock, wall, stone", values: ["rock", "wall", "stone"] },
    ]);
    expect(other!.reasons.map((r) => r.kind)).toEqual(["series", "category", "tags"]);
    // Across sources, no author: a title word, one of the seed's three categories and one of its four
    // tags (whose rarest, "uneven", weighs most of them).
    expect(red!.reasons).toEqual([
      { kind: "subject", detail: "same subject: Rock", values: ["Rock"] },
      { kind: "category", detail: "same category: rock", values: ["rock"] },
      { kind: "tags", detail: "shared tags: rock", values: ["rock"] },
    ]);
    // One of two authors is the same author.
    expect(floor!.reasons).toEqual([
      { kind: "author", detail: "same author: Amal Kumar", values: ["Amal Kumar"] },
      { kind: "tags", detail: "shared tags: stone", values: ["stone"] },
    ]);
    const scores = body.results.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(scores[1]!);
    for (const s of scores) expect(s).toBeGreaterThan(0);
    for (const s of scores) expect(s).toBeLessThanOrEqual(1);
  });

  it("finds a pack's mate of the same series and author (City Kit (Roads) for City Kit (Industrial)) before the author's other packs", async () => {
    const body = await similar("kenney:city-kit-industrial");
    expect(body.results[0]).toMatchObject({
      id: "kenney:city-kit-roads",
      reasons: [
        { kind: "series", detail: "same series: City Kit", values: ["City Kit"] },
        { kind: "tags", detail: "shared tags: City, game assets", values: ["City", "game assets"] },
        { kind: "author", detail: "same author: Kenney", values: ["Kenney"] },
        { kind: "category", detail: "same category: 3D", values: ["3D"] },
      ],
    });
    expect(body.results.map((r) => r.id)).toEqual(["kenney:city-kit-roads", "kenney:nature-kit", "kenney:ui-pack", "polyhaven:metal_plate"]);
    // The whole author weighs more than one of the two tags.
    expect(body.results[2]!.reasons).toEqual([
      { kind: "author", detail: "same author: Kenney", values: ["Kenney"] },
      { kind: "tags", detail: "shared tags: game assets", values: ["game assets"] },
    ]);
    // A word of the title among another source's tags.
    expect(body.results[3]!.reasons).toEqual([{ kind: "subject", detail: "same subject: Industrial", values: ["Industrial"] }]);
  });

  it("leaves out the asset's own listings on other sources, and merges another asset's listings into one result with alsoOn", async () => {
    const abel = await similar("fontsource:abel");
    expect(abel.results.map((r) => r.id)).toEqual(["fontsource:abeezee", "fontsource:metal"]);
    const abeezee = await similar("fontsource:abeezee");
    expect(abeezee.results.map((r) => r.id)).toEqual(["fontsource:abel", "fontsource:metal"]);
    expect(abeezee.results[0]!.alsoOn).toEqual([{ id: "googlefonts:abel", provider: "googlefonts", url: "https://fonts.google.com/specimen/abel" }]);
  });

  it("keeps a series within one kind of asset: a font called Metal is no part of the Metal Plate textures", async () => {
    const body = await similar("polyhaven:metal_plate");
    expect(body.results.map((r) => r.id)).toEqual(["polyhaven:metal_plate_02", "fontsource:metal"]);
    expect(body.results[0]!.reasons[0]).toEqual({ kind: "series", detail: "same series: Metal Plate", values: ["Metal Plate"] });
    expect(body.results[1]!.reasons).toEqual([{ kind: "subject", detail: "same subject: Metal", values: ["Metal"] }]);
  });

  it("takes limit and type as the search does", async () => {
    expect((await similar("polyhaven:rock_wall_08", "?limit=1")).results.map((r) => r.id)).toEqual(["polyhaven:rock_wall_07"]);
    expect((await similar("kenney:city-kit-industrial", "?type=ui")).results.map((r) => r.id)).toEqual(["kenney:ui-pack"]);
    // Texture and material match each other.
    expect((await similar("polyhaven:rock_wall_08", "?type=material&limit=2")).results.map((r) => r.id)).toEqual([
      "polyhaven:rock_wall_07",
      "polyhaven:rock_wall_04",
    ]);
    for (const [query, error] of [
      ["?limit=0", "limit must be a whole number from 1 to 100, got '0'"],
      ["?limit=101", "limit must be a whole number from 1 to 100, got '101'"],
      ["?type=statue", "unknown type 'statue'; known types: model, texture, material, hdri, sprite, ui, audio, font, pack, other"],
    ] as const) {
      const res = await get(`/v1/assets/polyhaven:rock_wall_08/similar${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json()).toEqual({ error: error });
    }
  });

  it("answers 404 naming an unknown id, and says similarity covers the indexed sources for a live source's asset", async () => {
    const unknown = await get("/v1/assets/polyhaven:no_such_asset/similar");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "unknown asset 'polyhaven:no_such_asset': the index does not hold it" });
    const live = await get("/v1/assets/sketchfab:abc123/similar");
    expect(live.status).toBe(404);
    expect(await live.json()).toEqual({
      error: "no similar assets for 'sketchfab:abc123': similarity covers the indexed sources, and Sketchfab is searched on its own site",
    });
    const noSource = await get("/v1/assets/nosuch:thing/similar");
    expect(noSource.status).toBe(404);
    expect(await noSource.json()).toEqual({ error: "unknown asset 'nosuch:thing': no source 'nosuch'" });
  });

  it("answers 400 to a malformed id", async () => {
    const res = await get("/v1/assets/no-colon-here/similar");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: "malformed asset id 'no-colon-here': expected <provider>:<nativeId>" });
  });

  it("is in /openapi.json with its parameters and SimilarResponse", async () => {
    const doc = (await (await get("/openapi.json")).json()) as {
      paths: Record<string, { get: { parameters: { name: string }[]; responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, unknown> };
    };
    const op = doc.paths["/v1/assets/{id}/similar"]!.get;
    expect(op.parameters.map((p) => p.name)).toEqual(["id", "type", "limit"]);
    expect(op.responses["200"]).toMatchObject({ content: { "application/json": { schema: { $ref: "#/components/schemas/SimilarResponse" } } } });
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["SimilarResponse", "SimilarAsset", "SimilarReason"]));
  });
});

describe("series", () => {
  it("is two shared leading words, or one followed by a number only, or a word and that word with one more", () => {
    const w = (t: string) => t.toLowerCase().split(" ");
    expect(seriesLength(w("font awesome 6 solid"), w("font awesome 6 regular"))).toBe(3);
    expect(seriesLength(w("bark 01"), w("bark 07"))).toBe(1);
    expect(seriesLength(w("roboto"), w("roboto mono"))).toBe(1);
    expect(seriesLength(w("animated woman pack"), w("animated zombie pack"))).toBe(0);
    expect(seriesLength(w("wooden chair 01"), w("wooden table 02"))).toBe(0);
    expect(seriesLength(w("3 4 5"), w("3 4 6"))).toBe(0);
  });
});

describe("MCP similar_assets", () => {
  let server: Awaited<ReturnType<typeof listen>>;
  let client: Client;

  beforeAll(async () => {
    server = await listen(app());
    client = new Client({ name: "asset-search-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it("answers the route's body as structured content, with the same JSON as text", async () => {
    const result = (await client.callTool({ name: "similar_assets", arguments: { id: "kenney:city-kit-industrial", limit: 1 } })) as CallToolResult;
    expect(result.isError ?? false).toBe(false);
    const out = SimilarAssetsOutput.parse(result.structuredContent);
    expect(out.results.map((r) => [r.id, r.reasons.map((x) => x.kind)])).toEqual([["kenney:city-kit-roads", ["series", "tags", "author", "category"]]]);
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(result.structuredContent);
    const tools = (await client.listTools()).tools;
    expect(tools.find((t) => t.name === "similar_assets")?.outputSchema).toBeDefined();
  });

  it("takes type as a list, and says what went wrong as an isError result", async () => {
    const typed = (await client.callTool({ name: "similar_assets", arguments: { id: "kenney:city-kit-industrial", type: ["ui"] } })) as CallToolResult;
    expect(SimilarAssetsOutput.parse(typed.structuredContent).results.map((r) => r.id)).toEqual(["kenney:ui-pack"]);
    const unknown = (await client.callTool({ name: "similar_assets", arguments: { id: "polyhaven:no_such_asset" } })) as CallToolResult;
    expect(unknown.isError).toBe(true);
    expect((unknown.content[0] as { text: string }).text).toBe(
      "unknown asset 'polyhaven:no_such_asset': the index does not hold it. Use an `id` exactly as search_assets returned it (`<provider>:<nativeId>`); list_providers has the source ids.",
    );
  });
});
