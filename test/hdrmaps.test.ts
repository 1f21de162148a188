import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SourceQuery } from "../core/model/source.ts";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { hdrmaps, parseFreebiePage, searchApiUrl } from "../sources/hdrmaps.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/hdrmaps/manifest.json (real Store API answers and a freebie page
// excerpt; no X-WP-Total header was recorded). Requests with no recording fail as network errors that
// name the URL, which still lets a test assert the URL asked. Inline bodies below are marked SYNTHETIC.

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://hdrmaps.com/wp-json/wc/store/v1/products";
const EXCLUDED = "3129,3130,3131,3132,3133,3134,3148,2874,15";
const FIELDS = "id,name,slug,permalink,type,short_description,prices,images,categories,tags,attributes";
const SEARCH_SUNSET = `${API}?search=sunset&per_page=4&category=${EXCLUDED}&category_operator=not_in&_fields=${FIELDS}`;
const PRODUCT = `${API}?slug=jawornik-before-the-sunset&_fields=${FIELDS}`;
const FREEBIE = "https://hdrmaps.com/freebies/jawornik-before-the-sunset/";
const DL = "https://dl.hdrmaps.com/file/hmfreebies/hdris";
/** The recorded freebie page's 10K EXR, as both the details and the page parser list it. */
const FREE_10K = {
  url: `${DL}/197_hdrmaps_com_free_10K.exr`,
  filename: "197_hdrmaps_com_free_10K.exr",
  format: "exr",
  resolution: "10k",
  sizeBytes: 484735713,
  group: "hdri",
};

const query = (q: string, over: Partial<SourceQuery> = {}) => sourceQuery(q, { limit: 4, ...over });

describe("hdrmaps: metadata", () => {
  it("is a live, freemium API source of HDRIs with direct downloads for freebies", () => {
    expect(hdrmaps).toMatchObject({
      id: "hdrmaps",
      name: "HDRMAPS",
      homepage: "https://hdrmaps.com",
      mode: "live",
      access: "api",
      pricing: "freemium",
      supportsDownload: true,
      assetTypes: ["hdri"],
    });
    expect(hdrmaps).not.toHaveProperty("crawl");
  });
});

