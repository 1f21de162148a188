import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { selectFiles } from "../core/model/selection.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { blenderkit, filterTerms, SCENE_UUID, upstreamTypes } from "../sources/blenderkit.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/blenderkit/manifest.json. The download answers were recorded
// with an unknown scene_uuid: they are mapped to the source's fixed SCENE_UUID. The four census
// URLs are stand-ins answered by the real 'chair' search (count 7267).

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://www.blenderkit.com/api/v1";
const SEARCH_CHAIR = `${API}/search/?query=chair+asset_type%3Amodel%2Cprintable%2Cscene&page_size=3`;
const FREE_ID = "7bea2b93-30ac-4ee2-8414-c5e1f712911e";
const PAID_ID = "99286ccd-5514-442b-ad36-468400a40164";
const download = (uuid: string) => `${API}/downloads/${uuid}/?scene_uuid=${SCENE_UUID}`;
const DOWNLOADS = [
  download("71be19e1-c220-489c-bc7d-3c7831f62691"),
  download("f7c7357a-6f00-43b3-a4fc-319eeb8d2d6b"),
  download("250ead8f-de8f-4d46-a9ce-adedc09d2ae2"),
];
const CENSUS = [
  `${API}/search/?query=asset_type%3Amodel%2Cprintable%2Cscene&page_size=1`,
  `${API}/search/?query=asset_type%3Amaterial&page_size=1`,
  `${API}/search/?query=asset_type%3Ahdr&page_size=1`,
  `${API}/search/?query=asset_type%3Amodel%2Cprintable%2Cscene%2Cmaterial%2Chdr+is_free%3Atrue&page_size=1`,
];
const EMPTY_PAGE = '{"count":0,"next":null,"previous":null,"results":[]}';

const asked = (replay: { requested: string[] }) => [...replay.requested].sort();

const query = sourceQuery;

describe("blenderkit: metadata", () => {
  it("is a live freemium API source with direct downloads and an optional key", () => {
    expect(blenderkit).toMatchObject({
      id: "blenderkit",
      name: "BlenderKit",
      homepage: "https://www.blenderkit.com",
      mode: "live",
      access: "api",
      pricing: "freemium",
      supportsDownload: true,
      assetTypes: ["model", "material", "hdri"],
      key: { env: "BLENDERKIT_API_KEY", required: false },
    });
    expect(blenderkit.license).toBeUndefined(); // royalty-free and CC0 assets side by side
  });

  it("maps our types to BlenderKit's", () => {
    expect(upstreamTypes(["model"])).toEqual(["model", "printable", "scene"]);
    expect(upstreamTypes(["texture", "material"])).toEqual(["material"]);
    expect(upstreamTypes(["hdri", "model"])).toEqual(["model", "printable", "scene", "hdr"]);
    expect(upstreamTypes([])).toEqual(["model", "printable", "scene", "material", "hdr"]);
    expect(upstreamTypes(["audio", "font"])).toEqual([]);
  });
});

