import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import type { SourceQuery } from "../core/model/source.ts";
import { SourceError } from "../core/model/source-error.ts";
import { Asset, AssetDetails, SourceCensus } from "../core/schemas/index.ts";
import { quaternius } from "../sources/quaternius.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

// Recorded responses: test/fixtures/quaternius/manifest.json (real pages; the home page is an
// upstream excerpt of 8 cards, the first of which is the Patreon card, not a pack).

const NOW = new Date("2026-11-22T00:00:00Z");
const HOME = "https://quaternius.com/";
const SLUGS = ["bestiarydungeonmonsterskit", "downtowncitymegakit", "stylizedtree", "ultimatenature", "cars", "animatedzombie", "animatedwoman"];

const query = (q: string, types: SourceQuery["types"] = []) => sourceQuery(q, { types });

describe("quaternius: metadata", () => {
  it("is an indexed, free scrape source of model packs without direct downloads", () => {
    expect(quaternius).toMatchObject({
      id: "quaternius",
      name: "Quaternius",
      homepage: HOME,
      mode: "indexed",
      access: "scrape",
      pricing: "free",
      supportsDownload: false,
      unit: "packs",
    });
    // No site-wide licence: most packs are CC0, some are under the artist's own QAL.
    expect(quaternius.license).toBeUndefined();
    expect([...quaternius.assetTypes].sort()).toEqual(["model", "pack"]);
  });
});

describe("quaternius: crawl", () => {
  it("reads the home page once, keeps only the pack cards, then reads every pack page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const assets = await quaternius.crawl(ctx);

    expect(replay.requested[0]).toBe(HOME);
    expect(replay.requested.slice(1).sort()).toEqual(SLUGS.map((s) => `https://quaternius.com/packs/${s}.html`).sort());
    expect(assets.map((a) => a.nativeId)).toEqual(SLUGS);
    for (const asset of assets) expect(Asset.parse(asset)).toStrictEqual(asset);
  });

  it("maps a card field by field, with its pack page's description, licence, formats, Animated row and month", async () => {
    const { ctx } = replayContext({ now: NOW });
    const assets = await quaternius.crawl(ctx);
    expect(assets.find((a) => a.nativeId === "ultimatenature")).toStrictEqual({
      id: "quaternius:ultimatenature",
      provider: "quaternius",
      nativeId: "ultimatenature",
      title: "Ultimate Nature Pack",
      description: "The ultimate nature pack, 150 models with everything you need! in FBX, OBJ and Blend formats.",
      type: "model",
      tags: ["Nature", "Trees", "Ultimate", "low poly"],
      url: "https://quaternius.com/packs/ultimatenature.html",
      thumbnailUrl: "https://quaternius.com/assets/images/thumbnails/ultimatenature.jpg",
      author: "Quaternius",
      license: licenseById("CC0-1.0"),
      price: { free: true },
      formats: ["fbx", "obj", "blend"],
      animated: false,
      downloadable: false,
      createdAt: "2019-06",
    });
    expect(assets.find((a) => a.nativeId === "bestiarydungeonmonsterskit")).toMatchObject({
      license: { name: "QAL", url: "https://quaternius.com/license.html" },
      rigged: true,
      animated: false, // the page's Animated row: an x-mark
      tags: ["Rigged", "Retargetable", "low poly"],
    });
  });

  it("keeps the card alone where the pack page is not read (only two are recorded)", async () => {
    const { ctx } = replayContext({ now: NOW });
    const assets = await quaternius.crawl(ctx);
    expect(assets.find((a) => a.nativeId === "animatedzombie")).toStrictEqual({
      id: "quaternius:animatedzombie",
      provider: "quaternius",
      nativeId: "animatedzombie",
      title: "Animated Zombie Pack",
      type: "model",
      tags: ["Zombie", "Animated", "Characters", "low poly"],
      url: "https://quaternius.com/packs/animatedzombie.html",
      thumbnailUrl: "https://quaternius.com/assets/images/thumbnails/zombie.jpg",
      author: "Quaternius",
      price: { free: true },
      animated: true, // the card's public tag
      downloadable: false,
    });
    expect(assets.every((a) => a.tags.includes("low poly"))).toBe(true);
  });

  it("fails when no pack page can be read, naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    for (const slug of ["ultimatenature", "bestiarydungeonmonsterskit"]) {
      replay.add({ url: `https://quaternius.com/packs/${slug}.html`, body: "<html>changed</html>" });
    }
    await expect(quaternius.crawl(ctx)).rejects.toThrow(/^quaternius: no item page could be read/);
  });

  it("rejects a changed home page with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: HOME, body: "<html>changed</html>" });
    await expect(quaternius.crawl(ctx)).rejects.toThrow(/^quaternius: /);
  });
});

