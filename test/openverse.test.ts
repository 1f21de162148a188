import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { isPlainFileUrl, openverse } from "../sources/openverse.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recordings: test/fixtures/openverse/manifest.json (Openverse front-end tapes). The search URLs are
// stand-ins: the tapes asked `peaks=true` (and sensitive results), the source asks page_size/page.
// Bodies marked "scripted" below are made up in this file to drive paging and the census; no
// recording of /v1/audio/stats/ or of a second page exists.

const NOW = new Date("2026-11-22T00:00:00Z");
const API = "https://api.openverse.org/v1/audio";
const CAT = `${API}/?q=cat&page_size=20&page=1`;
const DETAIL = `${API}/7e063ee6-343f-48e4-a4a5-f436393730f6/`;

const query = sourceQuery;

const NC_ND_3 = {
  name: "Creative Commons Attribution-NonCommercial-NoDerivatives 3.0",
  url: "https://creativecommons.org/licenses/by-nc-nd/3.0/",
  commercialUse: false,
  attributionRequired: true,
  spdx: "CC-BY-NC-ND-3.0",
};

describe("openverse: metadata", () => {
  it("is a live, free, keyless API source of audio", () => {
    expect(openverse).toMatchObject({
      id: "openverse",
      name: "Openverse",
      homepage: "https://openverse.org",
      assetTypes: ["audio"],
      access: "api",
      pricing: "free",
      supportsDownload: true,
      mode: "live",
    });
    expect(openverse.key).toBeUndefined();
    expect(openverse).not.toHaveProperty("crawl");
  });
});

describe("openverse: search", () => {
  it("asks one page of 20 and maps the recorded results", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const res = await openverse.search(query("cat"), ctx);
    expect(replay.requested).toEqual([CAT]);
    expect(res.total).toBe(240);
    expect(res.searchUrl).toBe("https://openverse.org/search/audio?q=cat");
    expect(res.assets.map((a) => a.title)).toEqual(["Cat rock", "Lucky Cat", "Middlenight Cat Walking Chicago"]);
    for (const asset of res.assets) Asset.parse(asset);
    expect(res.assets[0]).toStrictEqual({
      id: "openverse:70fe3934-ac2b-4c15-bd8a-c6912500f07a",
      provider: "openverse",
      nativeId: "70fe3934-ac2b-4c15-bd8a-c6912500f07a",
      title: "Cat rock",
      description:
        '"Cat rock" by Nordgroove is licensed under CC BY-NC-ND 3.0. To view a copy of this license, visit https://creativecommons.org/licenses/by-nc-nd/3.0/.',
      type: "audio",
      tags: ["goovy", "holiday", "instrumental", "soft", "speed_medium", "downtempo", "electronic", "nujazz"],
      categories: ["music", "jamendo"],
      url: "https://openverse.org/audio/70fe3934-ac2b-4c15-bd8a-c6912500f07a",
      thumbnailUrl: "https://api.openverse.org/v1/audio/70fe3934-ac2b-4c15-bd8a-c6912500f07a/thumb/",
      author: "Nordgroove",
      license: NC_ND_3,
      price: { free: true },
      formats: ["mp3"],
      downloadable: true,
    });
    // by-sa 3.0 is in the shared table.
    expect(res.assets[1]!.license).toEqual(licenseById("CC-BY-SA-3.0"));
  });

  it("slices to the limit and maps the empty answer", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const two = await openverse.search(query("cat", { limit: 2 }), ctx);
    expect(two.assets.map((a) => a.title)).toEqual(["Cat rock", "Lucky Cat"]);
    const skip = await openverse.search(query("cat", { limit: 2, offset: 1 }), ctx);
    expect(skip.assets.map((a) => a.title)).toEqual(["Lucky Cat", "Middlenight Cat Walking Chicago"]);
    const none = await openverse.search(query("querywithnoresults"), ctx);
    expect(none).toEqual({ assets: [], total: 0, searchUrl: "https://openverse.org/search/audio?q=querywithnoresults" });
    // The first two searches share one cached page.
    expect(replay.requested).toEqual([CAT, `${API}/?q=querywithnoresults&page_size=20&page=1`]);
  });

  it("maps the per-source offset onto pages of 20 (scripted pages)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const recorded = JSON.parse(readFileSync(join(FIXTURES, "openverse", "v1_audio_search_q-cat_trimmed.json"), "utf8"));
    const record = (n: number) => ({ ...recorded.results[0], id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, title: `Track ${n}` });
    const page = (p: number) => ({
      result_count: 45,
      page_count: 3,
      page_size: 20,
      page: p,
      results: Array.from({ length: p === 3 ? 5 : 20 }, (_, i) => record((p - 1) * 20 + i)),
    });
    for (const p of [2, 3]) replay.add({ url: `${API}/?q=drums&page_size=20&page=${p}`, body: JSON.stringify(page(p)), note: "scripted page" });
    const res = await openverse.search(query("drums", { offset: 30, limit: 24 }), ctx);
    expect(replay.requested).toEqual([`${API}/?q=drums&page_size=20&page=2`, `${API}/?q=drums&page_size=20&page=3`]);
    expect(res.assets.map((a) => a.title)).toEqual(Array.from({ length: 15 }, (_, i) => `Track ${30 + i}`));
    expect(res.total).toBe(45);
  });

  it("keeps the first page's records when the next page of the window fails (scripted page, next missing)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const recorded = JSON.parse(readFileSync(join(FIXTURES, "openverse", "v1_audio_search_q-cat_trimmed.json"), "utf8"));
    const record = (n: number) => ({ ...recorded.results[0], id: `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`, title: `Track ${n}` });
    const page2 = { result_count: 45, page_count: 3, page_size: 20, page: 2, results: Array.from({ length: 20 }, (_, i) => record(20 + i)) };
    replay.add({ url: `${API}/?q=drums&page_size=20&page=2`, body: JSON.stringify(page2), note: "scripted page" });
    const res = await openverse.search(query("drums", { offset: 30, limit: 24 }), ctx);
    expect(replay.requested).toEqual([`${API}/?q=drums&page_size=20&page=2`, `${API}/?q=drums&page_size=20&page=3`]);
    expect(res.assets.map((a) => a.title)).toEqual(Array.from({ length: 10 }, (_, i) => `Track ${30 + i}`));
    expect(res.total).toBe(45);
    // The window's first page failing still fails the search.
    const other = replayContext({ now: NOW });
    other.replay.add({ url: `${API}/?q=drums&page_size=20&page=2`, status: 500, body: "oops", note: "scripted" });
    await expect(openverse.search(query("drums", { offset: 30, limit: 24 }), other.ctx)).rejects.toThrow();
  });

  it("does not ask when the asked types exclude audio", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect((await openverse.search(query("cat", { types: ["model"] }), ctx)).assets).toEqual([]);
    expect(replay.requested).toEqual([]);
  });

  it("rejects a changed answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: CAT, body: '{"detail":"changed"}' });
    await expect(openverse.search(query("cat"), ctx)).rejects.toThrow(/^openverse: the audio search answer has no results array/);
    const other = replayContext({ now: NOW });
    other.replay.add({ url: CAT, body: '{"results":[{"title":"no id"}]}' });
    await expect(openverse.search(query("cat"), other.ctx)).rejects.toThrow(/^openverse: .* is not an audio record/);
  });
});

