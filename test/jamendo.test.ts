import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { toProvider } from "../core/model/source.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { jamendo } from "../sources/jamendo.ts";
import { sourceQuery as query } from "./helpers/query.ts";
import { FIXTURES, replayContext } from "./helpers/replay.ts";

// Recordings: test/fixtures/jamendo/manifest.json. The tracks are recorded (results arrays only); the envelope around
// them is written from Jamendo's documentation (test/fixtures/synthetic/jamendo/README.md). Both URLs are stand-ins.

const ENV = { JAMENDO_CLIENT_ID: "REPLAY_KEY" };
const API = "https://api.jamendo.com/v3.0/tracks?format=json&client_id=REPLAY_KEY";
const PAGE = `${API}&include=musicinfo+stats&imagesize=200&limit=24&audioformat=mp32&offset=0`;
const TRACK_732 = `${API}&id=732&include=musicinfo+stats&imagesize=200&audioformat=mp32`;
const json = (...path: string[]) => JSON.parse(readFileSync(join(FIXTURES, ...path), "utf8"));

describe("jamendo: metadata and fixtures", () => {
  it("is a live audio API source that needs JAMENDO_CLIENT_ID, skipped without it", () => {
    expect(jamendo).toMatchObject({ id: "jamendo", assetTypes: ["audio"], access: "api", mode: "live", key: { env: "JAMENDO_CLIENT_ID", required: true } });
    expect(toProvider(jamendo, {}).enabled).toBe(false);
    expect(toProvider(jamendo, ENV).enabled).toBe(true);
  });

  it("serves the recorded tracks unchanged inside the written envelope", () => {
    expect(json("synthetic", "jamendo", "tracks_page1_enveloped.json").results).toEqual(json("jamendo", "v3_tracks_results_page1_trimmed.json"));
    expect(json("synthetic", "jamendo", "tracks_id_732_enveloped.json").results).toEqual([json("jamendo", "v3_tracks_result_item_example.json")]);
  });
});

describe("jamendo: search", () => {
  it("asks the tracks of the window with the client id and maps a track field by field", async () => {
    const { ctx, replay } = replayContext({ env: ENV });
    const res = await jamendo.search(query(""), ctx);
    expect(replay.requested).toEqual([PAGE]);
    expect(res.searchUrl).toBe("https://www.jamendo.com/search");
    for (const a of res.assets) Asset.parse(a);
    expect(res.assets.map((a) => a.nativeId)).toEqual(["730", "731", "732", "287"]);
    expect(res.assets[3]).toStrictEqual({
      id: "jamendo:287",
      provider: "jamendo",
      nativeId: "287",
      title: "Portées Disparues (Femmes sans visage)",
      description: "From the album Adversité, 3:17 long",
      type: "audio",
      tags: ["pop", "rock", "engage"],
      categories: ["music", "pop", "rock"],
      url: "https://www.jamendo.com/track/287",
      thumbnailUrl: "https://usercontent.jamendo.com/?type=album&id=36&width=200&trackid=287",
      author: "Alchimie",
      license: {
        name: "Creative Commons Attribution-NonCommercial-ShareAlike 2.0",
        url: "https://creativecommons.org/licenses/by-nc-sa/2.0/",
        commercialUse: false,
        attributionRequired: true,
        spdx: "CC-BY-NC-SA-2.0",
      },
      price: { free: true },
      formats: ["mp3"],
      downloadable: true,
      createdAt: "2005-03-24",
      downloads: 9092,
    });
  });

  it("flags the non-commercial licence of every recorded track (by-nc 2.0 and by-nc-sa 2.0)", async () => {
    const { ctx } = replayContext({ env: ENV });
    const res = await jamendo.search(query(""), ctx);
    expect(res.assets.map((a) => [a.license?.spdx, a.license?.commercialUse])).toEqual([
      ["CC-BY-NC-2.0", false],
      ["CC-BY-NC-2.0", false],
      ["CC-BY-NC-2.0", false],
      ["CC-BY-NC-SA-2.0", false],
    ]);
  });

  it("sends the words as `search` and the window as limit and offset", async () => {
    const { ctx, replay } = replayContext({ env: ENV });
    await expect(jamendo.search(query("calm piano", { limit: 10, offset: 30 }), ctx)).rejects.toThrow(/no recorded response/);
    expect(replay.requested).toEqual([`${API}&search=calm+piano&include=musicinfo+stats&imagesize=200&limit=10&audioformat=mp32&offset=30`]);
  });

  it("fails on an error document, with the client id kept out of the message and URL", async () => {
    const { ctx, replay } = replayContext({ env: { JAMENDO_CLIENT_ID: "s3cret-id" } });
    const url = PAGE.replace("REPLAY_KEY", "s3cret-id");
    // Scripted, not recorded: an error document as the Response Codes page describes one (code 5, Invalid Client Id).
    const failed = { headers: { status: "failed", code: 5, error_message: "Invalid Client Id", warnings: "" }, results: [] };
    replay.add({ url, body: JSON.stringify(failed), headers: { "content-type": "application/json" } });
    await expect(jamendo.search(query(""), ctx)).rejects.toMatchObject({
      kind: "refused",
      message: "jamendo: the API answered code 5: Invalid Client Id",
      url: PAGE.replace("REPLAY_KEY", "<key>"),
    });
  });

  it("asks nothing without the key, and nothing for other types", async () => {
    const { ctx, replay } = replayContext();
    await expect(jamendo.search(query("rock"), ctx)).rejects.toMatchObject({
      kind: "config",
      message: expect.stringContaining("JAMENDO_CLIENT_ID is not set"),
    });
    expect((await jamendo.search(query("rock", { types: ["model"] }), replayContext({ env: ENV }).ctx)).assets).toEqual([]);
    expect(replay.requested).toEqual([]);
  });
});

