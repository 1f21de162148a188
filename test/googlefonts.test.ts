import { describe, expect, it } from "vitest";
import { toProvider } from "../core/model/source.ts";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { googlefonts, slugOf } from "../sources/googlefonts.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recording: test/fixtures/googlefonts/manifest.json, the real full list of July 2022 (1,432 families).
// The key in the URL is the placeholder REPLAY_KEY, set through the environment below.

const NOW = new Date("2026-11-22T00:00:00Z");
const ENV = { GOOGLE_FONTS_API_KEY: "REPLAY_KEY" };
const LIST = "https://www.googleapis.com/webfonts/v1/webfonts?key=REPLAY_KEY";

const query = sourceQuery;

describe("googlefonts: metadata", () => {
  it("is an indexed font source that needs GOOGLE_FONTS_API_KEY and claims no site-wide licence", () => {
    expect(googlefonts).toMatchObject({
      id: "googlefonts",
      name: "Google Fonts",
      homepage: "https://fonts.google.com",
      assetTypes: ["font"],
      access: "api",
      pricing: "free",
      supportsDownload: true,
      mode: "indexed",
      key: { env: "GOOGLE_FONTS_API_KEY", required: true },
    });
    expect(googlefonts.license).toBeUndefined();
    expect(toProvider(googlefonts, {}).enabled).toBe(false);
    expect(toProvider(googlefonts, ENV).enabled).toBe(true);
  });
});

describe("googlefonts: crawl", () => {
  it("asks the list once, with the key, and maps every family", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const assets = await googlefonts.crawl(ctx);
    expect(replay.requested).toEqual([LIST]);
    expect(assets).toHaveLength(1432);
    expect(new Set(assets.map((a) => a.id)).size).toBe(1432);
    for (const asset of assets) Asset.parse(asset);
    expect(assets.every((a) => a.license === undefined)).toBe(true);
  });

  it("maps Press Start 2P field by field", async () => {
    const { ctx } = replayContext({ now: NOW, env: ENV });
    const font = (await googlefonts.crawl(ctx)).find((a) => a.title === "Press Start 2P");
    expect(font).toStrictEqual({
      id: "googlefonts:press-start-2p",
      provider: "googlefonts",
      nativeId: "press-start-2p",
      title: "Press Start 2P",
      description:
        "Press Start 2P: display font, 1 style (regular); subsets cyrillic, cyrillic-ext, greek, latin, latin-ext. Licence: see the family page (Google Fonts families are OFL-1.1, Apache-2.0 or UFL-1.0).",
      type: "font",
      tags: ["display", "cyrillic", "cyrillic-ext", "greek", "latin", "latin-ext"],
      categories: ["display"],
      url: "https://fonts.google.com/specimen/Press+Start+2P",
      price: { free: true },
      formats: ["ttf"],
      downloadable: true,
    });
  });

  it("adds style words by rule: handwritten for the handwriting category, monospace by category or name", async () => {
    const { ctx } = replayContext({ now: NOW, env: ENV });
    const assets = await googlefonts.crawl(ctx);
    const tagsOf = (id: string) => assets.find((a) => a.nativeId === id)!.tags;
    expect(tagsOf("dancing-script")).toEqual(["handwriting", "handwritten", "latin", "latin-ext", "vietnamese"]);
    expect(tagsOf("rubik-mono-one")).toEqual(["sans-serif", "monospace", "cyrillic", "latin", "latin-ext"]);
    expect(tagsOf("monoton")).toEqual(["display", "latin"]); // "Mono" only inside a word
    const count = (tag: string) => assets.filter((a) => a.tags.includes(tag)).length;
    // 221 in category handwriting; 29 in monospace plus Rubik Mono One; no 2022 family has Pixel in its name.
    expect([count("handwritten"), count("monospace"), count("pixel")]).toEqual([221, 30, 0]);
  });

  it("refuses to run without the key, before any request", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    await expect(googlefonts.crawl(ctx)).rejects.toThrow(/^googlefonts: GOOGLE_FONTS_API_KEY is not set/);
    expect(replay.requested).toEqual([]);
  });

  it("rejects a changed answer with a message naming the source, and never shows the key", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    replay.add({ url: LIST, body: '{"error":{"code":400}}' });
    const err = await googlefonts.crawl(ctx).catch((e: unknown) => e);
    expect(String((err as Error).message)).toMatch(/^googlefonts: \S+\?key=<key> answered an unexpected shape \(items: /);
    expect(JSON.stringify({ m: (err as Error).message, u: (err as SourceError).url })).not.toContain("REPLAY_KEY");

    const other = replayContext({ now: NOW, env: ENV });
    other.replay.add({ url: LIST, status: 403, body: '{"error":{"code":403,"message":"API key not valid"}}', note: "scripted 403" });
    const denied = await googlefonts.crawl(other.ctx).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(SourceError);
    expect(denied).toMatchObject({ source: "googlefonts", kind: "http", status: 403 });
    expect((denied as SourceError).message).toContain("key=<key>");
    expect(`${(denied as SourceError).message} ${(denied as SourceError).url}`).not.toContain("REPLAY_KEY");

    const third = replayContext({ now: NOW, env: ENV });
    third.replay.add({ url: LIST, body: "<html>changed</html>" });
    await expect(googlefonts.crawl(third.ctx)).rejects.toThrow(SourceError);
  });
});