describe("blenderkit: search", () => {
  it("asks the recorded search URL and maps every asset", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const res = await blenderkit.search(query("chair", { types: ["model"], limit: 3 }), ctx);

    expect(replay.requested).toEqual([SEARCH_CHAIR]);
    expect(res.total).toBe(7267);
    expect(res.searchUrl).toBe("https://www.blenderkit.com/asset-gallery?query=chair+asset_type%3Amodel%2Cprintable%2Cscene");
    expect(res.assets.map((a) => a.title)).toEqual(["Dining table and chairs set", "Minotti Linha Table & Fynn Chair", "Chair"]);
    for (const asset of res.assets) expect(Asset.parse(asset)).toStrictEqual(asset);

    expect(res.assets[0]).toStrictEqual({
      id: `blenderkit:${FREE_ID}`,
      provider: "blenderkit",
      nativeId: FREE_ID,
      title: "Dining table and chairs set",
      description:
        "Elevate your interior scenes with this sophisticated dining set, designed for modern elegance and comfort. This asset features a sleek round table with a distinctive, sturdy conical base, surrounded b",
      type: "model",
      tags: ["table", "chair", "dining", "archviz", "minimalist", "scandinavian", "wood", "green", "sage", "interior"],
      categories: ["table"],
      url: `https://www.blenderkit.com/asset-gallery-detail/${FREE_ID}/`,
      thumbnailUrl:
        "https://public.blenderkit.com/thumbnails/assets/8c2e3c079b2740348a466bf501b8a5f6/files/thumbnail_2fa6891f-27bc-4104-86a2-6f246b0be5d4.jpg.512x512_q85_crop-%2C.jpg",
      author: "dleon3D León",
      // Not in core/model/license.ts: kept by name, no commercial/attribution flags.
      license: { name: "BlenderKit Royalty Free License", url: "https://www.blenderkit.com/docs/licenses/" },
      price: { free: true },
      formats: ["blend", "glb"],
      resolutions: ["0.5k", "1k", "2k", "4k"],
      polyCount: 20384,
      rigged: false,
      downloadable: true,
      createdAt: "2026-06-17T19:36:41.311Z", // 2026-06-17T21:36:41.311304+02:00
    });
    // license cc_zero
    expect(res.assets[2]).toMatchObject({ nativeId: "703fe964-84bb-4468-84bd-f6aa3fb337b4", license: licenseById("CC0-1.0"), price: { free: true } });
  });

  it("maps offset to page and page_size, and cuts the window", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // offset 6, limit 3: page 3 of size 3.
    const url = `${API}/search/?query=chair+asset_type%3Amodel%2Cprintable%2Cscene&page_size=3&page=3`;
    replay.add({ url, file: "search_chair.json", note: "the real page-1 answer, reused for page 3" }, `${import.meta.dirname}/fixtures/blenderkit`);
    const res = await blenderkit.search(query("chair", { types: ["model"], limit: 3, offset: 6 }), ctx);
    expect(replay.requested).toEqual([url]);
    expect(res.assets).toHaveLength(3);

    // offset 4, limit 3: items 4..6 = pages 2 (from its 2nd item) and 3 of size 3.
    const { ctx: ctx2, replay: replay2 } = replayContext({ now: NOW });
    const page2 = `${API}/search/?query=chair+asset_type%3Amodel%2Cprintable%2Cscene&page_size=3&page=2`;
    replay2.add({ url: page2, file: "search_chair.json" }, `${import.meta.dirname}/fixtures/blenderkit`);
    replay2.add({ url, body: EMPTY_PAGE });
    const res2 = await blenderkit.search(query("chair", { types: ["model"], limit: 3, offset: 4 }), ctx2);
    expect(replay2.requested).toEqual([page2, url]);
    expect(res2.assets.map((a) => a.title)).toEqual(["Minotti Linha Table & Fynn Chair", "Chair"]);
  });

  it("keeps page 1's results when the next page of the window fails (page 2 is not recorded)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const page2 = `${API}/search/?query=chair+asset_type%3Amodel%2Cprintable%2Cscene&page_size=3&page=2`;
    // offset 1, limit 3: page 1 (full: 3 of 3) from its 2nd item, then page 2, which fails.
    const res = await blenderkit.search(query("chair", { types: ["model"], limit: 3, offset: 1 }), ctx);
    expect(replay.requested).toEqual([SEARCH_CHAIR, page2]);
    expect(res.assets.map((a) => a.title)).toEqual(["Minotti Linha Table & Fynn Chair", "Chair"]);
    expect(res.total).toBe(7267);
    // A failing first page still fails the search.
    const other = replayContext({ now: NOW });
    other.replay.add({ url: SEARCH_CHAIR, status: 500, body: "oops" });
    await expect(blenderkit.search(query("chair", { types: ["model"], limit: 3, offset: 1 }), other.ctx)).rejects.toThrow();
    expect(other.replay.requested).toEqual([SEARCH_CHAIR]);
  });

  it("asks page_size=24 with the default limit (manifest STAND-IN: the recorded page of 3)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const res = await blenderkit.search(query("chair", { types: ["model"], limit: 24 }), ctx);
    expect(replay.requested).toEqual([`${API}/search/?query=chair+asset_type%3Amodel%2Cprintable%2Cscene&page_size=24`]);
    expect(res.assets).toHaveLength(3);
  });

  it("adds is_free:true for free (and, without a key, for downloadable) and several types", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const free = `${API}/search/?query=wooden+floor+asset_type%3Amaterial%2Chdr+is_free%3Atrue&page_size=24`;
    replay.add({ url: free, body: EMPTY_PAGE });
    const res = await blenderkit.search(query("wooden floor", { types: ["texture", "material", "hdri"], free: true }), ctx);
    expect(res).toMatchObject({ assets: [], total: 0 });
    await blenderkit.search(query("wooden floor", { types: ["texture", "material", "hdri"], downloadable: true }), ctx);
    expect(replay.requested).toEqual([free]); // the second answer came from the client's cache
  });

  it("asks nothing for types BlenderKit does not have", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await blenderkit.search(query("boing", { types: ["audio"] }), ctx)).toEqual({ assets: [] });
    expect(replay.requested).toEqual([]);
  });

  it("sends the optional key as a Bearer token", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: { BLENDERKIT_API_KEY: "k-123" } });
    await blenderkit.search(query("chair", { types: ["model"], limit: 3 }), ctx);
    expect(replay.log.find((r) => r.url === SEARCH_CHAIR)?.headers.authorization).toBe("Bearer k-123");
  });

  it("rejects a changed answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: SEARCH_CHAIR, body: "<html>changed</html>" });
    await expect(blenderkit.search(query("chair", { types: ["model"], limit: 3 }), ctx)).rejects.toThrow(
      /^blenderkit: https:\/\/www\.blenderkit\.com\/api\/v1\/search\/\S+ did not answer JSON/,
    );
    for (const body of ['{"items":[]}', '{"count":2,"results":[{"id":"x"},{"name":"y"}]}']) {
      const { ctx: c, replay: r } = replayContext({ now: NOW });
      r.add({ url: SEARCH_CHAIR, body });
      await expect(blenderkit.search(query("chair", { types: ["model"], limit: 3 }), c)).rejects.toThrow(/^blenderkit: /);
    }
  });
});

