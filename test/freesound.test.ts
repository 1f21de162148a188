import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { toProvider } from "../core/model/source.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { freesound, parseSound, SEARCH_FIELDS, soundFiles, soundFilter, soundToAsset } from "../sources/freesound.ts";
import { expectListedExactly } from "./helpers/filtering.ts";
import { sourceQuery } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recordings: test/fixtures/freesound/manifest.json. The search URL is a stand-in (the recording asked
// no fields=, so its results carry only the default fields); the bare result items recorded by the
// Openverse catalog tests are read directly below. Bodies marked "scripted" are made up here.

const NOW = new Date("2026-11-22T00:00:00Z");
const ENV = { FREESOUND_API_KEY: "REPLAY_KEY" };
const API = "https://freesound.org/apiv2";
const fields = encodeURIComponent(SEARCH_FIELDS);
const search = (q: string, size: number, page: number, f = fields) => `${API}/search/text/?query=${q}&fields=${f}&page_size=${size}&page=${page}`;
const BASS = search("bass", 2, 1);
const fixture = (name: string) => JSON.parse(readFileSync(join(FIXTURES, "freesound", name), "utf8"));

const query = sourceQuery;

describe("freesound: metadata", () => {
  it("is a live audio API source that needs FREESOUND_API_KEY", () => {
    expect(freesound).toMatchObject({
      id: "freesound",
      name: "Freesound",
      homepage: "https://freesound.org",
      assetTypes: ["audio"],
      access: "api",
      pricing: "free",
      supportsDownload: true,
      mode: "live",
      key: { env: "FREESOUND_API_KEY", required: true },
    });
    expect(toProvider(freesound, {}).enabled).toBe(false);
    expect(toProvider(freesound, ENV).enabled).toBe(true);
  });
});

describe("freesound: search", () => {
  it("asks one page of exactly `limit` with its fields and maps the recorded (default-field) results", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const res = await freesound.search(query("bass", { limit: 2 }), ctx);
    expect(replay.requested).toEqual([BASS]);
    expect(BASS).not.toContain("REPLAY_KEY");
    expect(res.total).toBe(30005);
    expect(res.searchUrl).toBe("https://freesound.org/search/?q=bass");
    for (const asset of res.assets) Asset.parse(asset);
    expect(res.assets[0]).toStrictEqual({
      id: "freesound:209943",
      provider: "freesound",
      nativeId: "209943",
      title: "bass 16b.wav",
      type: "audio",
      tags: ["bass", "boop", "HUM", "ambiance", "metal", "deep", "GUITAR", "rumble", "LOW", "rock", "BASS"],
      url: "https://freesound.org/people/Veiler/sounds/209943/",
      author: "Veiler",
      license: licenseById("CC0-1.0"),
      price: { free: true },
      downloadable: true,
    });
    expect(res.assets.map((a) => a.nativeId)).toEqual(["209943", "529718"]);
  });

  it("maps a full-field result (recorded by the Openverse catalog tests)", () => {
    const item = parseSound(fixture("search_text_result_item_415362.json"), "item");
    const asset = soundToAsset(item);
    expect(asset).toStrictEqual({
      id: "freesound:415362",
      provider: "freesound",
      nativeId: "415362",
      title: "Ehh disinterested.wav",
      description: "A disinterested noise in a somewhat low tone.",
      type: "audio",
      tags: ["eh", "disinterest", "low", "uh", "voice", "uncaring"],
      url: "https://freesound.org/people/owly-bee/sounds/415362/",
      author: "owly-bee",
      license: licenseById("CC-BY-3.0"),
      price: { free: true },
      formats: ["wav", "mp3", "ogg"],
      downloadable: true,
      createdAt: "2018-01-15T00:02:51",
      downloads: 164,
    });
    const many = (fixture("search_text_results_array_openverse_catalog.json") as unknown[]).map((r, i) => soundToAsset(parseSound(r, `#${i}`)));
    for (const a of many) Asset.parse(a);
    // HTML in descriptions is reduced to text.
    expect(many[1]!.description).toBe("Classic TR-909 hits Made with my Roland JdXi synth https://www.grdmusic.com");
  });

  it("maps an offset that is not a multiple of the limit onto pages of 50 (scripted pages)", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const item = fixture("search_text_result_item_415362.json");
    const page = (p: number, n: number) => ({
      count: 60,
      next: null,
      previous: null,
      results: Array.from({ length: n }, (_, i) => ({ ...item, id: (p - 1) * 50 + i })),
    });
    replay.add({ url: search("kick", 50, 1), body: JSON.stringify(page(1, 50)), note: "scripted" });
    replay.add({ url: search("kick", 50, 2), body: JSON.stringify(page(2, 10)), note: "scripted" });
    const res = await freesound.search(query("kick", { offset: 45, limit: 10 }), ctx);
    expect(replay.requested).toEqual([search("kick", 50, 1), search("kick", 50, 2)]);
    expect(res.assets.map((a) => a.nativeId)).toEqual(["45", "46", "47", "48", "49", "50", "51", "52", "53", "54"]);
    expect(res.total).toBe(60);
  });

  it("keeps page 1's sounds when the next page of the window fails (scripted page 1, page 2 missing)", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const item = fixture("search_text_result_item_415362.json");
    const page1 = { count: 60, next: null, previous: null, results: Array.from({ length: 50 }, (_, i) => ({ ...item, id: i })) };
    replay.add({ url: search("kick", 50, 1), body: JSON.stringify(page1), note: "scripted" });
    const res = await freesound.search(query("kick", { offset: 45, limit: 10 }), ctx);
    expect(replay.requested).toEqual([search("kick", 50, 1), search("kick", 50, 2)]);
    expect(res.assets.map((a) => a.nativeId)).toEqual(["45", "46", "47", "48", "49"]);
    expect(res.total).toBe(60);
    // A failing first page still fails the search.
    const other = replayContext({ now: NOW, env: ENV });
    other.replay.add({ url: search("kick", 50, 1), status: 500, body: "oops", note: "scripted" });
    await expect(freesound.search(query("kick", { offset: 45, limit: 10 }), other.ctx)).rejects.toThrow();
  });

  it("asks page_size=24 with the default limit (manifest STAND-IN: the recorded page of 2)", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const res = await freesound.search(query("bass"), ctx);
    expect(replay.requested).toEqual([search("bass", 24, 1)]);
    expect(res.assets).toHaveLength(2);
  });

  it("answers nothing past the last page (Freesound's 404) and skips non-audio searches", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    replay.add({ url: search("kick", 24, 9), status: 404, body: '{"detail":"Invalid page."}', note: "scripted 404" });
    expect((await freesound.search(query("kick", { offset: 192 }), ctx)).assets).toEqual([]);
    expect((await freesound.search(query("kick", { types: ["model"] }), ctx)).assets).toEqual([]);
    expect(replay.requested).toEqual([search("kick", 24, 9)]);
  });

  it("needs the key and rejects changed answers with a message naming the source", async () => {
    const bare = replayContext({ now: NOW });
    await expect(freesound.search(query("bass", { limit: 2 }), bare.ctx)).rejects.toThrow(/^freesound: FREESOUND_API_KEY is not set/);
    expect(bare.replay.requested).toEqual([]);

    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    replay.add({ url: BASS, body: '{"detail":"changed"}' });
    await expect(freesound.search(query("bass", { limit: 2 }), ctx)).rejects.toThrow(/^freesound: the text search answer has no results array/);
    const other = replayContext({ now: NOW, env: ENV });
    other.replay.add({ url: BASS, body: '{"count":1,"results":[{"name":"no id"}]}' });
    await expect(freesound.search(query("bass", { limit: 2 }), other.ctx)).rejects.toThrow(/^freesound: .* is not a sound/);
  });
});