describe("googlefonts: getAsset", () => {
  it("finds the family in the (cached) list and lists one TTF per style, regular first", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const details = await googlefonts.getAsset("roboto", ctx);
    const again = await googlefonts.getAsset("press-start-2p", ctx);
    expect(replay.requested).toEqual([LIST]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ id: "googlefonts:roboto", title: "Roboto", url: "https://fonts.google.com/specimen/Roboto", downloadable: true });
    expect(details!.files).toHaveLength(12);
    expect(details!.files[0]).toStrictEqual({
      url: "https://fonts.gstatic.com/s/roboto/v30/KFOmCnqEu92Fr1Me5WZLCzYlKw.ttf",
      filename: "roboto-regular.ttf",
      format: "ttf",
      group: "font",
    });
    expect(details!.files.map((f) => f.filename.replace(/^roboto-|\.ttf$/g, ""))).toEqual([
      "regular",
      "italic",
      "300",
      "500",
      "300italic",
      "500italic",
      "100",
      "700",
      "100italic",
      "700italic",
      "900",
      "900italic",
    ]);
    expect(details!.files.every((f) => f.url.startsWith("https://fonts.gstatic.com/s/roboto/v30/") && !f.requiresAuth)).toBe(true);
    expect(again!.files).toStrictEqual([
      {
        url: "https://fonts.gstatic.com/s/pressstart2p/v14/e3t4euO8T-267oIAQAu6jDQyK0nSgPJE4580.ttf",
        filename: "press-start-2p-regular.ttf",
        format: "ttf",
        group: "font",
      },
    ]);
  });

  it("answers null for a family that is not in the list", async () => {
    const { ctx } = replayContext({ now: NOW, env: ENV });
    expect(await googlefonts.getAsset("no-such-family", ctx)).toBeNull();
  });

  it("slugs family names", () => {
    expect(slugOf("Edu NSW ACT Foundation")).toBe("edu-nsw-act-foundation");
    expect(slugOf("M PLUS 1p")).toBe("m-plus-1p");
  });
});

describe("googlefonts: census", () => {
  it("counts every family by category", async () => {
    const { ctx, replay } = replayContext({ now: NOW, env: ENV });
    const census = await googlefonts.census(ctx);
    expect(replay.requested).toEqual([LIST]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "googlefonts",
      total: 1432,
      free: 1432,
      byType: { font: 1432 },
      categories: { "sans-serif": 530, serif: 283, display: 369, handwriting: 221, monospace: 29 },
      unit: "assets",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
    expect(census.byLicense).toBeUndefined();
    expect(census.highlights).toEqual([
      { label: "Most recently updated family", title: "Albert Sans", url: "https://fonts.google.com/specimen/Albert+Sans" },
      { label: "Most styles", title: "Albert Sans", url: "https://fonts.google.com/specimen/Albert+Sans", value: 18 },
      { label: "Font files (one per style)", title: "TTF files listed by the API", url: "https://fonts.google.com", value: 5116 },
    ]);
  });
});

describe("googlefonts: searchUrl", () => {
  it("opens fonts.google.com with the query", () => {
    expect(googlefonts.searchUrl(query("pixel"))).toBe("https://fonts.google.com/?query=pixel");
    expect(googlefonts.searchUrl(query(""))).toBe("https://fonts.google.com");
  });
});