describe("blenderkit: getAsset", () => {
  it("resolves every file of a free asset to its signed URL", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await blenderkit.getAsset(FREE_ID, ctx);

    expect(asked(replay)).toEqual([`${API}/search/?query=asset_base_id:${FREE_ID}`, ...DOWNLOADS].sort());
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ id: `blenderkit:${FREE_ID}`, title: "Dining table and chairs set", downloadable: true, resolutions: ["1k"] });
    expect(details!.files).toStrictEqual([
      {
        url: "https://assets.blenderkit.com/assets/8c2e3c079b2740348a466bf501b8a5f6/files/blend_963a950d-0990-4fbc-9f22-387c07667027.blend?verify=1791143248-XeKll3hkY1YLUWrNy99a6hr3rYZqCirJc6ty5pFmgIA%3D",
        filename: "blend_963a950d-0990-4fbc-9f22-387c07667027.blend",
        format: "blend",
        sizeBytes: 56586718,
        group: "blend",
      },
      {
        url: "https://assets.blenderkit.com/assets/8c2e3c079b2740348a466bf501b8a5f6/files/gltf_642ad0b9-6d58-478f-a38c-a13629284b77.glb?verify=1791143248-epn9Fqz%2Bcsj5l0gP%2FmuJOR%2FkB6%2Bs57f9ZpwEdCQY3zA%3D",
        filename: "gltf_642ad0b9-6d58-478f-a38c-a13629284b77.glb",
        format: "glb",
        sizeBytes: 690468,
        group: "gltf",
      },
      {
        url: "https://assets.blenderkit.com/assets/8c2e3c079b2740348a466bf501b8a5f6/files/resolution_1K_269ed1e3-459e-4bf4-94b7-581b379cbb7a.blend?verify=1791143249-fyYp2h0LI%2BMnzLYa4k1Dryy5W2AwH%2BESrZK33GM1uhw%3D",
        filename: "resolution_1K_269ed1e3-459e-4bf4-94b7-581b379cbb7a.blend",
        format: "blend",
        resolution: "1k",
        sizeBytes: 1730286,
        group: "blend",
      },
    ]);
    // The default selection of a model is the glb.
    expect(selectFiles(details!, {}).map((f) => f.format)).toEqual(["glb"]);
  });

  it("lists a plan asset's files as page links, without asking the download API", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await blenderkit.getAsset(PAID_ID, ctx);

    expect(replay.requested).toEqual([`${API}/search/?query=asset_base_id:${PAID_ID}`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ title: "Valen Swivel Accent Chair", price: { free: false }, downloadable: false, author: "Ricardo Soares" });
    const page = `https://www.blenderkit.com/asset-gallery-detail/${PAID_ID}/`;
    expect(details!.files).toStrictEqual([
      { url: page, filename: "blend_1feee1f6-4808-4535-8ef7-2314288ebff3.blend", format: "blend", sizeBytes: 43438190, group: "blend", requiresAuth: true },
      { url: page, filename: "gltf_2751689b-56c7-4a12-99cd-172a5533bf2c.glb", format: "glb", sizeBytes: 1725628, group: "gltf", requiresAuth: true },
      {
        url: page,
        filename: "resolution_1K_bb3d4bb4-36d6-4e0d-8092-ae1116a300b5.blend",
        format: "blend",
        resolution: "1k",
        sizeBytes: 1652542,
        group: "blend",
        requiresAuth: true,
      },
    ]);
    expect(selectFiles(details!, {})).toEqual([]);
  });

  it("turns a refused download into a page link", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: DOWNLOADS[1]!, status: 403, body: '{"detail":"plan required"}', note: "scripted 403" });
    const details = await blenderkit.getAsset(FREE_ID, ctx);
    expect(details!.files[1]).toMatchObject({ url: `https://www.blenderkit.com/asset-gallery-detail/${FREE_ID}/`, requiresAuth: true, format: "glb" });
    expect(details!.files[0]!.requiresAuth).toBeUndefined();
    expect(details!.downloadable).toBe(true);
  });

  it("rejects a download answer without a file URL", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: DOWNLOADS[0]!, body: '{"fileType":"blend"}' });
    await expect(blenderkit.getAsset(FREE_ID, ctx)).rejects.toThrow(/^blenderkit: download answer of file 71be19e1-.* has no filePath/);
  });

  it("answers null for an unknown asset, a 404 and an id that is no UUID", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const unknown = "00000000-0000-4000-8000-000000000000";
    replay.add({ url: `${API}/search/?query=asset_base_id:${unknown}`, body: EMPTY_PAGE });
    const gone = "00000000-0000-4000-8000-000000000001";
    replay.add({ url: `${API}/search/?query=asset_base_id:${gone}`, status: 404, body: "{}" });
    expect(await blenderkit.getAsset(unknown, ctx)).toBeNull();
    expect(await blenderkit.getAsset(gone, ctx)).toBeNull();
    expect(await blenderkit.getAsset("chair", ctx)).toBeNull();
    expect(replay.requested).toHaveLength(2);
  });
});

