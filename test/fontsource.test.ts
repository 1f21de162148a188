import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import type { SourceQuery } from "../core/model/source.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { fontsource } from "../sources/fontsource.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recordings: test/fixtures/fontsource/manifest.json. The catalogue is the real /v1/fonts list,
// trimmed to 1,073 fonts; /v1/fonts/abel is the legacy form shown on Fontsource's API docs page.

const NOW = new Date("2026-11-22T00:00:00Z");
const CATALOGUE = "https://api.fontsource.org/v1/fonts";
const ABEL = "https://api.fontsource.org/v1/fonts/abel";

const query = (q: string, types: SourceQuery["types"] = []) => sourceQuery(q, { types });

describe("fontsource: metadata", () => {
  it("is an indexed, free API source of fonts with direct files", () => {
    expect(fontsource).toMatchObject({
      id: "fontsource",
      name: "Fontsource",
      homepage: "https://fontsource.org",
      assetTypes: ["font"],
      access: "api",
      pricing: "free",
      supportsDownload: true,
      mode: "indexed",
      unit: "assets",
    });
    expect(fontsource.key).toBeUndefined();
    expect(fontsource).not.toHaveProperty("search");
  });
});

describe("fontsource: crawl", () => {
  it("asks the catalogue once and maps every font", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const assets = await fontsource.crawl(ctx);
    expect(replay.requested).toEqual([CATALOGUE]);
    expect(assets).toHaveLength(1073);
    expect(new Set(assets.map((a) => a.id)).size).toBe(1073);
    for (const asset of assets) Asset.parse(asset);
    expect(assets.every((a) => a.type === "font" && a.downloadable && a.price?.free)).toBe(true);
  });

  it("maps Press Start 2P field by field", async () => {
    const { ctx } = replayContext({ now: NOW });
    const font = (await fontsource.crawl(ctx)).find((a) => a.nativeId === "press-start-2p");
    expect(font).toStrictEqual({
      id: "fontsource:press-start-2p",
      provider: "fontsource",
      nativeId: "press-start-2p",
      title: "Press Start 2P",
      description: "Press Start 2P: display font, weights 400, normal; subsets cyrillic, cyrillic-ext, greek, latin, latin-ext.",
      type: "font",
      tags: ["display", "google-fonts", "cyrillic", "cyrillic-ext", "greek", "latin", "latin-ext"],
      categories: ["display"],
      url: "https://fontsource.org/fonts/press-start-2p",
      license: licenseById("OFL-1.1"),
      price: { free: true },
      formats: ["woff2", "woff", "ttf"],
      downloadable: true,
    });
    expect(Asset.parse(font)).toStrictEqual(font);
  });

  it("adds style words by rule: handwritten for the handwriting category, monospace by category or name, pixel by name", async () => {
    const { ctx } = replayContext({ now: NOW });
    const assets = await fontsource.crawl(ctx);
    const tagsOf = (id: string) => assets.find((a) => a.nativeId === id)!.tags;
    expect(tagsOf("dancing-script")).toEqual(["handwriting", "handwritten", "google-fonts", "latin", "latin-ext", "vietnamese", "variable"]);
    expect(tagsOf("jetbrains-mono").slice(0, 2)).toEqual(["monospace", "google-fonts"]);
    expect(tagsOf("atkinson-hyperlegible-mono").slice(0, 3)).toEqual(["sans-serif", "monospace", "google-fonts"]);
    expect(tagsOf("fusion-pixel-10px-monospaced-jp").slice(0, 3)).toEqual(["sans-serif", "monospace", "pixel"]);
    expect(tagsOf("pixelify-sans").slice(0, 3)).toEqual(["display", "pixel", "google-fonts"]);
    expect(tagsOf("press-start-2p")).not.toContain("pixel"); // a pixel font, but neither its category nor its name says so
    const count = (tag: string) => assets.filter((a) => a.tags.includes(tag)).length;
    // 172 in category handwriting; 63 in monospace plus 13 monospaced by name; 24 Fusion Pixel, Pixelify Sans, Rubik Pixels.
    expect([count("handwritten"), count("monospace"), count("pixel")]).toEqual([172, 76, 26]);
  });

  it("normalises the per-font licences to SPDX ids, keeping unknown ones without flags", async () => {
    const { ctx } = replayContext({ now: NOW });
    const byId = new Map((await fontsource.crawl(ctx)).map((a) => [a.nativeId, a]));
    expect(byId.get("aileron")!.license).toEqual(licenseById("CC0-1.0"));
    expect(byId.get("clear-sans")!.license).toEqual(licenseById("Apache-2.0"));
    expect(byId.get("comic-mono")!.license).toEqual(licenseById("MIT")); // the API writes "mit"
    expect(byId.get("metropolis")!.license).toStrictEqual({ name: "Unlicense", spdx: "Unlicense" });
    expect(byId.get("roboto")!.tags).toContain("variable");
    expect(byId.get("aileron")!.tags).not.toContain("google-fonts");
  });

  it("rejects a changed catalogue with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: CATALOGUE, body: "<html>changed</html>" });
    await expect(fontsource.crawl(ctx)).rejects.toThrow(/^fontsource: .* did not answer JSON/);
    const other = replayContext({ now: NOW });
    other.replay.add({ url: CATALOGUE, body: '{"fonts":[]}' });
    await expect(fontsource.crawl(other.ctx)).rejects.toThrow(/^fontsource: .* answered an unexpected shape \(body: /);
    const third = replayContext({ now: NOW });
    third.replay.add({ url: CATALOGUE, body: '[{"id":"x"}]' });
    await expect(fontsource.crawl(third.ctx)).rejects.toThrow(/^fontsource: .* answered an unexpected shape \(0\.family: /);
  });
});

