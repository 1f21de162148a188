/**
 * GET /v1/assets/{id}/thumbnail (server/routes/thumbnail.ts, server/service/thumbnails.ts): where
 * the thumbnail URL comes from (the index, a recent search, the details), the resize and its
 * caching headers, the placeholder for every failure, the address guard, and its own rate-limit
 * bucket. The images are the SYNTHETIC ones of test/fixtures/synthetic/thumbnails/.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { createHttpClient } from "../core/http/client.ts";
import type { LiveSource } from "../core/model/source.ts";
import { ErrorBody, type SearchResponse } from "../core/schemas/index.ts";
import { PLACEHOLDER_CACHE, THUMBNAIL_CACHE } from "../server/routes/thumbnail.ts";
import { createUsage } from "../server/stats/usage.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { testApp } from "./helpers/app.ts";
import { readEvents } from "./helpers/event-stream.ts";
import { fakeSearchUrl, fakeSource } from "./helpers/fake-source.ts";
import { oneAssetApp, syntheticDetails } from "./helpers/one-asset.ts";
import { FIXTURES } from "./helpers/replay.ts";

const SYNTHETIC = join(FIXTURES, "synthetic", "thumbnails");
/** Poly Haven's thumbnail of ArmChair_01, as its recorded /info and /assets give it; answered by a synthetic 256×256 WebP. */
const ARMCHAIR_THUMB = "https://cdn.polyhaven.com/asset_img/thumbs/ArmChair_01.png?width=256&height=256&format=webp&v=abbc4732";
/** A made-up URL answered by a synthetic 400×300 JPEG. */
const WIDE = "https://thumbs.example/wide-400x300.jpg";
const THUMBNAIL = "/v1/assets/polyhaven:ArmChair_01/thumbnail";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

async function image(res: Response) {
  const body = Buffer.from(await res.arrayBuffer());
  const { format, width, height } = await sharp(body).metadata();
  return { body, format, width, height };
}

/** Asserts a placeholder answer: 200, WebP, a `w`×`w` tile, the header saying so and the short cache. */
async function expectPlaceholder(res: Response, w = 320) {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("image/webp");
  expect(res.headers.get("x-thumbnail")).toBe("placeholder");
  expect(res.headers.get("cache-control")).toBe(PLACEHOLDER_CACHE);
  expect(await image(res)).toMatchObject({ format: "webp", width: w, height: w });
}

/** A live source listing `slug` with the wide synthetic thumbnail; it has no details, so only a search can tell the URL. */
function listingWithThumbnail(id: string): LiveSource {
  const base = fakeSource(id);
  return {
    ...base,
    search: async (q, ctx) => {
      const answer = await base.search(q, ctx);
      return { ...answer, assets: answer.assets.map((a) => ({ ...a, thumbnailUrl: WIDE })) };
    },
  };
}

