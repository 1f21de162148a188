import { describe, expect, it } from "vitest";
import { licenseById } from "../core/model/license.ts";
import { dedupe, type Listing } from "../core/relevance/dedupe.ts";
import type { Asset } from "../core/schemas/index.ts";
import { fontsource } from "../sources/fontsource.ts";
import { googlefonts } from "../sources/googlefonts.ts";
import { iconify } from "../sources/iconify.ts";
import { kenney } from "../sources/kenney.ts";
import { opengameart } from "../sources/opengameart.ts";
import { replayContext } from "./helpers/replay.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

const asset = syntheticAsset;

const api = (assets: Asset[]): Listing[] => assets.map((a) => ({ asset: a, access: "api" }));

describe("dedupe", () => {
  it("collapses the same title and author across sources: direct download wins, then api", () => {
    const kenney = asset("kenney", "nature-kit", { title: "Nature Kit", author: "Kenney", downloadable: true });
    const itch = asset("itchio", "kenney~nature-kit", { title: "Nature Kit", author: "Kenney" });
    const oga = asset("opengameart", "nature-kit", { title: "Nature Kit!", author: "kenney" });
    const out = dedupe([
      { asset: itch, access: "scrape" },
      { asset: oga, access: "scrape" },
      { asset: kenney, access: "scrape" },
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]!.asset.id).toBe("kenney:nature-kit");
    expect(out[0]!.asset.alsoOn).toEqual([
      { id: "itchio:kenney~nature-kit", provider: "itchio", url: "https://itchio.example/kenney~nature-kit" },
      { id: "opengameart:nature-kit", provider: "opengameart", url: "https://opengameart.example/nature-kit" },
    ]);
    const apiWins = dedupe([
      { asset: asset("s", "x", { title: "Chair", author: "Ann" }), access: "scrape" },
      { asset: asset("p", "x", { title: "Chair", author: "Ann" }), access: "api" },
    ]);
    expect(apiWins[0]!.asset.id).toBe("p:x");
  });

  it("then prefers the listing that states a licence, then the earlier one", () => {
    const cc0 = licenseById("CC0-1.0");
    const out = dedupe(api([asset("a", "x", { title: "Chair", author: "Ann" }), asset("b", "x", { title: "Chair", author: "Ann", license: cc0 })]));
    expect(out.map((l) => l.asset.id)).toEqual(["b:x"]);
    const tie = dedupe(api([asset("a", "x", { title: "Chair", author: "Ann" }), asset("b", "x", { title: "Chair", author: "Ann" })]));
    expect(tie.map((l) => l.asset.id)).toEqual(["a:x"]);
  });

  it("collapses the same thumbnail, and keeps same-titled assets of different authors apart", () => {
    const thumb = "https://cdn.example/t.png";
    expect(dedupe(api([asset("a", "1", { thumbnailUrl: `${thumb}?w=256` }), asset("b", "2", { thumbnailUrl: thumb })]))).toHaveLength(1);
    expect(
      dedupe(api([asset("a", "1", { title: "Tree", author: "Ann" }), asset("b", "2", { title: "Tree", author: "Bob" }), asset("c", "3", { title: "Tree" })])),
    ).toHaveLength(3);
  });

  it("collapses fonts without an author by family name only: not fonts with authors, not other types", () => {
    const font = (provider: string, title: string, extra: Partial<Asset> = {}) => asset(provider, title, { title, type: "font", ...extra });
    expect(dedupe(api([font("a", "Press Start 2P"), font("b", "press-start 2p")]))).toHaveLength(1);
    // Two uploads of a generic name by different people are two fonts.
    expect(dedupe(api([font("a", "Pixel Font", { author: "Ann" }), font("b", "Pixel Font", { author: "Bob" })]))).toHaveLength(2);
    expect(dedupe(api([font("a", "Pixel Font", { author: "Ann" }), font("b", "Pixel Font")]))).toHaveLength(2);
    expect(dedupe(api([font("a", "Noto Emoji"), asset("b", "noto", { title: "Noto Emoji", type: "ui" })]))).toHaveLength(2);
  });
});