describe("fontsource: getAsset", () => {
  it("lists one file per variant and format from the recorded detail", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await fontsource.getAsset("abel", ctx);
    expect(replay.requested).toEqual([ABEL]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({
      id: "fontsource:abel",
      title: "Abel",
      type: "font",
      url: "https://fontsource.org/fonts/abel",
      downloadable: true,
      formats: ["woff2", "woff"],
    });
    // The legacy detail carries no licence (the current API adds one).
    expect(details!.license).toBeUndefined();
    expect(details!.files).toStrictEqual([
      {
        url: "https://cdn.jsdelivr.net/npm/@fontsource/abel/files/abel-latin-400-normal.woff2",
        filename: "abel-latin-400-normal.woff2",
        format: "woff2",
        group: "font",
      },
      {
        url: "https://cdn.jsdelivr.net/npm/@fontsource/abel/files/abel-latin-400-normal.woff",
        filename: "abel-latin-400-normal.woff",
        format: "woff",
        group: "font",
      },
    ]);
    expect(details!.files.some((f) => f.requiresAuth)).toBe(false);
  });

  it("puts the default face first and reads the licence of the current form", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    // Scripted (not recorded): the current form's shape, reduced to two weights × two styles × two subsets.
    const url = (s: string, w: number, st: string, e: string) => `https://cdn.jsdelivr.net/fontsource/fonts/demo@latest/${s}-${w}-${st}.${e}`;
    const face = (s: string, w: number, st: string) => ({ url: { woff2: url(s, w, st, "woff2"), woff: url(s, w, st, "woff"), ttf: url(s, w, st, "ttf") } });
    const variants: Record<string, Record<string, Record<string, unknown>>> = {};
    for (const w of [700, 400]) {
      variants[w] = {};
      for (const st of ["italic", "normal"]) variants[w]![st] = { "latin-ext": face("latin-ext", w, st), latin: face("latin", w, st) };
    }
    replay.add({
      url: "https://api.fontsource.org/v1/fonts/demo",
      body: JSON.stringify({
        id: "demo",
        family: "Demo",
        subsets: ["latin-ext", "latin"],
        weights: [400, 700],
        styles: ["italic", "normal"],
        defSubset: "latin",
        category: "serif",
        type: "other",
        license: { id: "OFL-1.1", url: "https://example.org/OFL.txt" },
        variants,
      }),
      note: "scripted: shape of the current /v1/fonts/<id> answer",
    });
    const details = await fontsource.getAsset("demo", ctx);
    expect(details!.files).toHaveLength(24);
    expect(details!.files.slice(0, 3).map((f) => f.filename)).toEqual([
      "demo-latin-400-normal.woff2",
      "demo-latin-400-normal.woff",
      "demo-latin-400-normal.ttf",
    ]);
    expect(details!.files[0]!.url).toBe(url("latin", 400, "normal", "woff2"));
    expect(details!.files.at(-1)!.filename).toBe("demo-latin-ext-700-italic.ttf");
    expect(details!.formats).toEqual(["woff2", "woff", "ttf"]);
    expect(details!.license).toEqual({ ...licenseById("OFL-1.1"), url: "https://example.org/OFL.txt" });
  });

  it("answers null for an unknown font (404) and for ids that cannot be font ids", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: "https://api.fontsource.org/v1/fonts/no-such-font", status: 404, body: '{"error":"Not Found"}', note: "scripted 404" });
    expect(await fontsource.getAsset("no-such-font", ctx)).toBeNull();
    expect(await fontsource.getAsset("../etc", ctx)).toBeNull();
    expect(replay.requested).toEqual(["https://api.fontsource.org/v1/fonts/no-such-font"]);
  });

  it("rejects a changed detail with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: ABEL, body: '{"id":"abel","family":"Abel"}' });
    await expect(fontsource.getAsset("abel", ctx)).rejects.toThrow(/^fontsource: .*abel answered an unexpected shape \(variants: /);
  });
});

describe("fontsource: census", () => {
  it("counts the catalogue by licence and category in one request", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await fontsource.census(ctx);
    expect(replay.requested).toEqual([CATALOGUE]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "fontsource",
      total: 1073,
      free: 1073,
      byType: { font: 1073 },
      byLicense: { "OFL-1.1": 1069, "CC0-1.0": 1, "Apache-2.0": 1, MIT: 1, Unlicense: 1 },
      categories: { "sans-serif": 395, display: 237, serif: 181, handwriting: 172, monospace: 63, other: 17, icons: 8 },
      unit: "assets",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
    expect(census.addedLast30Days).toBeUndefined();
    expect(census.highlights).toEqual([
      { label: "Most recently updated font", title: "Amita", url: "https://fontsource.org/fonts/amita" },
      { label: "Most weights and styles", title: "Advent Pro", url: "https://fontsource.org/fonts/advent-pro", value: 18 },
      { label: "Variable fonts", title: "Fonts with a variable version", url: "https://fontsource.org", value: 285 },
      { label: "Google Fonts families", title: "Families also on Google Fonts", url: "https://fontsource.org", value: 956 },
    ]);
    expect(census.method).toMatch(/\/v1\/fonts/);
  });
});

describe("fontsource: searchUrl", () => {
  it("opens the site's directory with the query", () => {
    expect(fontsource.searchUrl(query("pixel font"))).toBe("https://fontsource.org/?query=pixel%20font");
    expect(fontsource.searchUrl(query("  "))).toBe("https://fontsource.org");
  });
});