describe("hdrmaps: search", () => {
  it("asks exactly the recorded Store API URL and maps the products", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await hdrmaps.search(query("sunset"), ctx);

    expect(replay.requested).toEqual([SEARCH_SUNSET]);
    // The 4th recorded product sits only in the excluded category 3131: it is dropped.
    expect(result.assets.map((a) => a.nativeId)).toEqual(["jawornik-before-the-sunset", "kalten-floss-sunset", "egg-hill-clear-sky-sunset"]);
    // No X-WP-Total header in the recording: no total is claimed.
    expect(result.total).toBeUndefined();
    for (const asset of result.assets) expect(Asset.parse(asset)).toStrictEqual(asset);

    expect(result.assets[0]).toStrictEqual({
      id: "hdrmaps:jawornik-before-the-sunset",
      provider: "hdrmaps",
      nativeId: "jawornik-before-the-sunset",
      title: "Jawornik Before the Sunset",
      description: "Jawornik meadow free hdri sky map – just before the sunset, but with blue sky, captured in the shade.",
      type: "hdri",
      tags: ["blue sky", "cumulus", "grass", "grassland", "meadow", "mountains", "nature", "outdoor", "shade", "summer", "sunny", "sunset", "trees"],
      categories: ["Freebies"],
      url: FREEBIE,
      thumbnailUrl: "https://hdrmaps.com/wp-content/uploads/2025/10/free_hdr_197_meadow_sunset-560x280.jpg",
      // "License Type: Royalty-Free" is no licence we know: its name only, no flags.
      license: { name: "Royalty-Free" },
      price: { free: true },
      formats: ["exr"],
      resolutions: ["10k"],
      downloadable: true,
    });
    expect(result.assets[1]).toMatchObject({
      title: "Kalten-Floss Sunset",
      url: "https://hdrmaps.com/hdri/kalten-floss-sunset/",
      categories: ["HDRIs", "Nature", "Skies"],
      price: { free: false, amount: 7, currency: "EUR" },
      resolutions: ["30k"],
      downloadable: false,
    });
    expect(result.assets[1]!.formats).toBeUndefined();
  });

  it("reads the count from X-WP-Total when the response has it (SYNTHETIC header on the recorded body)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const body = readFileSync(join(FIXTURES, "hdrmaps", "search_sunset.json"), "utf8");
    replay.add({ url: SEARCH_SUNSET, body, headers: { "content-type": "application/json", "x-wp-total": "57" }, note: "SYNTHETIC header" });
    expect((await hdrmaps.search(query("sunset"), ctx)).total).toBe(57);
  });

  it("maps offset to &page= and free to max_price=0, keeping the recorded URL shape", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await expect(hdrmaps.search(query("sunset", { offset: 4 }), ctx)).rejects.toThrow(/no recorded response/);
    await expect(hdrmaps.search(query("sunset", { free: true, limit: 10 }), ctx)).rejects.toThrow(/no recorded response/);
    expect(replay.requested).toEqual([
      `${API}?search=sunset&per_page=4&category=${EXCLUDED}&category_operator=not_in&page=2&_fields=${FIELDS}`,
      `${API}?search=sunset&per_page=10&category=${EXCLUDED}&category_operator=not_in&max_price=0&_fields=${FIELDS}`,
    ]);
    expect(searchApiUrl("blue sky", 24, 1, false)).toBe(`${API}?search=blue%20sky&per_page=24&category=${EXCLUDED}&category_operator=not_in&_fields=${FIELDS}`);
  });

  it("keeps page 1's products when the next page of the window fails (page 2 is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const page2 = `${API}?search=sunset&per_page=4&category=${EXCLUDED}&category_operator=not_in&page=2&_fields=${FIELDS}`;
    const result = await hdrmaps.search(query("sunset", { offset: 1 }), ctx);
    expect([...replay.requested].sort()).toEqual([SEARCH_SUNSET, page2].sort());
    expect(result.assets.map((a) => a.nativeId)).toEqual(["kalten-floss-sunset", "egg-hill-clear-sky-sunset"]);
    // A failing first page still fails the search.
    const other = replayContext({ now: NOW });
    other.replay.add({ url: SEARCH_SUNSET, status: 500, body: "oops" });
    await expect(hdrmaps.search(query("sunset", { offset: 1 }), other.ctx)).rejects.toBeInstanceOf(SourceError);
  });

  it("asks per_page=24 with the default limit (manifest STAND-IN: the recorded page of 4)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const result = await hdrmaps.search(query("sunset", { limit: 24 }), ctx);
    expect(replay.requested).toEqual([searchApiUrl("sunset", 24, 1, false)]);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["jawornik-before-the-sunset", "kalten-floss-sunset", "egg-hill-clear-sky-sunset"]);
  });

  it("keeps only freebies when free is asked, whatever the upstream answers", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const body = readFileSync(join(FIXTURES, "hdrmaps", "search_sunset.json"), "utf8");
    const url = `${API}?search=sunset&per_page=4&category=${EXCLUDED}&category_operator=not_in&max_price=0&_fields=${FIELDS}`;
    replay.add({ url, body, note: "SYNTHETIC: the recorded unfiltered body served for the free URL" });
    const result = await hdrmaps.search(query("sunset", { free: true }), ctx);
    expect(result.assets.map((a) => a.nativeId)).toEqual(["jawornik-before-the-sunset", "egg-hill-clear-sky-sunset"]);
  });

  it("asks nothing when the types exclude HDRIs", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await hdrmaps.search(query("sunset", { types: ["model"] }), ctx)).toEqual({ assets: [], total: 0 });
    expect(replay.requested).toEqual([]);
  });

  it("rejects a malformed answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: SEARCH_SUNSET, body: '{"code":"changed"}' });
    await expect(hdrmaps.search(query("sunset"), ctx)).rejects.toThrow(/^hdrmaps: /);
    const again = replayContext({ now: NOW });
    again.replay.add({ url: SEARCH_SUNSET, body: "<html>changed</html>" });
    await expect(hdrmaps.search(query("sunset"), again.ctx)).rejects.toThrow(/^hdrmaps: /);
  });
});