describe("GET /v1/assets/{id}/thumbnail", () => {
  it("resizes the index record's thumbnail to WebP with a strong ETag and a long cache, answers 304 on If-None-Match, and fetches it once", async () => {
    const { get, replay, usage } = await testApp();
    const res = await get(`${THUMBNAIL}?w=160`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/webp");
    expect(res.headers.get("cache-control")).toBe(THUMBNAIL_CACHE);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-thumbnail")).toBeNull();
    const { body, format, width, height } = await image(res);
    expect({ format, width, height }).toEqual({ format: "webp", width: 160, height: 160 });
    const etag = res.headers.get("etag");
    expect(etag).toBe(`"${createHash("sha256").update(body).digest("hex")}"`);

    const again = await get(`${THUMBNAIL}?w=160`, { headers: { "if-none-match": etag! } });
    expect(again.status).toBe(304);
    expect((await again.arrayBuffer()).byteLength).toBe(0);
    expect(again.headers.get("etag")).toBe(etag);
    // The index had the URL: no details were asked for, and the image was fetched once.
    expect(replay.requested).toEqual([ARMCHAIR_THUMB]);
    const metrics = await usage.metrics.text();
    expect(metrics).toContain('asset_search_thumbnails_total{outcome="resized"} 1');
    expect(metrics).toContain('asset_search_thumbnails_total{outcome="cached"} 1');
  });

  it("never enlarges: the 256-pixel source stays 256 wide at the default 320 and at 640", async () => {
    const { get } = await testApp();
    for (const path of [THUMBNAIL, `${THUMBNAIL}?w=640`]) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(await image(res)).toMatchObject({ width: 256, height: 256 });
    }
  });

  it("finds the thumbnail of a live search result in the memory of recent results, without asking the source again", async () => {
    const { get, replay } = await testApp({ sources: [listingWithThumbnail("wide")] });
    replay.add({ url: fakeSearchUrl("wide", "lamp"), body: JSON.stringify({ items: [{ slug: "desk-lamp", name: "Desk Lamp" }] }) });
    const search = (await (await get("/v1/search?q=lamp")).json()) as SearchResponse;
    expect(search.results.map((r) => [r.id, r.thumbnailUrl])).toEqual([["wide:desk-lamp", WIDE]]);

    const res = await get("/v1/assets/wide:desk-lamp/thumbnail");
    expect(res.status).toBe(200);
    // Fitted inside 320×320, the aspect kept.
    expect(await image(res)).toMatchObject({ width: 320, height: 240 });
    expect(replay.requested).toEqual([fakeSearchUrl("wide", "lamp"), WIDE]);
  });

  it("remembers a streamed search's results as they arrive, before the search is done", async () => {
    const { get, replay } = await testApp({
      sources: [listingWithThumbnail("quick"), fakeSource("stuck")],
      usage: createUsage({ sources: ["quick", "stuck"] }),
    });
    replay.add({ url: fakeSearchUrl("quick", "lamp"), body: JSON.stringify({ items: [{ slug: "desk-lamp", name: "Desk Lamp" }] }) });
    replay.add({ url: fakeSearchUrl("stuck", "lamp"), fault: "hang" });
    const leave = new AbortController();
    const res = await get("/v1/search?q=lamp", { headers: { accept: "text/event-stream" }, signal: leave.signal });
    const events = readEvents(res.body!);
    const seen: string[] = [];
    for await (const { event } of events) {
      seen.push(event);
      if (event === "source") break; // quick has answered; stuck never will
    }
    const thumb = await get("/v1/assets/quick:desk-lamp/thumbnail");
    leave.abort();
    expect(seen).toEqual(["index", "source"]);
    expect(thumb.headers.get("x-thumbnail")).toBeNull();
    expect(await image(thumb)).toMatchObject({ width: 320, height: 240 });
  });

  it("asks the source for the details when neither the index nor a search knows the asset", async () => {
    const { get, replay } = await testApp();
    const png = "https://acg-media.struffelproductions.com/file/ambientCG-Web/media/thumbnail/256-PNG/3DApple002.png";
    // SYNTHETIC stand-in for ambientCG's thumbnail: the wide test image.
    replay.add({ url: png, file: "wide-400x300.jpg", headers: { "content-type": "image/png" } }, SYNTHETIC);
    const res = await get("/v1/assets/ambientcg:3DApple002/thumbnail?w=160");
    expect(await image(res)).toMatchObject({ width: 160, height: 120 });
    expect(replay.requested).toEqual([
      "https://ambientcg.com/api/v3/assets?id=3DApple002&include=type,title,url,tags,shortDescription,releaseDate,maps,technique,downloadStatistics,thumbnails,downloads",
      png,
    ]);
  });

  it("answers the placeholder when the upstream image fails, and tries again on the next request", async () => {
    const { get, replay, usage } = await testApp();
    replay.add({ url: ARMCHAIR_THUMB, status: 500, body: "upstream broke", times: 1 });
    await expectPlaceholder(await get(`${THUMBNAIL}?w=640`), 640);
    // A failure is not kept: the next request fetches again (the recording answers it now).
    const res = await get(`${THUMBNAIL}?w=640`);
    expect(res.headers.get("x-thumbnail")).toBeNull();
    expect(replay.requested).toEqual([ARMCHAIR_THUMB, ARMCHAIR_THUMB]);
    expect(await usage.metrics.text()).toContain('asset_search_thumbnails_total{outcome="placeholder"} 1');
  });

  it("answers the placeholder for bytes that are no image, and for a source that fails", async () => {
    const notAnImage = oneAssetApp(syntheticDetails("loop", "lamp", { thumbnailUrl: "https://thumbs.example/lamp.png" }));
    notAnImage.replay.add({
      url: "https://thumbs.example/lamp.png",
      body: "<!doctype html><title>Not found</title>",
      headers: { "content-type": "text/html" },
    });
    await expectPlaceholder(await notAnImage.get("/v1/assets/loop:lamp/thumbnail"));

    const { get, replay } = await testApp();
    replay.add({ url: "https://api.polyhaven.com/info/Gone_01", status: 503, body: "down" });
    replay.add({ url: "https://api.polyhaven.com/files/Gone_01", status: 503, body: "down" });
    await expectPlaceholder(await get("/v1/assets/polyhaven:Gone_01/thumbnail"));
  });

  it("answers the placeholder, asking nothing upstream, for an asset without a thumbnail", async () => {
    const { get, replay } = oneAssetApp(syntheticDetails("loop", "bare"));
    await expectPlaceholder(await get("/v1/assets/loop:bare/thumbnail?w=160"), 160);
    expect(replay.requested).toEqual([]);
  });

  it("refuses a redirect hop to a private address: the placeholder, and the hop is never requested", async () => {
    const { get, replay } = oneAssetApp(syntheticDetails("loop", "lamp", { thumbnailUrl: "https://thumbs.example/moved.png" }));
    replay.add({ url: "https://thumbs.example/moved.png", status: 302, headers: { location: "http://169.254.169.254/latest/meta-data/lamp.png" } });
    await expectPlaceholder(await get("/v1/assets/loop:lamp/thumbnail"));
    expect(replay.requested).toEqual(["https://thumbs.example/moved.png"]);
  });

  it("refuses a thumbnail host whose DNS answer is private: the placeholder, and the server there is never reached (real Agent)", async () => {
    let reached = 0;
    const server = createServer((_req, res) => {
      reached++;
      res.end("secret");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const asked: string[] = [];
    const lookup = ((hostname: string, _options: unknown, cb: (...args: unknown[]) => void) => {
      asked.push(hostname);
      cb(null, [{ address: "127.0.0.1", family: 4 }]);
    }) as unknown as LookupFunction;
    const details = syntheticDetails("loop", "lamp", { thumbnailUrl: `http://thumbs.internal.example:${(server.address() as AddressInfo).port}/lamp.png` });
    const http = createHttpClient({ config: loadConfig({ HTTP_RETRIES: "0" }), lookup });
    stops.push(() => http.close());
    const { get } = oneAssetApp(details, { http });
    await expectPlaceholder(await get("/v1/assets/loop:lamp/thumbnail"));
    expect(asked).toEqual(["thumbs.internal.example"]);
    expect(reached).toBe(0);
  });

  it.each([
    ["w=500", "w must be one of 160, 320, 640, got '500'"],
    ["w=abc", "w must be one of 160, 320, 640, got 'abc'"],
    ["w=-320", "w must be one of 160, 320, 640, got '-320'"],
  ])("400 for %s, naming the value", async (query, message) => {
    const { get, replay } = await testApp();
    const res = await get(`${THUMBNAIL}?${query}`);
    expect(res.status).toBe(400);
    expect(ErrorBody.parse(await res.json()).error).toBe(message);
    expect(replay.requested).toEqual([]);
  });

  it("keeps the asset id rules: a malformed id is a 400, an unknown source a 404", async () => {
    const { get } = await testApp({ sources: [polyhaven] });
    const malformed = await get("/v1/assets/no-colon-here/thumbnail");
    expect(malformed.status).toBe(400);
    expect(ErrorBody.parse(await malformed.json()).error).toBe("malformed asset id 'no-colon-here': expected <provider>:<nativeId>");
    expect((await get("/v1/assets/polyhaven:..%2Fx/thumbnail")).status).toBe(400);
    expect((await get("/v1/assets/nosuch:thing/thumbnail")).status).toBe(404);
  });

  it("counts against a bucket of its own, ten times the per-minute limit, leaving the API's quota alone", async () => {
    const { get } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "2" } });
    const statuses: string[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await get(THUMBNAIL);
      statuses.push(`${res.status} ${res.headers.get("ratelimit-remaining")}`);
      if (i === 0) expect(res.headers.get("ratelimit-policy")).toBe('"thumbnails";q=20;w=60');
      if (i === 20)
        expect(ErrorBody.parse(await res.json()).error).toMatch(/^rate limit exceeded: 20 thumbnail requests per 60 seconds per client; retry in \d+ s$/);
    }
    expect(statuses.slice(0, 2)).toEqual(["200 19", "200 18"]);
    expect(statuses.at(-2)).toBe("200 0");
    expect(statuses.at(-1)).toBe("429 0");
    const api = await get("/v1/providers");
    expect(api.status).toBe(200);
    expect(api.headers.get("ratelimit-policy")).toBe('"default";q=2;w=60');
    expect(api.headers.get("ratelimit-remaining")).toBe("1");
  });

  it("keeps the API key rule", async () => {
    const { get } = await testApp({ env: { ASSET_SERVER_API_KEY: "k3y" } });
    expect((await get(THUMBNAIL)).status).toBe(401);
    expect((await get(THUMBNAIL, { headers: { "x-api-key": "k3y" } })).status).toBe(200);
    expect((await get(`${THUMBNAIL}?api_key=k3y`)).status).toBe(200);
  });
});
