/** The source kit (sources/kit/): what every adapter relies on. */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { UpstreamError } from "../core/http/types.ts";
import { SourceError, toSourceError } from "../core/model/source-error.ts";
import { assetMaker, compact } from "../sources/kit/asset.ts";
import { addedLast30Days, countBy, highest } from "../sources/kit/census.ts";
import { defineSource } from "../sources/kit/define.ts";
import { unlessAnyGone, unlessGone } from "../sources/kit/fetch.ts";
import { parseList } from "../sources/kit/list.ts";
import { NOW } from "./helpers/app.ts";
import { sourceQuery } from "./helpers/query.ts";
import { replayContext } from "./helpers/replay.ts";

const META = {
  id: "kitdemo",
  name: "Kit Demo",
  homepage: "https://kit.example",
  description: "A source made in this test.",
  assetTypes: ["model" as const],
  access: "api" as const,
  pricing: "free" as const,
  supportsDownload: true,
};
const http = (status: number) => new UpstreamError(`HTTP ${status} from https://kit.example/x`, "https://kit.example/x", "http", status);

describe("the asset builder", () => {
  const asset = assetMaker("kitdemo");

  it("fills id, provider and nativeId and leaves absent fields out", () => {
    const built = asset("chair-1", {
      title: "Chair",
      type: "model",
      url: "https://kit.example/chair-1",
      downloadable: true,
      description: "",
      author: undefined,
      formats: [],
      license: null,
      tags: ["chair"],
    });
    expect(built).toEqual({
      id: "kitdemo:chair-1",
      provider: "kitdemo",
      nativeId: "chair-1",
      title: "Chair",
      type: "model",
      url: "https://kit.example/chair-1",
      downloadable: true,
      tags: ["chair"],
    });
  });

  it("keeps tags a list when there are none (an Asset requires them)", () => {
    expect(asset("a", { title: "A", type: "model", url: "https://kit.example/a", downloadable: false }).tags).toEqual([]);
    expect(asset("a", { title: "A", type: "model", url: "https://kit.example/a", downloadable: false, tags: [] }).tags).toEqual([]);
  });

  it("keeps a thumbnail only when it is an http(s) URL", () => {
    const base = { title: "A", type: "model" as const, url: "https://kit.example/a", downloadable: false };
    expect(asset("a", { ...base, thumbnailUrl: "javascript:alert(1)" })).not.toHaveProperty("thumbnailUrl");
    expect(asset("a", { ...base, thumbnailUrl: "https://kit.example/a.jpg" }).thumbnailUrl).toBe("https://kit.example/a.jpg");
  });

  it("compact keeps false and 0", () => {
    expect(compact({ a: 0, b: false, c: "", d: [], e: null, f: undefined, g: "x" })).toEqual({ a: 0, b: false, g: "x" });
  });
});

describe("list parsing", () => {
  const Item = z.object({ id: z.string() });

  it("keeps the items of the expected shape and counts the others", () => {
    expect(parseList("kitdemo", "https://kit.example/list", Item, [{ id: "a" }, { nope: 1 }, { id: "b" }])).toEqual({
      items: [{ id: "a" }, { id: "b" }],
      dropped: 1,
    });
    expect(parseList("kitdemo", "https://kit.example/list", Item, [])).toEqual({ items: [], dropped: 0 });
  });

  it("throws a shape error naming the source once when no item parses", () => {
    const err = (() => {
      try {
        parseList("kitdemo", "https://kit.example/list", Item, [{ nope: 1 }]);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({ source: "kitdemo", kind: "shape", url: "https://kit.example/list" });
    expect((err as Error).message).toBe("kitdemo: none of the 1 items of https://kit.example/list has the expected shape");
  });
});

describe("details or gone", () => {
  it("answers undefined when any request says 404 or 410, and throws other failures", async () => {
    expect(await unlessGone(Promise.reject(http(410)))).toBeUndefined();
    expect(await unlessAnyGone(Promise.resolve(1), Promise.reject(http(404)))).toBeUndefined();
    expect(await unlessAnyGone(Promise.resolve(1), Promise.resolve("b"))).toEqual([1, "b"]);
    await expect(unlessAnyGone(Promise.resolve(1), Promise.reject(http(500)))).rejects.toMatchObject({ status: 500 });
  });
});

describe("census counting", () => {
  it("counts by one or several keys, finds the highest, and counts the last 30 days up to now", () => {
    expect(countBy([{ c: ["a", "b", "a"] }, { c: ["a"] }, { c: undefined }], (x) => x.c)).toEqual({ a: 2, b: 1 });
    expect(highest([{ n: 1 }, { n: 3 }, { n: 3 }], (x) => x.n)).toEqual({ n: 3 });
    const day = 86_400_000;
    expect(addedLast30Days(NOW, [NOW.getTime() - day, NOW.getTime() - 31 * day, NOW.getTime() + day, undefined, ""])).toBe(1);
  });
});

describe("defineSource", () => {
  const { ctx } = replayContext({ now: NOW });

  it("turns every failure into a SourceError that names the source once", async () => {
    const broken = defineSource(META, {
      mode: "live",
      searchUrl: () => "https://kit.example/search",
      search: async () => {
        throw http(503);
      },
      getAsset: async (_id, io) => {
        await io.get("https://kit.example/unrecorded", z.object({}));
        return null;
      },
    });
    const err = await broken.search(sourceQuery("chair"), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect(err).toMatchObject({
      source: "kitdemo",
      kind: "http",
      status: 503,
      url: "https://kit.example/x",
      message: "kitdemo: HTTP 503 from https://kit.example/x",
    });
    expect(toSourceError("kitdemo", err)).toBe(err);
    const unrecorded = await broken.getAsset("a", ctx).catch((e: unknown) => e);
    expect((unrecorded as Error).message).toMatch(/^kitdemo: (?!kitdemo)/);
  });

  it("gives the census its header", async () => {
    const counted = defineSource(META, {
      mode: "link",
      searchUrl: () => "https://kit.example/search",
      census: async () => ({ total: 3, byType: { model: 3 }, method: "counted in a test" }),
    });
    expect(await counted.census(ctx)).toEqual({
      id: "kitdemo",
      name: "Kit Demo",
      homepage: "https://kit.example",
      total: 3,
      byType: { model: 3 },
      method: "counted in a test",
      countedAt: NOW.toISOString(),
    });
  });

  it("gives each mode only its own functions", () => {
    const link = defineSource(META, { mode: "link", searchUrl: () => "https://kit.example/search" });
    for (const method of ["search", "crawl", "getAsset", "census"]) expect(link).not.toHaveProperty(method);
    expect(link.mode).toBe("link");
  });
});