describe("blenderkit: census", () => {
  it("counts per type and the free ones from the search count", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await blenderkit.census(ctx);

    expect(asked(replay)).toEqual([...CENSUS].sort());
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    // Stand-ins: every count is the 'chair' search's 7267.
    expect(census).toStrictEqual({
      id: "blenderkit",
      name: "BlenderKit",
      homepage: "https://www.blenderkit.com",
      total: 21801,
      free: 7267,
      byType: { model: 7267, material: 7267, hdri: 7267 },
      unit: "assets",
      method: "BlenderKit search API: the count of an empty search per asset type (models with printables and scenes, materials, HDRIs) and of the free ones",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
  });
});

describe("blenderkit: searchUrl", () => {
  it("is the asset gallery with the same query", () => {
    expect(blenderkit.searchUrl(query("old chair", { types: ["model"], free: true }))).toBe(
      "https://www.blenderkit.com/asset-gallery?query=old+chair+asset_type%3Amodel%2Cprintable%2Cscene+is_free%3Atrue",
    );
    expect(blenderkit.searchUrl(query("sky", { types: ["hdri"] }))).toBe("https://www.blenderkit.com/asset-gallery?query=sky+asset_type%3Ahdr");
  });
});

describe("blenderkit: filters", () => {
  it("puts the filters and newest in the query's terms (STAND-IN: the recorded chair body served for the filtered URL)", async () => {
    const { ctx, replay } = replayContext();
    const url =
      "https://www.blenderkit.com/api/v1/search/?query=chair+asset_type%3Amodel%2Cprintable%2Cscene+license%3Acc_zero+category_subtree%3Achair+faceCount_lte%3A50000+textureResolutionMax_gte%3A4096+animated%3Atrue+order%3A-created&page_size=3";
    replay.add({ method: "GET", url, file: "search_chair.json", status: 200, headers: {} }, `${import.meta.dirname}/fixtures/blenderkit`);
    const filters = { license: ["cc0-1.0"], category: ["chair"], maxPolys: 50000, resolution: 4, animated: true };
    const res = await blenderkit.search(sourceQuery("chair", { types: ["model"], limit: 3, filters, sort: "newest" }), ctx);
    expect(replay.requested).toEqual([url]);
    expect(res.assets).toHaveLength(3);
  });

  it("leaves out a licence or category without one upstream form, and answers nothing for not-animated", async () => {
    expect(filterTerms({ license: ["cc0", "cc-by"], category: ["chair", "dining table"] }, "relevance")).toEqual([]);
    expect(filterTerms({ category: ["chair", "table"] }, "popular")).toEqual([]);
    const { ctx, replay } = replayContext();
    expect(await blenderkit.search(sourceQuery("chair", { filters: { animated: false } }), ctx)).toEqual({ assets: [] });
    expect(replay.requested).toEqual([]);
  });

  it("declares what its listings carry, and nothing they do not", async () => {
    const { ctx } = replayContext();
    const { assets } = await blenderkit.search(sourceQuery("chair", { types: ["model"], limit: 3 }), ctx);
    const listed = blenderkit.filtering!.listed;
    // No animation flag in these listings, and no download count.
    expectListedExactly(assets, listed);
  });
});