describe("jamendo: details", () => {
  it("looks a track up by id and lists its MP3 download", async () => {
    const { ctx, replay } = replayContext({ env: ENV });
    const details = AssetDetails.parse(await jamendo.getAsset("732", ctx));
    expect(replay.requested).toEqual([TRACK_732]);
    expect(details).toMatchObject({ title: "Thoughtful", author: "Haeresis", description: "From the album Opera I, 2:24 long", tags: [], downloadable: true });
    expect(details.license).toMatchObject({ spdx: "CC-BY-NC-2.0", commercialUse: false, url: "https://creativecommons.org/licenses/by-nc/2.0/" });
    expect(details.files).toEqual([
      { url: "https://mp3d.jamendo.com/download/track/732/mp32/", filename: "haeresis-thoughtful.mp3", format: "mp3", group: "audio" },
    ]);
    expect(await jamendo.getAsset("not-a-track", ctx)).toBeNull();
  });
});

describe("jamendo: census", () => {
  // SYNTHETIC: the census request was never recorded; its answer (test/fixtures/synthetic/jamendo/README.md) is served
  // here, not through the manifest the data pipeline replays.
  const SYNTH = join(FIXTURES, "synthetic", "jamendo");
  const COUNT = `${API}&limit=1&fullcount=true`;
  const NOW = new Date("2026-11-22T00:00:00Z");

  it("asks one page of one track with fullcount and takes results_fullcount as the total", async () => {
    const { ctx, replay } = replayContext({ env: ENV, now: NOW });
    replay.add({ url: COUNT, file: "tracks_fullcount_enveloped.json", note: "SYNTHETIC" }, SYNTH);
    const census = await jamendo.census(ctx);
    expect(replay.requested).toEqual(["https://api.jamendo.com/v3.0/tracks?format=json&client_id=REPLAY_KEY&limit=1&fullcount=true"]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toStrictEqual({
      id: "jamendo",
      name: "Jamendo",
      homepage: "https://www.jamendo.com",
      total: 612345,
      free: 612345,
      byType: { audio: 612345 },
      unit: "assets",
      method:
        "Jamendo API v3.0: `results_fullcount` in the headers of /v3.0/tracks?format=json&client_id=<key>&limit=1&fullcount=true, the tracks the search asks (no `type`: the API's default track type); every track is free under a Creative Commons licence",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
  });

  it("fails without the key, asking nothing, as search does", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await expect(jamendo.census(ctx)).rejects.toMatchObject({ kind: "config", message: expect.stringContaining("JAMENDO_CLIENT_ID is not set") });
    expect(replay.requested).toEqual([]);
  });

  it("fails on an answer without results_fullcount or on an error document, the key in neither message nor URL", async () => {
    const env = { JAMENDO_CLIENT_ID: "s3cret-id" };
    const secret = COUNT.replace("REPLAY_KEY", "s3cret-id");
    const hidden = COUNT.replace("REPLAY_KEY", "<key>");
    const one = replayContext({ env, now: NOW });
    // The recorded track in the documented envelope, which holds no results_fullcount (as an API ignoring fullcount would answer).
    one.replay.add({ url: secret, file: "tracks_id_732_enveloped.json", note: "SYNTHETIC" }, SYNTH);
    const missing = await jamendo.census(one.ctx).catch((err: unknown) => err);
    expect(missing).toMatchObject({ kind: "shape", message: "jamendo: the tracks answer has no results_fullcount", url: hidden });
    const two = replayContext({ env, now: NOW });
    const failed = { headers: { status: "failed", code: 5, error_message: "Invalid Client Id s3cret-id", warnings: "" }, results: [] };
    two.replay.add({ url: secret, body: JSON.stringify(failed), note: "SYNTHETIC" });
    const refused = await jamendo.census(two.ctx).catch((err: unknown) => err);
    expect(refused).toMatchObject({ kind: "refused", url: hidden });
    for (const err of [missing, refused]) expect(JSON.stringify({ ...(err as object), message: (err as Error).message })).not.toContain("s3cret-id");
  });
});
