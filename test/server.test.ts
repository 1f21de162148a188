import { describe, expect, it } from "vitest";
import { AssetDetails, Catalog, CatalogHistory, ErrorBody, FileSelection, ProvidersResponse, SearchResponse } from "../core/schemas/index.ts";
import { listen, testApp } from "./helpers/app.ts";
import { rawRequest } from "./helpers/raw-request.ts";

const json = async (res: Response) => res.json() as Promise<Record<string, unknown>>;

describe("search", () => {
  it("finds Poly Haven assets from the index with one provider line and scores in 0..1", async () => {
    const { get, replay } = await testApp();
    const res = await get("/v1/search?q=arm%20chair");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json;charset=UTF-8");
    const text = await res.text();
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    const body = SearchResponse.parse(JSON.parse(text));
    expect(body.results[0]?.id).toBe("polyhaven:ArmChair_01");
    expect(body.results.every((r) => r.score! >= 0 && r.score! <= 1)).toBe(true);
    const ph = body.providers.find((p) => p.provider === "polyhaven")!;
    expect(ph).toMatchObject({ status: "ok", name: "Poly Haven" });
    // count is what the source answered; the junk floor shows only the chairs that match as well as the best, or nearly.
    expect(ph.count).toBe(6);
    expect(body.results.filter((r) => r.provider === "polyhaven").map((r) => r.id)).toEqual(["polyhaven:ArmChair_01", "polyhaven:WoodenChair_01"]);
    // Indexed: no upstream call at search time (live sources are asked, Poly Haven is not).
    expect(replay.requested.filter((u) => u.includes("polyhaven"))).toEqual([]);
  });

  it("lists results holding every word first, then those holding half of them; prefix on the last word; typos when exact matching finds too little", async () => {
    const { get } = await testApp();
    const ids = async (q: string) =>
      SearchResponse.parse(await (await get(`/v1/search?providers=polyhaven&q=${encodeURIComponent(q)}`)).json()).results.map((r) => r.id);
    expect((await ids("wooden chai"))[0]).toBe("polyhaven:WoodenChair_01");
    expect((await ids("victorain chair")).slice(0, 2)).toEqual(["polyhaven:WoodenChair_01", "polyhaven:ArmChair_01"]);
    // No asset holds zebra: the chairs, which hold half the words, in the order "chair" alone gives.
    expect(await ids("chair zebra")).toEqual(await ids("chair"));
  });

  it("answers the queries strict matching left empty or wrong, by general rules", async () => {
    const { get } = await testApp();
    const INDEXED = "polyhaven,cgbookcase,kenney,quaternius,fontsource,googlefonts,iconify";
    const results = async (q: string, more = "") =>
      SearchResponse.parse(await (await get(`/v1/search?providers=${INDEXED}&q=${encodeURIComponent(q)}${more}`)).json()).results;
    const ids = async (q: string, more?: string) => (await results(q, more)).map((r) => r.id);
    // Half the words: records with few tags still answer.
    expect(await ids("low poly tree")).toContain("quaternius:stylizedtree");
    expect((await ids("city buildings"))[0]).toBe("polyhaven:venice_sunset"); // building, and town as a synonym of city
    // Type words are optional: "sounds" and "font" boost audio and fonts instead of being required.
    expect((await ids("ui sounds"))[0]).toBe("kenney:ui-audio");
    expect((await ids("pixel font"))[0]).toBe("fontsource:rubik-pixels");
    // A synonym (couch) is a whole word and ranks above a prefix (Sofadi).
    const sofa = await ids("sofa");
    expect(sofa).toContain("polyhaven:ArmChair_01");
    expect(sofa.indexOf("polyhaven:ArmChair_01")).toBeLessThan(sofa.indexOf("fontsource:sofadi-one"));
    // handwritten ↔ handwriting; sky ↔ skies by stemming.
    expect((await results("handwritten", "&type=font")).every((r) => r.categories?.includes("handwriting"))).toBe(true);
    expect(await ids("sky")).toContain("polyhaven:venice_sunset");
    // 23 grass textures do not fill the page, and a typo match (Glass Antiqua) is not shown in their place: the junk floor.
    const grass = await ids("grass");
    expect(grass.filter((id) => id.startsWith("polyhaven:"))).toHaveLength(23);
    expect(grass).not.toContain("fontsource:glass-antiqua");
  });

  it("filters by type, pages by per-source offset and never repeats page 1", async () => {
    const { get } = await testApp();
    const page = async (offset: number) => SearchResponse.parse(await (await get(`/v1/search?q=rock&type=texture&limit=5&offset=${offset}`)).json());
    const one = await page(0);
    const two = await page(5);
    expect(one.results).toHaveLength(5);
    expect(one.results.every((r) => r.type === "texture")).toBe(true);
    expect(two.results.some((r) => one.results.map((x) => x.id).includes(r.id))).toBe(false);
    expect(one.types).toEqual(["texture"]);
  });

  it.each([
    ["limit=0", "limit must be a whole number from 1 to 100, got '0'"],
    ["limit=101", "limit must be a whole number from 1 to 100, got '101'"],
    ["limit=abc", "limit must be a whole number from 1 to 100, got 'abc'"],
    ["offset=-1", "offset must be a whole number at least 0, got '-1'"],
    ["type=modle", "unknown type 'modle'"],
    ["providers=nosuchsite", "unknown source 'nosuchsite'"],
    ["free=maybe", "free must be true or false, got 'maybe'"],
    ["downloadable=2", "downloadable must be true or false, got '2'"],
  ])("400 for %s", async (query, message) => {
    const { get } = await testApp();
    const res = await get(`/v1/search?q=x&${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(ErrorBody.parse(await res.json()).error).toContain(message);
  });
});

describe("assets", () => {
  it("returns details with files and a share URL; colon encoded or not", async () => {
    const { get, replay } = await testApp();
    for (const id of ["polyhaven:ArmChair_01", "polyhaven%3AArmChair_01"]) {
      const res = await get(`/v1/assets/${id}`);
      expect(res.status).toBe(200);
      const details = AssetDetails.parse(await res.json());
      expect(details.license?.spdx).toBe("CC0-1.0");
      expect(details.shareUrl).toBe("http://localhost/?asset=polyhaven%3AArmChair_01");
    }
    expect(replay.requested).toEqual(expect.arrayContaining(["https://api.polyhaven.com/info/ArmChair_01", "https://api.polyhaven.com/files/ArmChair_01"]));
  });

  it("404 for an unknown source or asset, 400 for a malformed id, 502 when the source fails", async () => {
    const { get, replay } = await testApp();
    expect((await get("/v1/assets/nosuch:thing")).status).toBe(404);
    expect((await get("/v1/assets/no-colon-here")).status).toBe(400);
    replay.add({ url: "https://api.polyhaven.com/info/Missing_01", status: 404, body: "{}" });
    replay.add({ url: "https://api.polyhaven.com/files/Missing_01", status: 404, body: "{}" });
    const missing = await get("/v1/assets/polyhaven:Missing_01");
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toBe("unknown asset 'polyhaven:Missing_01'");
    replay.add({ url: "https://api.polyhaven.com/info/Broken_01", status: 500, body: "oops" });
    replay.add({ url: "https://api.polyhaven.com/files/Broken_01", status: 500, body: "oops" });
    const broken = await get("/v1/assets/polyhaven:Broken_01");
    expect(broken.status).toBe(502);
    expect(ErrorBody.parse(await broken.json()).error).toMatch(/^the source site failed/);
  });

  it("selects files: the 2k glTF by default, with its total size", async () => {
    const { get } = await testApp();
    const res = await get("/v1/assets/polyhaven:ArmChair_01/files");
    const sel = FileSelection.parse(await res.json());
    expect(sel.files.map((f) => f.url)).toEqual(["https://dl.polyhaven.org/file/ph-assets/Models/gltf/2k/ArmChair_01/ArmChair_01_2k.gltf"]);
    const f = sel.files[0]!;
    expect(sel.totalBytes).toBe(f.sizeBytes! + f.includes!.reduce((a, i) => a + i.sizeBytes!, 0));
    const bad = await get("/v1/assets/polyhaven:ArmChair_01/files?resolution=huge");
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toBe("resolution must look like 1k, 2k, 4k or 8k, got 'huge'");
  });
});

describe("sources, catalog and system", () => {
  it("lists providers, serves the catalog, its history, health and OpenAPI", async () => {
    const { get } = await testApp();
    const providers = ProvidersResponse.parse(await (await get("/v1/providers")).json());
    expect(providers.providers.find((p) => p.id === "polyhaven")).toMatchObject({ access: "api", pricing: "free", supportsDownload: true });
    const catalog = Catalog.parse(await (await get("/v1/catalog")).json());
    expect(await (await get("/catalog.json")).json()).toEqual(catalog);
    expect(catalog.sources.find((s) => s.id === "polyhaven")?.total).toBe(771);
    const history = CatalogHistory.parse(await (await get("/catalog-history.json")).json());
    expect(history.points.at(-1)?.date).toBe("2026-11-22");
    expect(await (await get("/health")).json()).toEqual({ ok: true });
    expect(((await (await get("/openapi.json")).json()) as { openapi: string }).openapi).toBe("3.1.0");
  });

  it("says of each provider whether its key is required and set here (never the key), and how it meets filters and sorts", async () => {
    const { get } = await testApp({ env: { SKETCHFAB_API_TOKEN: "secret-token" } });
    const res = await get("/v1/providers");
    const text = await res.text();
    expect(text).not.toContain("secret-token");
    const byId = new Map(ProvidersResponse.parse(JSON.parse(text)).providers.map((p) => [p.id, p]));
    const keyAndFilters = (id: string) => {
      const { enabled, keyEnv, keyRequired, keyConfigured, filtering } = byId.get(id)!;
      return { enabled, keyEnv, keyRequired, keyConfigured, filtering };
    };
    expect(keyAndFilters("polyhaven")).toEqual({ enabled: true, filtering: { index: true, upstream: [], listed: [] } });
    expect(keyAndFilters("sketchfab")).toEqual({
      enabled: true,
      keyEnv: "SKETCHFAB_API_TOKEN",
      keyRequired: false,
      keyConfigured: true,
      filtering: {
        index: false,
        upstream: ["license", "maxPolys", "animated", "rigged", "category", "format", "newest"],
        listed: ["license", "commercial", "attribution", "author", "category", "format", "maxPolys", "animated", "newest"],
      },
    });
    expect(keyAndFilters("thingiverse")).toEqual({
      enabled: false,
      keyEnv: "THINGIVERSE_TOKEN",
      keyRequired: true,
      keyConfigured: false,
      filtering: { index: false, upstream: ["license", "newest", "popular"], listed: ["author"] },
    });
    expect(keyAndFilters("fab")).toEqual({ enabled: true, filtering: { index: false, upstream: [], listed: [] } });
    // The OpenAPI document carries the fields and lists them among the additive ones.
    const doc = (await (await get("/openapi.json")).json()) as {
      info: { description: string };
      components: { schemas: Record<string, { properties: object }> };
    };
    expect(Object.keys(doc.components.schemas.Provider!.properties)).toEqual(expect.arrayContaining(["keyRequired", "keyConfigured", "filtering"]));
    for (const field of ["keyRequired", "keyConfigured", "filtering"]) expect(doc.info.description).toContain(`\`Provider.${field}\``);
  });

  it("serves the search page that shareUrl opens, titled with the asset", async () => {
    const { get } = await testApp();
    const res = await get("/?asset=polyhaven%3AArmChair_01");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await res.text();
    expect(page).toContain("<title>Arm Chair 01 · Poly Haven · asset-search</title>");
    expect(page).toMatch(/<script type="module" src="\/static\/main-\w+\.js"><\/script>/);
  });

  it("answers unknown routes and wrong methods with JSON errors", async () => {
    const { get } = await testApp();
    const missing = await get("/nope");
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ error: "no route for GET /nope" });
    const wrong = await get("/v1/search", { method: "POST" });
    expect(wrong.status).toBe(405);
    expect(await json(wrong)).toEqual({ error: "method POST not allowed on /v1/search" });
    expect(wrong.headers.get("allow")).toBe("GET, HEAD");
  });

  it("writes an error whole with its length, its own content type and headers over those staged before it", async () => {
    const { app } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "1" } });
    const server = await listen(app);
    try {
      await rawRequest(server.url, "GET", "/v1/providers");
      const limited = await rawRequest(server.url, "GET", "/v1/providers", { origin: "http://app.example" });
      expect(limited.status).toBe(429);
      expect(limited.headers["transfer-encoding"]).toBeUndefined();
      expect(limited.headers["content-length"]).toBe(String(Buffer.byteLength(limited.body)));
      expect(limited.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(limited.headers["retry-after"]).toBe(String(ErrorBody.parse(JSON.parse(limited.body)).retryAfter));
      expect(limited.headers["ratelimit-remaining"]).toBe("0");
      expect(limited.headers["access-control-allow-origin"]).toBe("*");
    } finally {
      await server.close();
    }
  });

  it("answers HEAD wherever it answers GET, as the Allow header says", async () => {
    const { get } = await testApp();
    for (const path of ["/health", "/openapi.json", "/v1/providers", "/v1/catalog", "/catalog-history.json", "/v1/assets/polyhaven:ArmChair_01"]) {
      const res = await get(path, { method: "HEAD" });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
    }
    const page = await get("/", { method: "HEAD" });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const missing = await get("/nope", { method: "HEAD" });
    expect(missing.status).toBe(404);
    const put = await get("/health", { method: "PUT" });
    expect(put.status).toBe(405);
    expect(await json(put)).toEqual({ error: "method PUT not allowed on /health" });
  });
});