describe("hdrmaps: getAsset", () => {
  it("reads the product by slug, then the freebie page's EXR links (direct downloads)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await hdrmaps.getAsset("jawornik-before-the-sunset", ctx);

    expect(replay.requested).toEqual([PRODUCT, FREEBIE]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: "hdrmaps:jawornik-before-the-sunset",
      title: "Jawornik Before the Sunset",
      type: "hdri",
      url: FREEBIE,
      license: { name: "Royalty-Free" },
      price: { free: true },
      formats: ["exr"],
      resolutions: ["10k", "4k", "2k", "1k"],
      downloadable: true,
    });
    expect(details!.license).not.toHaveProperty("commercialUse");
    expect(details!.files).toStrictEqual([
      FREE_10K,
      {
        url: `${DL}/197_hdrmaps_com_free_4K.exr`,
        filename: "197_hdrmaps_com_free_4K.exr",
        format: "exr",
        resolution: "4k",
        sizeBytes: 84106281,
        group: "hdri",
      },
      {
        url: `${DL}/197_hdrmaps_com_free_2K.exr`,
        filename: "197_hdrmaps_com_free_2K.exr",
        format: "exr",
        resolution: "2k",
        sizeBytes: 22020096,
        group: "hdri",
      },
      { url: `${DL}/197_hdrmaps_com_free_1K.exr`, filename: "197_hdrmaps_com_free_1K.exr", format: "exr", resolution: "1k", sizeBytes: 5913969, group: "hdri" },
    ]);
  });

  it("links a paid HDRI's product page as needing a purchase (SYNTHETIC: the recorded paid product served by slug)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const all = JSON.parse(readFileSync(join(FIXTURES, "hdrmaps", "search_sunset.json"), "utf8")) as Array<{ slug: string }>;
    const paid = all.filter((p) => p.slug === "kalten-floss-sunset");
    replay.add({ url: `${API}?slug=kalten-floss-sunset&_fields=${FIELDS}`, body: JSON.stringify(paid), note: "SYNTHETIC wrapper of a recorded product" });
    const details = await hdrmaps.getAsset("kalten-floss-sunset", ctx);
    expect(replay.requested).toEqual([`${API}?slug=kalten-floss-sunset&_fields=${FIELDS}`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ downloadable: false, price: { free: false, amount: 7, currency: "EUR" } });
    expect(details!.files).toStrictEqual([
      {
        url: "https://hdrmaps.com/hdri/kalten-floss-sunset/",
        filename: "kalten-floss-sunset",
        format: "page",
        resolution: "30k",
        group: "hdri",
        requiresAuth: true,
      },
    ]);
  });

  it("answers null for an unknown slug (empty array or 404)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}?slug=no-such-hdri&_fields=${FIELDS}`, body: "[]" });
    replay.add({ url: `${API}?slug=gone-hdri&_fields=${FIELDS}`, status: 404, body: '{"code":"rest_no_route"}' });
    expect(await hdrmaps.getAsset("no-such-hdri", ctx)).toBeNull();
    expect(await hdrmaps.getAsset("gone-hdri", ctx)).toBeNull();
    expect(await hdrmaps.getAsset("../x", ctx)).toBeNull();
    expect(replay.requested).toHaveLength(2);
  });

  it("rejects a freebie page without download links with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: FREEBIE, body: "<html>changed</html>" });
    await expect(hdrmaps.getAsset("jawornik-before-the-sunset", ctx)).rejects.toThrow(/^hdrmaps: /);
  });

  it("lets HTTP failures of the product request propagate", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: PRODUCT, status: 500, body: "oops" });
    const err = await hdrmaps.getAsset("jawornik-before-the-sunset", ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
  });

  it("parses the download link when the resolution menu is missing", () => {
    const html = readFileSync(join(FIXTURES, "hdrmaps", "freebie_jawornik_excerpt.html"), "utf8").replace(/<select[\s\S]*<\/select>/, "");
    expect(parseFreebiePage(html)).toStrictEqual([FREE_10K]);
  });
});