describe("freesound: getAsset", () => {
  it("lists the public previews first and the original (OAuth2) last", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const details = await freesound.getAsset("209943", ctx);
    expect(replay.requested).toEqual([`${API}/sounds/209943/`]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: "freesound:209943",
      title: "bass 16b.wav",
      description: "this is a bass sound",
      url: "https://freesound.org/people/Veiler/sounds/209943/",
      thumbnailUrl: "https://cdn.freesound.org/displays/209/209943_3797507_wave_M.png",
      author: "Veiler",
      license: licenseById("CC0-1.0"),
      formats: ["wav", "ogg", "mp3"],
      createdAt: "2013-12-08T14:04:19",
      downloadable: true,
    });
    expect(details!.files).toStrictEqual([
      { url: "https://cdn.freesound.org/previews/209/209943_3797507-hq.mp3", filename: "209943_3797507-hq.mp3", format: "mp3", group: "audio" },
      { url: "https://cdn.freesound.org/previews/209/209943_3797507-hq.ogg", filename: "209943_3797507-hq.ogg", format: "ogg", group: "audio" },
      { url: "https://cdn.freesound.org/previews/209/209943_3797507-lq.mp3", filename: "209943_3797507-lq.mp3", format: "mp3", group: "audio" },
      { url: "https://cdn.freesound.org/previews/209/209943_3797507-lq.ogg", filename: "209943_3797507-lq.ogg", format: "ogg", group: "audio" },
      {
        url: "https://freesound.org/apiv2/sounds/209943/download/",
        filename: "bass 16b.wav",
        format: "wav",
        sizeBytes: 290504,
        group: "original",
        requiresAuth: true,
      },
    ]);
  });

  it("keeps the licence version of older Creative Commons licences", () => {
    const item = fixture("search_text_result_item_415362.json");
    const nc = soundToAsset(parseSound({ ...item, license: "http://creativecommons.org/licenses/by-nc/3.0/" }, "scripted"));
    expect(nc.license).toStrictEqual({
      name: "Creative Commons Attribution-NonCommercial 3.0",
      url: "https://creativecommons.org/licenses/by-nc/3.0/",
      commercialUse: false,
      attributionRequired: true,
      spdx: "CC-BY-NC-3.0",
    });
    const sampling = soundToAsset(parseSound({ ...item, license: "http://creativecommons.org/licenses/sampling+/1.0/" }, "scripted"));
    expect(sampling.license).toStrictEqual({
      name: "Creative Commons Sampling Plus 1.0",
      url: "https://creativecommons.org/licenses/sampling+/1.0/",
      attributionRequired: true,
    });
    expect(soundFiles(parseSound({ ...item, download: undefined }, "scripted")).map((f) => f.filename)).toEqual([
      "415362_6044691-hq.mp3",
      "415362_6044691-hq.ogg",
      "415362_6044691-lq.mp3",
      "415362_6044691-lq.ogg",
    ]);
  });

  it("answers null for an unknown sound (404) and for ids that are not numbers", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    replay.add({ url: `${API}/sounds/1/`, status: 404, body: '{"detail":"Not found."}', note: "scripted 404" });
    expect(await freesound.getAsset("1", ctx)).toBeNull();
    expect(await freesound.getAsset("abc", ctx)).toBeNull();
    expect(replay.requested).toEqual([`${API}/sounds/1/`]);
  });

  it("rejects a changed detail with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    replay.add({ url: `${API}/sounds/209943/`, body: "<html>changed</html>" });
    await expect(freesound.getAsset("209943", ctx)).rejects.toThrow(/^freesound: .* did not answer JSON/);
    const other = replayContext({ now: NOW, env: ENV });
    other.replay.add({ url: `${API}/sounds/209943/`, body: '{"id":"x"}' });
    await expect(freesound.getAsset("209943", other.ctx)).rejects.toThrow(/^freesound: .* is not a sound/);
  });
});

