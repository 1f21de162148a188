import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { iconify } from "../sources/iconify.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Stand-ins: test/fixtures/iconify/manifest.json. No recording of the Iconify API exists; the files are
// the icon-set repository's collections.json (all 231 sets) and json/pixelarticons.json (20 icons).

const NOW = new Date("2026-11-22T00:00:00Z");
const COLLECTIONS = "https://api.iconify.design/collections";
const PIXEL = "https://cdn.jsdelivr.net/npm/@iconify-json/pixelarticons/icons.json";

const query = sourceQuery;

describe("iconify: metadata", () => {
  it("is an indexed, free API source of UI icon packs", () => {
    expect(iconify).toMatchObject({
      id: "iconify",
      name: "Iconify",
      homepage: "https://icon-sets.iconify.design",
      assetTypes: ["ui"],
      access: "api",
      pricing: "free",
      supportsDownload: true,
      mode: "indexed",
      unit: "packs",
    });
    expect(iconify.key).toBeUndefined();
  });
});

describe("iconify: crawl", () => {
  it("asks /collections once and maps every visible icon set as one pack", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const assets = await iconify.crawl(ctx);
    expect(replay.requested).toEqual([COLLECTIONS]);
    expect(assets).toHaveLength(215); // 231 sets, 16 hidden
    for (const asset of assets) Asset.parse(asset);
    expect(assets.every((a) => a.type === "ui" && a.downloadable)).toBe(true);
    expect(assets.map((a) => a.nativeId).slice(0, 3)).toEqual(["material-symbols", "material-symbols-light", "ic"]);
  });

  it("maps Pixelarticons field by field", async () => {
    const { ctx } = replayContext({ now: NOW });
    const set = (await iconify.crawl(ctx)).find((a) => a.nativeId === "pixelarticons");
    expect(set).toStrictEqual({
      id: "iconify:pixelarticons",
      provider: "iconify",
      nativeId: "pixelarticons",
      title: "Pixelarticons",
      description: "877 monochrome SVG icons on a 24px grid (UI 24px), version 2.2.0. Icon set prefix: pixelarticons.",
      type: "ui",
      tags: ["icons", "pixelarticons", "Precise Shapes", "Has Padding", "home", "arrows-horizontal", "heart", "tab", "hash", "folder"],
      categories: ["UI 24px"],
      url: "https://icon-sets.iconify.design/pixelarticons/",
      thumbnailUrl: "https://api.iconify.design/pixelarticons/home.svg",
      author: "Gerrit Halfmann",
      license: { ...licenseById("MIT"), url: "https://github.com/halfmage/pixelarticons/blob/master/LICENSE" },
      price: { free: true },
      formats: ["svg", "json"],
      downloadable: true,
    });
  });

  it("keeps each set's licence, with SPDX ids our table does not know", async () => {
    const { ctx } = replayContext({ now: NOW });
    const byId = new Map((await iconify.crawl(ctx)).map((a) => [a.nativeId, a]));
    expect(byId.get("game-icons")!.license).toEqual({ ...licenseById("CC-BY-3.0"), url: "https://github.com/game-icons/icons/blob/master/license.txt" });
    expect(byId.get("mdi")!.license!.spdx).toBe("Apache-2.0");
    const isc = [...byId.values()].find((a) => a.license?.spdx === "ISC")!;
    expect(isc.license!.commercialUse).toBeUndefined();
    expect(isc.license!.attributionRequired).toBeUndefined();
  });

  it("rejects a changed answer with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: COLLECTIONS, body: "[]" });
    await expect(iconify.crawl(ctx)).rejects.toThrow(/^iconify: .* answered an unexpected shape \(body: /);
    const other = replayContext({ now: NOW });
    other.replay.add({ url: COLLECTIONS, body: '{"mdi":{"total":3}}' });
    await expect(iconify.crawl(other.ctx)).rejects.toThrow(/^iconify: .* answered an unexpected shape \(mdi\.name: /);
    const third = replayContext({ now: NOW });
    third.replay.add({ url: COLLECTIONS, body: "<html>changed</html>" });
    await expect(iconify.crawl(third.ctx)).rejects.toThrow(/^iconify: .* did not answer JSON/);
  });
});

