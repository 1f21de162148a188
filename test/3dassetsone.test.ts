import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { COVERED, licenseOf, TYPES, threeDAssetsOne } from "../sources/3dassetsone.ts";
import { SOURCES } from "../sources/index.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/3dassetsone/manifest.json (real API answers; the asset lists are STAND-INs recorded
// without creator[], see their notes). Requests with no recording fail as network errors that name the URL, which still
// lets a test assert the exact URL asked. Bodies written inline below are marked SYNTHETIC.

const API = "https://3dassets.one/api/v2";
const CREATORS_URL = `${API}/creators`;
const FIXTURES = `${import.meta.dirname}/fixtures/3dassetsone`;
/** The creators of the recording that no source of ours lists, in its order. */
const OTHERS = ["pbr-px", "noemotionhdrs", "rawcatalog", "poliigon", "cgmood", "three-d-scans", "location-textures", "twinbru", "lightbeans"];
const WITH_OTHERS = OTHERS.map((c) => `&creator[]=${c}`).join("");
const recorded = (file: string) => JSON.parse(readFileSync(`${FIXTURES}/${file}`, "utf8"));
const item = (id: number, creator: string, over: Record<string, unknown> = {}) => ({
  id,
  title: `Item ${id}`,
  url: `https://example.org/${id}`,
  creator,
  ...over,
});

describe("3dassetsone: metadata", () => {
  it("is a live, free API source that links to the creators' pages and has a census", () => {
    expect(threeDAssetsOne).toMatchObject({ id: "3dassetsone", mode: "live", access: "api", pricing: "free", supportsDownload: false, unit: "assets" });
    expect(threeDAssetsOne.assetTypes).toEqual(["material", "model", "hdri", "other"]);
    expect(threeDAssetsOne.census).toBeTypeOf("function");
    expect(SOURCES).toContain(threeDAssetsOne);
  });

  it("maps every type of /types; a Substance material is a material", () => {
    expect(recorded("api_v2_types.json").map((t: { slug: string }) => `${t.slug}→${TYPES[t.slug]}`)).toEqual([
      "other→other",
      "pbr-material→material",
      "3d-model→model",
      "sbsar→material",
      "hdri→hdri",
    ]);
  });
});

describe("3dassetsone: covered creators", () => {
  it("names only creators a registered source lists assets of (gpuopen while it is being added); Poliigon is a link here", () => {
    const listing = new Set(SOURCES.filter((s) => s.mode !== "link").map((s) => s.id));
    expect(Object.values(COVERED).filter((id) => !listing.has(id))).toEqual(listing.has("gpuopen") ? [] : ["gpuopen"]);
    expect(SOURCES.find((s) => s.id === "poliigon")?.mode).toBe("link");
    expect(
      recorded("api_v2_creators.json")
        .filter((c: { slug: string }) => !(c.slug in COVERED))
        .map((c: { slug: string }) => c.slug),
    ).toEqual(OTHERS);
  });

  it("asks only the other creators, and drops a covered creator's item the answer still holds", async () => {
    const { ctx, replay } = replayContext();
    const result = await threeDAssetsOne.search(sourceQuery("", { types: ["hdri"], limit: 10 }), ctx);
    expect(replay.requested).toEqual([CREATORS_URL, `${API}/assets?offset=0&limit=10&sort=popular${WITH_OTHERS}&type[]=hdri`]);
    expect(result).toStrictEqual({
      assets: [
        {
          id: "3dassetsone:17094",
          provider: "3dassetsone",
          nativeId: "17094",
          title: "Golden Sunset 5900 (30k) HDRI Panoramas",
          type: "hdri",
          tags: recorded("api_v2_assets_type_hdri_limit10.json")[5].tags,
          url: "https://locationtextures.com/panoramas/golden-sunset-5900-30k-hdri/",
          thumbnailUrl: "https://3dassets.one/thumbnail/256-PNG/17094.png",
          author: "Location Textures",
          license: { name: "Location Textures licence", url: "https://locationtextures.com/privacy-policy/" },
          price: { free: true },
          downloadable: false,
          createdAt: "2026-01-26T08:53:15.000Z",
        },
      ],
      searchUrl: "https://3dassets.one/?sort=popular&type[]=hdri",
    });
    expect(Asset.parse(result.assets[0])).toStrictEqual(result.assets[0]);
  });
});