describe("openverse: getAsset", () => {
  it("asks the detail and lists the audio file on its provider", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await openverse.getAsset("7e063ee6-343f-48e4-a4a5-f436393730f6", ctx);
    expect(replay.requested).toEqual([DETAIL]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: "openverse:7e063ee6-343f-48e4-a4a5-f436393730f6",
      title: "I Love My Dog You Love your Cat",
      author: "Micaroni and Vulcano",
      url: "https://openverse.org/audio/7e063ee6-343f-48e4-a4a5-f436393730f6",
      thumbnailUrl: "https://api.openverse.org/v1/audio/7e063ee6-343f-48e4-a4a5-f436393730f6/thumb/",
      license: NC_ND_3,
      tags: ["cat", "male", "nature", "speed_medium", "vocal", "country"],
      downloadable: true,
    });
    expect(details!.files).toStrictEqual([
      {
        url: "https://prod-1.storage.jamendo.com/?trackid=1037750&format=mp32",
        filename: "i-love-my-dog-you-love-your-cat.mp3",
        format: "mp3",
        group: "audio",
      },
    ]);
  });

  it("answers null for an unknown id (404) and for ids that are no UUID", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const missing = `${API}/00000000-0000-4000-8000-000000000000/`;
    replay.add({ url: missing, status: 404, body: '{"detail":"Not found."}', note: "scripted 404" });
    expect(await openverse.getAsset("00000000-0000-4000-8000-000000000000", ctx)).toBeNull();
    expect(await openverse.getAsset("cat", ctx)).toBeNull();
    expect(replay.requested).toEqual([missing]);
  });

  it("marks a file that is not a plain file URL as needing the source page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const detail = JSON.parse(readFileSync(join(FIXTURES, "openverse", "v1_audio_detail_7e063ee6.json"), "utf8"));
    const id = "11111111-2222-4333-8444-555555555555";
    replay.add({
      url: `${API}/${id}/`,
      body: JSON.stringify({
        ...detail,
        id,
        url: "https://example.org/listen?track=1",
        filetype: null,
        license: "cc0",
        license_version: "1.0",
        license_url: "https://creativecommons.org/publicdomain/zero/1.0/",
        alt_files: [{ url: "https://example.org/a/track.ogg", filetype: "ogg", filesize: 1234 }],
      }),
      note: "scripted variant of the recorded detail",
    });
    const details = await openverse.getAsset(id, ctx);
    expect(details!.license).toEqual(licenseById("CC0-1.0"));
    expect(details!.files).toStrictEqual([
      { url: "https://example.org/listen?track=1", filename: "i-love-my-dog-you-love-your-cat.audio", format: "audio", group: "audio", requiresAuth: true },
      { url: "https://example.org/a/track.ogg", filename: "i-love-my-dog-you-love-your-cat.ogg", format: "ogg", sizeBytes: 1234, group: "audio" },
    ]);
    expect(details!.downloadable).toBe(true);
  });

  it("tells plain file URLs from pages", () => {
    expect(isPlainFileUrl("https://upload.wikimedia.org/wikipedia/commons/a/ab/Meow.ogg")).toBe(true);
    expect(isPlainFileUrl("https://cdn.freesound.org/previews/209/209943_3797507-hq.mp3")).toBe(true);
    expect(isPlainFileUrl("https://prod-1.storage.jamendo.com/?trackid=1&format=mp32")).toBe(true);
    expect(isPlainFileUrl("https://www.jamendo.com/track/1471068")).toBe(false);
    expect(isPlainFileUrl("ftp://example.org/a.mp3")).toBe(false);
  });
});