describe("API key", () => {
  const key = "s3cret-key";
  it.each([
    ["bearer", { headers: { authorization: `Bearer ${key}` } }, ""],
    ["x-api-key", { headers: { "x-api-key": key } }, ""],
    ["query", {}, `&api_key=${key}`],
  ])("accepts the key as %s", async (_name, init, suffix) => {
    const { get } = await testApp({ env: { ASSET_SERVER_API_KEY: key } });
    expect((await get(`/v1/search?q=chair${suffix}`, init)).status).toBe(200);
  });

  it("401 when missing or wrong; /health and /openapi.json stay open", async () => {
    const { get } = await testApp({ env: { ASSET_SERVER_API_KEY: key } });
    const missing = await get("/v1/search?q=chair");
    expect(missing.status).toBe(401);
    expect((await json(missing)).error).toMatch(/^API key required/);
    const wrong = await get("/v1/providers", { headers: { "x-api-key": "nope" } });
    expect(wrong.status).toBe(401);
    expect(await json(wrong)).toEqual({ error: "API key not accepted" });
    expect((await get("/health")).status).toBe(200);
    expect((await get("/openapi.json")).status).toBe(200);
  });
});

describe("rate limit", () => {
  it("sets the headers on every /v1 response and answers 429 past the quota", async () => {
    const { get } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "3" } });
    const first = await get("/v1/providers");
    expect(first.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60');
    expect(first.headers.get("ratelimit-limit")).toBe("3");
    expect(first.headers.get("ratelimit-remaining")).toBe("2");
    expect(first.headers.get("ratelimit")).toMatch(/^"default";r=2;t=\d+$/);
    expect(Number(first.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
    const bad = await get("/v1/search?limit=0");
    expect(bad.status).toBe(400);
    expect(bad.headers.get("ratelimit-remaining")).toBe("1");
    await get("/v1/providers");
    const limited = await get("/v1/providers");
    expect(limited.status).toBe(429);
    const body = ErrorBody.parse(await limited.json());
    expect(body.error).toMatch(/^rate limit exceeded: 3 requests per 60 seconds per client; retry in \d+ s$/);
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(limited.headers.get("retry-after")).toBe(String(body.retryAfter));
    expect(limited.headers.get("ratelimit")).toMatch(/^"default";r=0;t=\d+$/);
    expect(limited.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60');
    expect((await get("/health")).status).toBe(200);
    expect((await get("/health")).headers.get("ratelimit-limit")).toBeNull();
  });

  it("counts clients apart by forwarded address only behind a trusted proxy", async () => {
    const { get } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "1", TRUST_PROXY: "true" } });
    const from = (ip: string) => get("/v1/providers", { headers: { "x-forwarded-for": ip } });
    expect((await from("203.0.113.1")).status).toBe(200);
    expect((await from("203.0.113.2")).status).toBe(200);
    expect((await from("203.0.113.1")).status).toBe(429);
  });

  it("counts an IPv6 /64 as one client, and an IPv4-mapped address as its IPv4", async () => {
    const { get } = await testApp({ env: { RATE_LIMIT_PER_MINUTE: "1", TRUST_PROXY: "true" } });
    const from = (ip: string) => get("/v1/providers", { headers: { "x-forwarded-for": ip } });
    // One subscriber's /64 holds 2^64 addresses: rotating among them must not multiply the quota.
    expect((await from("2001:db8:1:2::1")).status).toBe(200);
    expect((await from("2001:db8:1:2:ffff:eeee:dddd:cccc")).status).toBe(429);
    expect((await from("2001:db8:1:3::1")).status).toBe(200);
    expect((await from("198.51.100.7")).status).toBe(200);
    expect((await from("::ffff:198.51.100.7")).status).toBe(429);
  });
});