describe("quaternius: getAsset", () => {
  it("reads a CC0 pack: formats, flags, release month and a Google Drive link that needs a browser", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const details = await quaternius.getAsset("ultimatenature", ctx);

    expect(replay.requested).toEqual(["https://quaternius.com/packs/ultimatenature.html"]);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details).toStrictEqual({
      id: "quaternius:ultimatenature",
      provider: "quaternius",
      nativeId: "ultimatenature",
      title: "Ultimate Nature Pack",
      description: "The ultimate nature pack, 150 models with everything you need! in FBX, OBJ and Blend formats.",
      type: "model",
      tags: ["low poly"],
      url: "https://quaternius.com/packs/ultimatenature.html",
      thumbnailUrl: "https://quaternius.com/assets/images/fullres/ultimatenature.jpg",
      author: "Quaternius",
      license: licenseById("CC0-1.0"),
      price: { free: true },
      formats: ["fbx", "obj", "blend"],
      animated: false,
      downloadable: false,
      createdAt: "2019-06",
      files: [
        {
          url: "https://drive.google.com/drive/folders/1-Kl0L_Jg8awbh0S5T-z3zxh4mVlnxTpa?usp=sharing",
          filename: "ultimatenature-google-drive",
          format: "page",
          group: "archive",
          requiresAuth: true,
        },
      ],
    });
  });

  it("keeps an unknown licence (QAL) by its name, with no flags, and links the itch.io page", async () => {
    const { ctx } = replayContext({ now: NOW });
    const details = await quaternius.getAsset("bestiarydungeonmonsterskit", ctx);
    expect(AssetDetails.parse(details)).toStrictEqual(details);
    expect(details!.license).toStrictEqual({ name: "QAL", url: "https://quaternius.com/license.html" });
    expect(details).toMatchObject({
      title: "Bestiary - Dungeon Monsters Kit",
      description:
        "The Bestiary - Dungeon Monsters Kit includes 7 different game-ready enemy models with weapons, each with 3 different color variations, rigged with a Humanoid rig allowing easy retargeting in any engine and with optimized low poly topology.",
      formats: ["fbx", "obj", "blend", "gltf"],
      createdAt: "2026-08",
      downloadable: false,
    });
    expect(details!.files).toStrictEqual([
      {
        url: "https://quaternius.itch.io/bestiary-dungeon-monsters-kit",
        filename: "bestiarydungeonmonsterskit-itch-io",
        format: "page",
        group: "archive",
        requiresAuth: true,
      },
    ]);
  });

  it("answers null for an unknown pack (404) and for a slug that is no slug, without asking", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: "https://quaternius.com/packs/nosuchpack.html", status: 404, body: "<html>404</html>" });
    expect(await quaternius.getAsset("nosuchpack", ctx)).toBeNull();
    expect(await quaternius.getAsset("../secret", ctx)).toBeNull();
    expect(replay.requested).toEqual(["https://quaternius.com/packs/nosuchpack.html"]);
  });

  it("rejects a changed pack page with a message naming the source", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: "https://quaternius.com/packs/ultimatenature.html", body: "<html>changed</html>" });
    await expect(quaternius.getAsset("ultimatenature", ctx)).rejects.toThrow(/^quaternius: /);
  });

  it("lets other upstream failures propagate", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    replay.add({ url: "https://quaternius.com/packs/ultimatenature.html", status: 503, body: "busy" });
    const err = await quaternius.getAsset("ultimatenature", ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ source: "quaternius", kind: "http", status: 503 });
  });
});

describe("quaternius: census", () => {
  it("counts the pack cards of the home page", async () => {
    const { ctx, replay } = replayContext({ now: NOW });
    const census = await quaternius.census(ctx);

    expect(replay.requested).toEqual([HOME]);
    expect(SourceCensus.parse(census)).toStrictEqual(census);
    expect(census).toMatchObject({
      id: "quaternius",
      name: "Quaternius",
      homepage: HOME,
      total: 7,
      free: 7,
      byType: { model: 7 },
      unit: "packs",
      highlights: [{ label: "New pack", title: "Bestiary - Dungeon Monsters Kit", url: "https://quaternius.com/packs/bestiarydungeonmonsterskit.html" }],
      countedAt: "2026-11-22T00:00:00.000Z",
    });
    expect(census.byLicense).toBeUndefined();
    expect(census.categories).toMatchObject({ Trees: 2, Animated: 2, Characters: 2, Nature: 1 });
    expect(Object.keys(census.categories!)).toHaveLength(16);
    expect(census.method).toMatch(/home page/);
  });
});

describe("quaternius: searchUrl", () => {
  it("is the home page, which filters in the browser", () => {
    expect(quaternius.searchUrl(query("tree"))).toBe(HOME);
    expect(quaternius.searchUrl(query("", ["model"]))).toBe(HOME);
  });
});