describe("hdrmaps: census", () => {
  const ALL = `${API}?per_page=100&category=${EXCLUDED}&category_operator=not_in&_fields=id,categories,prices`;
  const FREE = `${API}?per_page=100&category=64&_fields=id`;
  // SYNTHETIC bodies: no recording of these listings exists.
  const products = (n: number) =>
    JSON.stringify(
      Array.from({ length: n }, (_, i) => ({
        id: i + 1,
        name: `p${i}`,
        slug: `p${i}`,
        permalink: `https://hdrmaps.com/hdri/p${i}/`,
        categories: [{ id: 52, name: "HDRIs", slug: "hdri" }],
      })),
    );

  it("uses X-WP-Total when present (SYNTHETIC bodies and headers)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: ALL, body: products(100), headers: { "x-wp-total": "1234" }, note: "SYNTHETIC" });
    replay.add({ url: FREE, body: products(3), headers: { "x-wp-total": "211" }, note: "SYNTHETIC" });
    const census = await hdrmaps.census(ctx);
    expect([...replay.requested].sort()).toEqual([ALL, FREE].sort());
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({ id: "hdrmaps", total: 1234, free: 211, byType: { hdri: 1234 }, unit: "assets", countedAt: "2026-11-22T00:00:00.000Z" });
    expect(census.atLeast).toBeUndefined();
    expect(census.categories).toBeUndefined();
    expect(census.method).not.toMatch(/lower bound/);
  });

  it("falls back to counting the products returned, as a lower bound, without the header (SYNTHETIC bodies)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: ALL, body: products(100), note: "SYNTHETIC" });
    replay.add({ url: FREE, body: products(7), note: "SYNTHETIC" });
    const census = SourceCensus.parse(await hdrmaps.census(ctx));
    expect(census).toMatchObject({ total: 100, atLeast: true, free: 7 });
    expect(census.method).toMatch(/lower bound/);

    const small = replayContext({ now: NOW });
    small.replay.add({ url: ALL, body: products(12), note: "SYNTHETIC" });
    small.replay.add({ url: FREE, body: products(2), note: "SYNTHETIC" });
    const whole = SourceCensus.parse(await hdrmaps.census(small.ctx));
    expect(whole).toMatchObject({ total: 12, free: 2, categories: { HDRIs: 12 } });
    expect(whole.atLeast).toBeUndefined();
  });
});

describe("hdrmaps: searchUrl", () => {
  it("is the shop's product search, narrowed to freebies when free", () => {
    expect(hdrmaps.searchUrl(query("blue sky"))).toBe("https://hdrmaps.com/?s=blue%20sky&post_type=product");
    expect(hdrmaps.searchUrl(query("sunset", { free: true }))).toBe("https://hdrmaps.com/?s=sunset&post_type=product&product_cat=freebies");
  });
});

describe("hdrmaps: filters and sorts", () => {
  it("asks orderby=date&order=desc on sort=newest only", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const url = `${API}?search=sunset&per_page=4&category=${EXCLUDED}&category_operator=not_in&orderby=date&order=desc&_fields=${FIELDS}`;
    // Stand-in: the recorded body of the unsorted sunset search served for the newest-first URL.
    replay.add({ method: "GET", url, file: "search_sunset.json", status: 200, headers: { "content-type": "application/json" } }, join(FIXTURES, "hdrmaps"));
    await hdrmaps.search(query("sunset", { sort: "newest", filters: { resolution: 16 } }), ctx);
    expect(replay.requested).toEqual([url]);
    const other = replayContext({ now: NOW });
    await hdrmaps.search(query("sunset", { sort: "popular" }), other.ctx);
    expect(other.replay.requested).toEqual([SEARCH_SUNSET]);
  });

  it("declares exactly the keys its listings carry", async () => {
    const { ctx } = replayContext({ now: NOW });
    const result = await hdrmaps.search(query("sunset"), ctx);
    const assets = result.assets;
    const listed = hdrmaps.filtering!.listed;
    expectListedExactly(assets, listed);
    expect(hdrmaps.filtering!.upstream).toEqual(["newest"]);
  });
});
