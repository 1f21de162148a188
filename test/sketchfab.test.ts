import { describe, expect, it } from "vitest";
import type { ReplayDispatcher } from "../core/http/replay.ts";
import { licenseById } from "../core/model/license.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { sketchfab } from "../sources/sketchfab.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/sketchfab/manifest.json. The search recording was made without
// downloadable=true (all 3 of its models are downloadable); the census URL is a stand-in for it.

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://api.sketchfab.com/v3";
const SEARCH_TREE = `${API}/search?type=models&q=tree&license=cc0&downloadable=true&count=3`;
const CATEGORIES = `${API}/categories`;
const CENSUS = `${API}/search?type=models&license=cc0&downloadable=true&sort_by=-likeCount&count=24`;
const SILVER_TREE = "d9e174d623124d2aa23122683018f6e6";

const asked = (replay: { requested: string[] }) => [...replay.requested].sort();

const query = sourceQuery;

describe("sketchfab: metadata", () => {
  it("is a live CC0 API source without direct downloads and with an optional token", () => {
    expect(sketchfab).toMatchObject({
      id: "sketchfab",
      name: "Sketchfab",
      homepage: "https://sketchfab.com",
      mode: "live",
      access: "api",
      pricing: "free",
      supportsDownload: false,
      assetTypes: ["model"],
      license: licenseById("CC0-1.0"),
      key: { env: "SKETCHFAB_API_TOKEN", required: false },
    });
    expect(sketchfab).not.toHaveProperty("crawl");
  });
});

describe("sketchfab: search", () => {
  it("asks the CC0 downloadable search and the category list, and maps every model", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const res = await sketchfab.search(query("tree", { limit: 3 }), ctx);

    expect(asked(replay)).toEqual([CATEGORIES, SEARCH_TREE]);
    expect(res.total).toBeUndefined(); // the API publishes none
    expect(res.searchUrl).toBe("https://sketchfab.com/search?features=downloadable&licenses=7c23a1ba438d4306920229c12afcb5f9&q=tree&type=models");
    expect(res.assets.map((a) => a.nativeId)).toEqual(["a9c23391171c4e1abd859b05887e00af", SILVER_TREE, "0a4e3af44632467f901c23fd140fedc2"]);
    for (const asset of res.assets) expect(Asset.parse(asset)).toStrictEqual(asset);

    const frog = res.assets[0];
    expect(frog).toStrictEqual({
      id: "sketchfab:a9c23391171c4e1abd859b05887e00af",
      provider: "sketchfab",
      nativeId: "a9c23391171c4e1abd859b05887e00af",
      title: "CC0 モリアオガエル 🐸 ♂ Forest Green Tree Frog",
      description: expect.stringMatching(/^License: \*\*CC0\*\*[\s\S]*両生類 カエル 蛙$/),
      type: "model",
      tags: ["frog", "amphibian", "anura", "chordata", "animalia", "amphibia", "ffishasia", "rhacophorus", "arboreus", "rhacophoridae"],
      // The search names categories by slug (animals-pets); the category list gives their names.
      categories: ["Animals & Pets", "Science & Technology"],
      // The search's viewerUrl is /3d-models/none-<uid>: no slug.
      url: "https://sketchfab.com/3d-models/a9c23391171c4e1abd859b05887e00af",
      // The smallest thumbnail at least 400 wide (720×405 of 1920, 1024, 720, 256, 64).
      thumbnailUrl:
        "https://media.sketchfab.com/models/a9c23391171c4e1abd859b05887e00af/thumbnails/78c217a28f824a21a7947e09b48dd9d9/727befe9824d4ca7a872c6b2ad60402d.jpeg",
      author: "ffish.asia / floraZia.com",
      license: licenseById("CC0-1.0"), // "CC0 Public Domain"
      price: { free: true },
      formats: ["glb", "gltf", "usdz"], // archives glb, gltf, source (unknown format), usdz
      polyCount: 1096795,
      animated: false,
      downloadable: false,
      createdAt: "2021-07-30T03:32:01.616Z", // publishedAt 2021-07-30T03:32:01.616012 (UTC, no zone)
    });
    expect(res.assets[2]).toMatchObject({ title: "Vincent van Gogh's Olive Trees", downloadable: false, price: { free: true } });
  });

  it("pages with cursor = offset and asks at most 24 per request", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = `${API}/search?type=models&q=old+tree&license=cc0&downloadable=true&count=24&cursor=48`;
    replay.add({ url, body: '{"cursors":{"next":null,"previous":"24"},"next":null,"previous":null,"results":[]}', note: "scripted empty page" });
    const res = await sketchfab.search(query("old tree", { limit: 100, offset: 48 }), ctx);
    expect(res.assets).toEqual([]);
    expect(asked(replay)).toEqual([CATEGORIES, url]);
  });

  it("asks count=24 with the default limit (manifest STAND-IN: the recorded page of 3)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const res = await sketchfab.search(query("tree"), ctx);
    expect(asked(replay)).toEqual([CATEGORIES, `${API}/search?type=models&q=tree&license=cc0&downloadable=true&count=24`]);
    expect(res.assets).toHaveLength(3);
  });

  it("never cuts more than the limit", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = `${API}/search?type=models&q=tree&license=cc0&downloadable=true&count=2`;
    replay.add({ url, file: "v3_search_tree_cc0.json", note: "3 results answered to a count=2 request" }, `${import.meta.dirname}/fixtures/sketchfab`);
    const res = await sketchfab.search(query("tree", { limit: 2 }), ctx);
    expect(res.assets).toHaveLength(2);
    expect(replay.requested).toContain(url);
  });

  it("asks nothing for other types or for direct downloads", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await sketchfab.search(query("tree", { types: ["hdri", "texture"] }), ctx)).toEqual({ assets: [] });
    expect(await sketchfab.search(query("tree", { downloadable: true }), ctx)).toEqual({ assets: [] });
    expect(replay.requested).toEqual([]);
  });

  it("sends the optional token", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: { SKETCHFAB_API_TOKEN: "tok123" } });
    await sketchfab.search(query("tree", { limit: 3 }), ctx);
    const sent = replay.log.find((r) => r.url === SEARCH_TREE);
    expect(sent?.headers.authorization).toBe("Token tok123");
  });

  it("keeps category slugs when the category list fails", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: CATEGORIES, status: 500, body: "oops", note: "scripted 500" });
    const res = await sketchfab.search(query("tree", { limit: 3 }), ctx);
    expect(res.assets[0]!.categories).toEqual(["animals-pets", "science-technology"]);
  });

  it("rejects a changed answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: SEARCH_TREE, body: "<html>changed</html>" });
    await expect(sketchfab.search(query("tree", { limit: 3 }), ctx)).rejects.toThrow(
      /^sketchfab: https:\/\/api\.sketchfab\.com\/v3\/search\S+ did not answer JSON/,
    );
  });

  it("rejects JSON without results, and results of another shape", async () => {
    for (const body of ['{"models":[]}', '{"results":[{"id":1},{"id":2}]}']) {
      const { ctx, replay } = replayContext({ now: NOW });
      replay.add({ url: SEARCH_TREE, body });
      await expect(sketchfab.search(query("tree", { limit: 3 }), ctx)).rejects.toThrow(/^sketchfab: /);
    }
  });
});