describe("dedupe of a republication", () => {
  const original = asset("polyhaven", "rock_3", { title: "Rock 03", author: "Rob Tuytel", url: "https://polyhaven.com/a/rock_3", downloadable: true });
  const copy = asset("gpuopen", "rock", { title: "TH: Rock", author: "AMD", originalUrl: "https://polyhaven.com/a/rock_3/", downloadable: true });

  it("collapses a listing into the original its originalUrl names, the original first whichever comes first", () => {
    for (const order of [
      [copy, original],
      [original, copy],
    ]) {
      const out = dedupe(api(order));
      expect(out.map((l) => l.asset.id)).toEqual(["polyhaven:rock_3"]);
      expect(out[0]!.asset.alsoOn).toEqual([{ id: "gpuopen:rock", provider: "gpuopen", url: copy.url }]);
    }
    // A direct download still comes first: the original's page alone does not win over a copy's files.
    expect(dedupe(api([{ ...original, downloadable: false }, copy])).map((l) => l.asset.id)).toEqual(["gpuopen:rock"]);
  });

  it("keeps apart listings that only share a page no listing names as an original", () => {
    const page = "https://packs.example/forest";
    expect(dedupe(api([asset("a", "1", { title: "Oak", url: page }), asset("b", "2", { title: "Pine", url: page })]))).toHaveLength(2);
  });
});

describe("dedupe on recorded listings", () => {
  it("collapses Kenney's Nature Kit as listed by Kenney and by OpenGameArt", async () => {
    const { ctx } = replayContext();
    const fromKenney = (await kenney.crawl(ctx)).find((a) => a.id === "kenney:nature-kit")!;
    const { files: _files, shareUrl: _share, ...fromOga } = (await opengameart.getAsset!("nature-kit", ctx))!;
    const out = dedupe([
      { asset: fromOga, access: "scrape" },
      { asset: fromKenney, access: "scrape" },
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]!.asset.id).toBe("opengameart:nature-kit");
    expect(out[0]!.asset.alsoOn).toEqual([{ id: "kenney:nature-kit", provider: "kenney", url: "https://kenney.nl/assets/nature-kit" }]);
  });

  // Neither font API names a designer (no author on either record), so title + author never met.
  it("collapses a family on Fontsource and Google Fonts into the Fontsource listing, which states the licence", async () => {
    const { ctx } = replayContext({ env: { GOOGLE_FONTS_API_KEY: "REPLAY_KEY" } });
    const fs = (await fontsource.crawl(ctx)).find((a) => a.id === "fontsource:abel")!;
    const gf = (await googlefonts.crawl(ctx)).find((a) => a.id === "googlefonts:abel")!;
    expect([fs.author, gf.author]).toEqual([undefined, undefined]);
    for (const order of [
      [fs, gf],
      [gf, fs],
    ]) {
      const out = dedupe(api(order));
      expect(out).toHaveLength(1);
      expect(out[0]!.asset).toStrictEqual({
        ...fs,
        alsoOn: [{ id: "googlefonts:abel", provider: "googlefonts", url: "https://fonts.google.com/specimen/Abel" }],
      });
    }
  });

  it("over the indexed fonts and icon sets: 742 families on both font sources, nothing else", async () => {
    const { ctx } = replayContext({ env: { GOOGLE_FONTS_API_KEY: "REPLAY_KEY" } });
    const fonts = [...(await fontsource.crawl(ctx)), ...(await googlefonts.crawl(ctx))];
    const sets = await iconify.crawl(ctx);
    expect([fonts.length, sets.length]).toEqual([1073 + 1432, 215]);
    const out = dedupe(api([...fonts, ...sets]));
    const merged = out.filter((l) => l.asset.alsoOn);
    expect(out).toHaveLength(1073 + 1432 + 215 - 742);
    expect(merged).toHaveLength(742);
    expect(merged.every((l) => l.asset.provider === "fontsource" && l.asset.alsoOn!.map((a) => a.provider).join() === "googlefonts")).toBe(true);
    // The same names as an icon set (Iconify's "Noto Emoji", "Material Symbols") are SVG sets, not font families.
    expect(
      out
        .filter((l) => ["Noto Emoji", "Material Symbols"].includes(l.asset.title))
        .map((l) => l.asset.id)
        .sort(),
    ).toEqual(["fontsource:material-symbols", "fontsource:noto-emoji", "iconify:material-symbols", "iconify:noto"]);
  });
});