describe("freesound: census", () => {
  it("counts every sound with one empty search (scripted body: no recording of it exists)", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const url = search("", 1, 1, "id");
    replay.add({ url, body: '{"count":654321,"next":null,"previous":null,"results":[{"id":1}]}', note: "scripted" });
    const census = await freesound.census(ctx);
    expect(replay.requested).toEqual([url]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "freesound",
      total: 654321,
      free: 654321,
      byType: { audio: 654321 },
      unit: "assets",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
    const other = replayContext({ now: NOW, env: ENV });
    other.replay.add({ url, body: '{"results":[]}', note: "scripted" });
    await expect(freesound.census(other.ctx)).rejects.toThrow(/^freesound: the text search answer has no count/);
  });
});

describe("freesound: searchUrl", () => {
  it("opens the site's search", () => {
    expect(freesound.searchUrl(query("door creak"))).toBe("https://freesound.org/search/?q=door%20creak");
  });
});

describe("freesound: filters and sorts", () => {
  // The full-field result items (recorded by the Openverse catalog tests): the recorded search answer asked no
  // fields=, so it holds only the default fields, not the date, type or download count a real search here asks.
  const full = () => (fixture("search_text_results_array_openverse_catalog.json") as unknown[]).map((r, i) => soundToAsset(parseSound(r, `#${i}`)));

  it("passes licence, uploader and original type in `filter`, and the sort, to the API", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const filtered =
      `${API}/search/text/?query=bass&filter=license%3A%22Creative+Commons+0%22+username%3A%22veiler%22+type%3Awav` +
      `&sort=downloads_desc&fields=${fields}&page_size=2&page=1`;
    // STAND-IN: the recorded body of the unfiltered "bass" search, served for the filtered URL.
    replay.add(
      { method: "GET", url: filtered, file: "apiv2_search_text_bass_trimmed.json", status: 200, headers: { "content-type": "application/json" } },
      join(FIXTURES, "freesound"),
    );
    const filters = { license: ["cc0"], author: "veiler", format: ["wav"] };
    const res = await freesound.search(query("bass", { limit: 2, filters, sort: "popular" }), ctx);
    expect(replay.requested).toEqual([filtered]);
    expect(res.assets.map((a) => a.nativeId)).toEqual(["209943", "529718"]);
  });

  it("writes each filter in the API's filter syntax and its sorts", () => {
    expect(soundFilter({ license: ["cc-by-4.0", "cc-by-nc"] })).toBe('license:("Attribution" OR "Attribution NonCommercial")');
    expect(soundFilter({ commercial: true })).toBe('license:("Attribution" OR "Creative Commons 0")');
    expect(soundFilter({ commercial: false })).toBe('license:"Attribution NonCommercial"');
    expect(soundFilter({ attribution: false })).toBe('license:"Creative Commons 0"');
    expect(soundFilter({ attribution: true })).toBeUndefined(); // the search checks the listed licence terms
    expect(soundFilter({ format: ["wav", "flac"] })).toBe("type:(wav OR flac)");
  });

  it("leaves out a filter whose values cannot all be asked (a licence Freesound lacks, a preview format)", async () => {
    expect(soundFilter({ license: ["cc0", "cc-by-sa"] })).toBeUndefined();
    expect(soundFilter({ format: ["wav", "mp3"] })).toBeUndefined();
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    await freesound.search(query("bass", { limit: 2, filters: { license: ["cc-by-sa"], format: ["ogg"] } }), ctx);
    expect(replay.requested).toEqual([BASS]);
    const newest = replayContext({ now: NOW, env: ENV });
    newest.replay.add({
      url: `${API}/search/text/?query=kick&sort=created_desc&fields=${fields}&page_size=24&page=1`,
      body: '{"count":0,"results":[]}',
      note: "scripted",
    });
    expect((await freesound.search(query("kick", { sort: "newest" }), newest.ctx)).assets).toEqual([]);
  });

  it("declares what its listings carry, and they carry it", () => {
    const { upstream, listed } = freesound.filtering!;
    expect(listed).toEqual(["license", "commercial", "attribution", "author", "format", "newest", "popular"]);
    expect(upstream).toEqual(["license", "commercial", "attribution", "author", "format", "newest", "popular"]);
    expectListedExactly(full(), listed);
  });

  it("fills downloads from num_downloads", () => {
    expect(full().map((a) => a.downloads)).toEqual([87, 23, 22, 67, 10, 164]);
  });
});