describe("sketchfab: getAsset", () => {
  it("maps the details and lists one login-only link to the model page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await sketchfab.getAsset(SILVER_TREE, ctx);

    expect(replay.requested).toEqual([`${API}/models/${SILVER_TREE}`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    const page = "https://sketchfab.com/3d-models/cc0-japanese-silver-tree-n-sericea-d9e174d623124d2aa23122683018f6e6";
    expect(details).toMatchObject({
      id: `sketchfab:${SILVER_TREE}`,
      title: "CC0 シロダモ Japanese Silver Tree, N. sericea",
      type: "model",
      url: page,
      categories: ["Nature & Plants", "Science & Technology"],
      author: "ffish.asia / floraZia.com",
      // The details give the licence's own http:// URL; the known licence keeps its canonical one.
      license: licenseById("CC0-1.0"),
      price: { free: true },
      polyCount: 497186,
      animated: false,
      downloadable: false,
      createdAt: "2023-12-08T13:15:54.795Z",
      thumbnailUrl:
        "https://media.sketchfab.com/models/d9e174d623124d2aa23122683018f6e6/thumbnails/0f119bc1ead640f193f99418a11cea1b/972f6f211fcc402eaff9bf6e7e2509c6.jpeg",
    });
    expect(details!.tags).toHaveLength(12);
    expect(details!.formats).toBeUndefined(); // the details recording has no archives{}
    expect(details!.files).toStrictEqual([{ url: page, filename: `${SILVER_TREE}-gltf.zip`, format: "gltf", group: "gltf", requiresAuth: true }]);
  });

  it("lists no file for a model that is not downloadable", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const uid = "0123456789abcdef0123456789abcdef";
    replay.add({ url: `${API}/models/${uid}`, body: JSON.stringify({ uid, name: "Viewer only", isDownloadable: false }), note: "scripted" });
    const details = await sketchfab.getAsset(uid, ctx);
    expect(details?.files).toEqual([]);
    expect(details?.url).toBe(`https://sketchfab.com/3d-models/${uid}`);
  });

  it("answers null for a 404 and for an id that is no uid (without asking)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const uid = "ffffffffffffffffffffffffffffffff";
    replay.add({ url: `${API}/models/${uid}`, status: 404, body: '{"detail":"Not found."}', note: "scripted 404" });
    expect(await sketchfab.getAsset(uid, ctx)).toBeNull();
    expect(await sketchfab.getAsset("../users/me", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${API}/models/${uid}`]);
  });

  it("answers null for a model that is gone (410), and still fails on a 500", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const gone = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
    const broken = "dddddddddddddddddddddddddddddddd";
    replay.add({ url: `${API}/models/${gone}`, status: 410, body: '{"detail":"Gone."}', note: "scripted 410" });
    replay.add({ url: `${API}/models/${broken}`, status: 500, body: "oops", note: "scripted 500" });
    expect(await sketchfab.getAsset(gone, ctx)).toBeNull();
    await expect(sketchfab.getAsset(broken, ctx)).rejects.toMatchObject({ status: 500 });
  });

  it("rejects a changed details answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/models/${SILVER_TREE}`, body: '{"title":"no uid"}' });
    await expect(sketchfab.getAsset(SILVER_TREE, ctx)).rejects.toThrow(/^sketchfab: model .* unexpected shape/);
  });
});