describe("openverse: census", () => {
  it("sums /v1/audio/stats/ per source (scripted body of the documented shape)", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({
      url: `${API}/stats/`,
      body: JSON.stringify([
        { source_name: "jamendo", display_name: "Jamendo", source_url: "https://www.jamendo.com", logo_url: null, media_count: 500 },
        { source_name: "freesound", display_name: "Freesound", source_url: "https://freesound.org", logo_url: null, media_count: 700 },
      ]),
      note: "scripted: no recording of /v1/audio/stats/ exists",
    });
    const census = await openverse.census(ctx);
    expect(replay.requested).toEqual([`${API}/stats/`]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "openverse",
      total: 1200,
      free: 1200,
      byType: { audio: 1200 },
      categories: { Jamendo: 500, Freesound: 700 },
      highlights: [{ label: "Largest audio source", title: "Freesound", url: "https://freesound.org", value: 700 }],
      countedAt: "2026-11-22T00:00:00.000Z",
    });
  });

  it("rejects a changed stats answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: `${API}/stats/`, body: "<html>changed</html>" });
    await expect(openverse.census(ctx)).rejects.toThrow(/^openverse: .* did not answer JSON/);
    const other = replayContext({ now: NOW });
    other.replay.add({ url: `${API}/stats/`, body: '{"sources":[]}' });
    await expect(openverse.census(other.ctx)).rejects.toThrow(/^openverse: /);
  });
});

describe("openverse: searchUrl", () => {
  it("opens the audio search on openverse.org", () => {
    expect(openverse.searchUrl(query("rain loop"))).toBe("https://openverse.org/search/audio?q=rain%20loop");
    expect(openverse.searchUrl(query(""))).toBe("https://openverse.org/search/audio");
  });
});

describe("openverse: filters", () => {
  const serve = (replay: ReturnType<typeof replayContext>["replay"], url: string) =>
    // STAND-IN: the recorded body of the unfiltered "cat" search, served for the filtered URL.
    replay.add(
      { method: "GET", url, file: "v1_audio_search_q-cat_trimmed.json", status: 200, headers: { "content-type": "application/json" } },
      join(FIXTURES, "openverse"),
    );

  it("passes licence codes, commercial use, category and extension to the API", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const filtered = `${API}/?q=cat&page_size=20&license=by-nc-nd%2Cby-sa&license_type=commercial&category=music%2Csound_effect&extension=flac%2Cwav&page=1`;
    serve(replay, filtered);
    const filters = {
      license: ["cc-by-nc-nd-3.0", "cc-by-sa"],
      commercial: true,
      category: ["music", "sound_effect"],
      format: ["flac", "wav"],
      author: "nordgroove",
    };
    const res = await openverse.search(query("cat", { filters }), ctx);
    // `creator` is left out next to `q` (the API ignores it there); the search checks the listed author.
    expect(replay.requested).toEqual([filtered]);
    expect(res.assets).toHaveLength(3);
  });

  it("asks a creator-only search when there are no search words", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const filtered = `${API}/?page_size=20&creator=nordgroove&page=1`;
    serve(replay, filtered);
    await openverse.search(query("", { filters: { author: "nordgroove" } }), ctx);
    expect(replay.requested).toEqual([filtered]);
  });

  it("leaves out a filter whose values cannot all be asked", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // mit has no Creative Commons code, jamendo is a source (not an audio category), mp3 is renamed from the API's mp32,
    // and the API has no licence type for non-commercial licences.
    const filters = { license: ["cc0", "mit"], category: ["music", "jamendo"], format: ["mp3"], commercial: false };
    await openverse.search(query("cat", { filters, sort: "newest" }), ctx);
    expect(replay.requested).toEqual([CAT]);
  });

  it("declares what its listings carry, and they carry it", async () => {
    const { upstream, listed } = openverse.filtering!;
    expect(upstream).toEqual(["license", "commercial", "category", "format", "author"]);
    const { ctx } = replayContext({ now: NOW });
    const { assets } = await openverse.search(query("cat"), ctx);
    // No dates of creation (only when Openverse indexed a record) and no download counts: neither sort is listed.
    expectListedExactly(assets, listed);
  });
});