describe("3dassetsone: search", () => {
  it("gives each result its creator's licence as 3Dassets.one states it", async () => {
    const { ctx } = replayContext();
    const { assets } = await threeDAssetsOne.search(sourceQuery("", { types: ["model"], limit: 10 }), ctx);
    expect(assets.map((a) => `${a.nativeId} ${a.type} ${a.author} ${a.license?.name}`)).toEqual([
      "30658 model PBRPX PBRPX licence",
      "5706 model CGMood (Free Section) CGMood (Free Section) licence",
      "30266 model CGMood (Free Section) CGMood (Free Section) licence",
      "5614 model CGMood (Free Section) CGMood (Free Section) licence",
      "8334 model CGMood (Free Section) CGMood (Free Section) licence",
    ]);
    const byCreator = Object.fromEntries(recorded("api_v2_creators.json").map((c: Parameters<typeof licenseOf>[0]) => [c.slug, licenseOf(c)]));
    expect(byCreator.cgbookcase).toStrictEqual({ ...licenseById("CC0-1.0"), url: expect.stringMatching(/^https:\/\/www\.cgbookcase\.com\/textures#:~:text=/) });
    expect(byCreator.noemotionhdrs).toStrictEqual({ ...licenseById("CC-BY-ND-4.0"), url: expect.stringMatching(/^https:\/\/noemotionhdrs\.net\/#:~:text=/) });
    expect(byCreator["gpuopen-matlib"]).toBeUndefined(); // licenseUrl null: no licence claimed
    // A page that names no licence stays that page, without flags: never treated as free to use.
    expect(byCreator.twinbru).toStrictEqual({ name: "Twinbru licence", url: expect.stringMatching(/^https:\/\/textures\.twinbru\.com\//) });
    expect(Object.values(byCreator).filter((l) => l?.spdx).length).toBe(2);
  });

  it("sends the words as the site's tags, the order, the page and the types (not recorded)", async () => {
    const { ctx, replay } = replayContext();
    const query = sourceQuery("Brick wall, Sci-Fi Béton", { types: ["texture", "material"], sort: "newest", offset: 20, limit: 5 });
    await expect(threeDAssetsOne.search(query, ctx)).rejects.toThrow(/no recorded response/);
    const url = `${API}/assets?q=brick,wall,scifi,beton&offset=20&limit=5&sort=latest${WITH_OTHERS}&type[]=pbr-material&type[]=sbsar`;
    expect(replay.requested).toEqual([CREATORS_URL, url]);
    expect(threeDAssetsOne.searchUrl(query)).toBe("https://3dassets.one/?q=brick,wall,scifi,beton&sort=latest&type[]=pbr-material&type[]=sbsar");
  });

  it("asks nothing for types it has none of, or when every creator is covered (SYNTHETIC creators)", async () => {
    const { ctx, replay } = replayContext();
    expect(await threeDAssetsOne.search(sourceQuery("wood", { types: ["font"] }), ctx)).toMatchObject({ assets: [], total: 0 });
    replay.add({ url: CREATORS_URL, body: JSON.stringify([{ slug: "ambientcg", name: "ambientCG" }]), note: "SYNTHETIC" });
    expect((await threeDAssetsOne.search(sourceQuery("wood"), ctx)).assets).toEqual([]);
    expect(replay.requested).toEqual([CREATORS_URL]);
  });

  it("reads an empty answer, skips odd items and fails on a body that is no list (SYNTHETIC bodies)", async () => {
    const { ctx, replay } = replayContext();
    const url = (q: string) => `${API}/assets?q=${q}&offset=0&limit=24&sort=popular${WITH_OTHERS}`;
    replay.add({ url: url("moss"), body: "[]", note: "SYNTHETIC" });
    expect((await threeDAssetsOne.search(sourceQuery("moss"), ctx)).assets).toEqual([]);
    const odd = [
      item(1, "cgmood", { type: "decal" }),
      item(2, "cgmood", { url: "javascript:x" }),
      item(3, "nobody"),
      item(4, "noemotionhdrs", { date: "2026-01-02" }),
    ];
    replay.add({ url: url("fern"), body: JSON.stringify(odd), note: "SYNTHETIC" });
    const { assets } = await threeDAssetsOne.search(sourceQuery("fern"), ctx);
    expect(assets.map((a) => `${a.nativeId} ${a.type} ${a.license?.spdx}`)).toEqual(["1 other undefined", "4 other CC-BY-ND-4.0"]);
    expectListedExactly(assets, threeDAssetsOne.filtering?.listed ?? []);
    replay.add({ url: url("rock"), body: "{}", note: "SYNTHETIC" });
    await expect(threeDAssetsOne.search(sourceQuery("rock"), ctx)).rejects.toBeInstanceOf(SourceError);
  });
});

describe("3dassetsone: details", () => {
  it("looks one id up with id[] and keeps the item of that id, without files", async () => {
    const { ctx, replay } = replayContext();
    const details = await threeDAssetsOne.getAsset("349", ctx);
    expect([...replay.requested].sort()).toEqual([`${API}/assets?id[]=349`, CREATORS_URL]);
    expect(AssetDetails.parse(details)).toMatchObject({
      id: "3dassetsone:349",
      title: "Slip Match Oak Wood Veneer Texture",
      type: "material",
      url: "https://www.poliigon.com/texture/slip-match-oak-wood-veneer-texture/7760",
      author: "Poliigon (Free Section)",
      license: { name: "Poliigon (Free Section) licence", url: "https://help.poliigon.com/en/articles/8749749-asset-use-licensing" },
      files: [],
    });
    replay.add({ url: `${API}/assets?id[]=5`, body: "[]", note: "SYNTHETIC" });
    expect(await threeDAssetsOne.getAsset("5", ctx)).toBeNull();
    const asked = replay.requested.length;
    expect(await threeDAssetsOne.getAsset("../x", ctx)).toBeNull();
    expect(replay.requested.length).toBe(asked);
  });
});

describe("3dassetsone: census", () => {
  // SYNTHETIC pages (no census request was recorded): test/fixtures/synthetic/3dassetsone/README.md. The creators are
  // the recorded /creators; the pages are served here, never through the manifest the data pipeline replays.
  const SYNTH = `${import.meta.dirname}/fixtures/synthetic/3dassetsone`;
  const NOW = new Date("2026-04-05T00:00:00Z");
  const page = (offset: number) => `${API}/assets?offset=${offset}&limit=500&sort=latest${WITH_OTHERS}`;
  const template = JSON.parse(readFileSync(`${SYNTH}/asset_template_noemotionhdrs.json`, "utf8"));
  /** A full page of 500 copies of the written template, ids from 100000 + offset (no recorded id is that high). */
  const fullPage = (offset: number) => JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ ...template, id: 100000 + offset + i })));
  const method = (tail: string) =>
    `3Dassets.one API v2 (it publishes no count): every asset of /api/v2/assets?offset=<n>&limit=500&sort=latest with one creator[] for each of the 9 creators of /api/v2/creators no source of ours lists (${OTHERS.join(", ")}), ` +
    `n = 0, 500, … until a page shorter than 500 (at most 100 pages${tail}), counted once per id; ` +
    "all free; categories are the creators; licences only where the creator's licence has an SPDX id; dates from `date`";

  it("pages the uncovered creators' assets, newest first, until a page shorter than 500, and counts them", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: page(0), body: fullPage(0), note: "SYNTHETIC" });
    replay.add({ url: page(500), file: "assets_latest_last_page.json", note: "SYNTHETIC" }, SYNTH);
    const census = await threeDAssetsOne.census(ctx);
    expect(replay.requested).toEqual([CREATORS_URL, page(0), page(500)]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toStrictEqual({
      id: "3dassetsone",
      name: "3Dassets.one",
      homepage: "https://3dassets.one",
      // 500 written HDRIs and the short page's 7 uncovered items; its ambientCG item is dropped.
      total: 507,
      free: 507,
      byType: { hdri: 501, model: 5, material: 1 },
      byLicense: { "CC-BY-ND-4.0": 500 },
      categories: { "NoEmotion HDRs": 500, PBRPX: 1, "CGMood (Free Section)": 4, "Location Textures": 1, "Poliigon (Free Section)": 1 },
      // 30658 (3 April) and 30266 (9 March) are in the 30 days up to 5 April.
      addedLast30Days: 2,
      highlights: [{ label: "Newest asset", title: "Abandoned House", url: "https://library.pbrpx.com/#/asset?asset=1174" }],
      unit: "assets",
      method: method(""),
      countedAt: "2026-04-05T00:00:00.000Z",
    });
  });

  it("stops at a page that is full but followed by an empty one, and counts an id seen twice once", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: page(0), body: fullPage(0), note: "SYNTHETIC" });
    // An asset added while paging pushes the last of the first page onto the second: the site shifts, the count does not.
    replay.add({ url: page(500), body: fullPage(499), note: "SYNTHETIC" });
    replay.add({ url: page(1000), body: "[]", note: "SYNTHETIC" });
    const census = await threeDAssetsOne.census(ctx);
    expect(replay.requested).toEqual([CREATORS_URL, page(0), page(500), page(1000)]);
    expect(census).toMatchObject({ total: 999, byType: { hdri: 999 } });
    expect(census).not.toHaveProperty("atLeast");
  });

  it("asks at most 100 pages and then says the count is a lower bound", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const offsets = Array.from({ length: 101 }, (_, n) => n * 500); // a 101st page would answer, but is never asked
    for (const offset of offsets) replay.add({ url: page(offset), body: fullPage(offset), note: "SYNTHETIC" });
    const census = await threeDAssetsOne.census(ctx);
    expect(replay.requested).toEqual([CREATORS_URL, ...offsets.slice(0, 100).map(page)]);
    expect(census).toMatchObject({ total: 50000, atLeast: true, method: method(": the last was still full, so this is a lower bound") });
    expect(SourceCensus.parse(census)).toStrictEqual(census);
  });

  it("counts nothing and asks no page when every creator is covered; fails on a page that is no list (SYNTHETIC)", async () => {
    const one = replayContext({ now: NOW });
    one.replay.add({ url: CREATORS_URL, body: JSON.stringify([{ slug: "ambientcg", name: "ambientCG" }]), note: "SYNTHETIC" });
    expect(await threeDAssetsOne.census(one.ctx)).toMatchObject({ total: 0, byType: {} });
    expect(one.replay.requested).toEqual([CREATORS_URL]);
    const two = replayContext({ now: NOW });
    two.replay.add({ url: page(0), body: "{}", note: "SYNTHETIC" });
    await expect(threeDAssetsOne.census(two.ctx)).rejects.toMatchObject({ kind: "shape", message: expect.stringMatching(/^3dassetsone: .*array of assets/) });
  });
});