describe("sketchfab: census", () => {
  it("counts one page of downloadable CC0 models as a lower bound", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await sketchfab.census(ctx);

    expect(replay.requested).toEqual([CENSUS]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toStrictEqual({
      id: "sketchfab",
      name: "Sketchfab",
      homepage: "https://sketchfab.com",
      total: 3,
      atLeast: true, // no total, and a next cursor
      free: 3,
      byType: { model: 3 },
      byLicense: { "CC0-1.0": 3 },
      unit: "assets",
      highlights: [
        {
          label: "Most liked CC0 model",
          title: "CC0 モリアオガエル 🐸 ♂ Forest Green Tree Frog",
          url: "https://sketchfab.com/3d-models/a9c23391171c4e1abd859b05887e00af",
          value: 616,
        },
      ],
      method: "Sketchfab Data API v3 search for downloadable CC0 models publishes no total: the first page (most liked) was counted, a lower bound",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
  });

  it("uses a totalCount when an answer has one", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: CENSUS, body: JSON.stringify({ results: [], next: null, totalCount: 123456 }), note: "scripted" });
    const census = await sketchfab.census(ctx);
    expect(census).toMatchObject({ total: 123456, free: 123456, byLicense: { "CC0-1.0": 123456 } });
    expect(census.atLeast).toBeUndefined();
    expect(census.highlights).toBeUndefined();
  });
});

describe("sketchfab: searchUrl", () => {
  it("is the site's search with the downloadable and CC0 filters", () => {
    expect(sketchfab.searchUrl(query("old tree"))).toBe(
      "https://sketchfab.com/search?features=downloadable&licenses=7c23a1ba438d4306920229c12afcb5f9&q=old+tree&type=models",
    );
    expect(sketchfab.searchUrl(query(""))).toBe("https://sketchfab.com/search?features=downloadable&licenses=7c23a1ba438d4306920229c12afcb5f9&type=models");
  });
});

describe("sketchfab: filters", () => {
  const DIR = `${import.meta.dirname}/fixtures/sketchfab`;
  // STAND-IN: the recorded body of the unfiltered q=tree search, served for the filtered URL.
  const standIn = (replay: ReplayDispatcher, url: string) => replay.add({ method: "GET", url, file: "v3_search_tree_cc0.json", status: 200, headers: {} }, DIR);

  it("passes max_face_count, animated, rigged, the category slug, the archive format and newest upstream", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = `${API}/search?type=models&q=tree&license=cc0&downloadable=true&max_face_count=50000&animated=false&rigged=true&categories=nature-plants&available_archive_type=glb&sort_by=-publishedAt&count=3`;
    standIn(replay, url);
    const filters = { maxPolys: 50000, animated: false, rigged: true, category: ["nature & plants"], format: ["glb"], license: ["cc0"] };
    const res = await sketchfab.search(query("tree", { limit: 3, filters, sort: "newest" }), ctx);
    expect(asked(replay)).toEqual([CATEGORIES, url]);
    expect(res.assets).toHaveLength(3);
  });

  it("leaves out a category or format that has no single upstream form", async () => {
    const unknown = { category: ["nature & plants", "no such category"], format: ["glb", "fbx"] };
    const several = { category: ["nature & plants", "animals & pets"], format: ["glb", "gltf"] }; // any of: no single value
    for (const filters of [unknown, several]) {
      const { ctx, replay } = replayContext({ now: NOW });
      await sketchfab.search(query("tree", { limit: 3, filters }), ctx);
      expect(asked(replay)).toEqual([CATEGORIES, SEARCH_TREE]);
    }
  });

  it("answers nothing, without asking, for a licence or terms no CC0 model has", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    for (const filters of [{ license: ["cc-by"] }, { commercial: false }, { attribution: true }]) {
      expect((await sketchfab.search(query("tree", { filters }), ctx)).assets).toEqual([]);
    }
    expect(replay.requested).toEqual([]);
  });

  it("declares what its listings carry, and nothing they do not", async () => {
    const { ctx } = replayContext({ now: NOW });
    const { assets } = await sketchfab.search(query("tree", { limit: 3 }), ctx);
    const listed = sketchfab.filtering!.listed;
    // Search results have no rig flag, no resolutions and no download count.
    expectListedExactly(assets, listed);
    expect(assets.every((a) => a.downloads === undefined)).toBe(true);
  });
});