describe("iconify: getAsset", () => {
  it("lists the set's JSON and one SVG per visible icon", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await iconify.getAsset("pixelarticons", ctx);
    expect(replay.requested).toEqual([COLLECTIONS, PIXEL]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toMatchObject({ id: "iconify:pixelarticons", title: "Pixelarticons", type: "ui", downloadable: true });
    expect(details!.files).toHaveLength(10); // 20 recorded icons, 11 hidden
    expect(details!.files[0]).toStrictEqual({ url: PIXEL, filename: "pixelarticons.json", format: "json", group: "iconify-json" });
    expect(details!.files[1]).toStrictEqual({
      url: "https://api.iconify.design/pixelarticons/a-arrow-down.svg",
      filename: "a-arrow-down.svg",
      format: "svg",
      group: "svg",
    });
    expect(details!.files.map((f) => f.filename)).not.toContain("4g.svg"); // hidden
    expect(details!.files.some((f) => f.requiresAuth)).toBe(false);
  });

  it("answers null for an unknown or hidden set without asking for its JSON, and for a 404", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    expect(await iconify.getAsset("no-such-set", ctx)).toBeNull();
    expect(await iconify.getAsset("../x", ctx)).toBeNull();
    expect(replay.requested).toEqual([COLLECTIONS]);
    replay.add({
      url: "https://cdn.jsdelivr.net/npm/@iconify-json/mdi/icons.json",
      status: 404,
      body: "Couldn't find the requested file",
      note: "scripted 404",
    });
    expect(await iconify.getAsset("mdi", ctx)).toBeNull();
  });

  it("rejects a set JSON of another shape with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: PIXEL, body: '{"prefix":"mdi","icons":{}}' });
    await expect(iconify.getAsset("pixelarticons", ctx)).rejects.toThrow(/^iconify: .* is not the IconifyJSON of 'pixelarticons'/);
  });
});

describe("iconify: census", () => {
  it("counts visible sets as packs, by licence and category", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await iconify.census(ctx);
    expect(replay.requested).toEqual([COLLECTIONS]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "iconify",
      total: 215,
      free: 215,
      byType: { ui: 215 },
      unit: "packs",
      countedAt: "2026-11-22T00:00:00.000Z",
    });
    expect(census.byLicense).toEqual({
      "Apache-2.0": 29,
      "OFL-1.1": 7,
      MIT: 97,
      "CC-BY-4.0": 51,
      ISC: 3,
      "CC-BY-SA-4.0": 6,
      "MPL-2.0": 1,
      "GPL-2.0-only": 1,
      "GPL-2.0-or-later": 2,
      "BSD-3-Clause": 1,
      Unlicense: 1,
      "CC0-1.0": 10,
      "CC-BY-NC-SA-4.0": 1,
      "CC-BY-SA-3.0": 1,
      "CC-BY-3.0": 1,
      "GPL-3.0-only": 1,
      "GPL-3.0-or-later": 2,
    });
    expect(census.categories).toEqual({
      Material: 6,
      "UI 24px": 57,
      "UI 16px / 32px": 18,
      "UI Other / Mixed Grid": 34,
      "UI Multicolor": 12,
      Programming: 10,
      Logos: 16,
      Emoji: 11,
      "Flags / Maps": 12,
      Thematic: 9,
      "Archive / Unmaintained": 30,
    });
    expect(census.highlights).toEqual([
      { label: "Icons in all sets", title: "Every icon of the listed sets", url: "https://icon-sets.iconify.design", value: 308058 },
      { label: "Largest icon set", title: "Fluent UI System Icons", url: "https://icon-sets.iconify.design/fluent/", value: 19603 },
    ]);
  });
});

describe("iconify: searchUrl", () => {
  it("opens the icon search", () => {
    expect(iconify.searchUrl(query("sword"))).toBe("https://icon-sets.iconify.design/?query=sword");
    expect(iconify.searchUrl(query(""))).toBe("https://icon-sets.iconify.design/");
  });
});
