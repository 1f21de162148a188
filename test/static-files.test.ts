/**
 * The published files as the server serves them (server/static/): validators, caching,
 * compression and revalidation, on the app over the recordings.
 */
import { createHash } from "node:crypto";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { AssetIndex } from "../core/index/search-index.ts";
import { IndexMeta, PUBLICATION_VERSION, type Published } from "../core/publication/published.ts";
import { CatalogHistory } from "../core/schemas/index.ts";
import { DATA_CACHE, SCHEMA_CACHE } from "../server/static/file.ts";
import { publicationFiles } from "../server/static/publication.ts";
import { schemaDocument } from "../server/static/schemas.ts";
import { testApp } from "./helpers/app.ts";

type App = Awaited<ReturnType<typeof testApp>>;
let app: App;
beforeAll(async () => {
  app = await testApp();
}, 60_000);

const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const get = (path: string, headers: Record<string, string> = {}, method = "GET") => app.get(path, { method, headers });
/** Last-Modified has whole seconds: the set's build time without its milliseconds. */
const lastModified = () => new Date(Math.floor(Date.parse(app.published.index.builtAt) / 1000) * 1000).toUTCString();

const JSON_FILES = ["/catalog.json", "/catalog-history.json", "/v1/catalog.json", "/v1/catalog-history.json", "/v1/index.meta.json"];

describe("a JSON file of the live set", () => {
  it.each(JSON_FILES)("%s: strong ETag of its bytes, the set's build time, a short cache with revalidation", async (path) => {
    const first = await get(path);
    const body = await bytesOf(first);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(first.headers.get("etag")).toBe(`"${sha256(body)}"`);
    expect(first.headers.get("last-modified")).toBe(lastModified());
    expect(first.headers.get("cache-control")).toBe(DATA_CACHE);
    expect(first.headers.get("vary")).toBe("accept-encoding");
    expect(first.headers.get("content-encoding")).toBeNull();
    expect(first.headers.get("content-length")).toBe(String(body.length));
    JSON.parse(body.toString("utf8"));
    // The same set gives the same bytes and the same tag, request after request.
    const again = await get(path);
    expect(again.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(await bytesOf(again)).toEqual(body);
  });

  it("/catalog.json and /v1/catalog.json are the same file, as are the two histories", async () => {
    for (const [open, published] of [
      ["/catalog.json", "/v1/catalog.json"],
      ["/catalog-history.json", "/v1/catalog-history.json"],
    ] as const) {
      const [a, b] = await Promise.all([get(open), get(published)]);
      expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
      expect(await bytesOf(a)).toEqual(await bytesOf(b));
    }
    expect(CatalogHistory.parse(await (await get("/v1/catalog-history.json")).json())).toEqual(app.published.history);
  });

  it("304 without a body when If-None-Match holds the tag (weakly compared, in a list, or *), with the validators again", async () => {
    const { headers } = await get("/catalog.json");
    const etag = headers.get("etag")!;
    for (const ifNoneMatch of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
      const res = await get("/catalog.json", { "if-none-match": ifNoneMatch });
      expect(res.status, ifNoneMatch).toBe(304);
      expect((await bytesOf(res)).length).toBe(0);
      expect(res.headers.get("etag")).toBe(etag);
      expect(res.headers.get("cache-control")).toBe(DATA_CACHE);
      expect(res.headers.get("last-modified")).toBe(lastModified());
      expect(res.headers.get("vary")).toBe("accept-encoding");
    }
    const other = await get("/catalog.json", { "if-none-match": '"0000"' });
    expect(other.status).toBe(200);
    expect(other.headers.get("etag")).toBe(etag);
  });

  it("304 on If-Modified-Since at or after the build time, 200 before it; If-None-Match decides when both are sent", async () => {
    const at = lastModified();
    const later = new Date(Date.parse(at) + 1000).toUTCString();
    const earlier = new Date(Date.parse(at) - 1000).toUTCString();
    expect((await get("/catalog-history.json", { "if-modified-since": at })).status).toBe(304);
    expect((await get("/catalog-history.json", { "if-modified-since": later })).status).toBe(304);
    expect((await get("/catalog-history.json", { "if-modified-since": earlier })).status).toBe(200);
    expect((await get("/catalog-history.json", { "if-modified-since": "not a date" })).status).toBe(200);
    // RFC 9110 §13.1.3: If-Modified-Since is ignored when If-None-Match is present.
    expect((await get("/catalog-history.json", { "if-none-match": '"0000"', "if-modified-since": later })).status).toBe(200);
  });

  it("gzip and brotli bodies decompress to the exact bytes, each with its own tag; 304 for the tag of the representation asked for", async () => {
    const identity = await get("/v1/catalog.json");
    const bytes = await bytesOf(identity);
    const hash = sha256(bytes);

    const gz = await get("/v1/catalog.json", { "accept-encoding": "gzip" });
    const gzBody = await bytesOf(gz);
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gz.headers.get("etag")).toBe(`"${hash}-gzip"`);
    expect(gz.headers.get("content-length")).toBe(String(gzBody.length));
    expect(gzBody.length).toBeLessThan(bytes.length);
    expect(gunzipSync(gzBody)).toEqual(bytes);

    const br = await get("/v1/catalog.json", { "accept-encoding": "br, gzip" });
    const brBody = await bytesOf(br);
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("etag")).toBe(`"${hash}-br"`);
    expect(br.headers.get("vary")).toBe("accept-encoding");
    expect(brotliDecompressSync(brBody)).toEqual(bytes);

    // A cache holding the gzip body revalidates it; asking for brotli with the gzip tag gets the brotli body.
    expect((await get("/v1/catalog.json", { "accept-encoding": "gzip", "if-none-match": `"${hash}-gzip"` })).status).toBe(304);
    const switched = await get("/v1/catalog.json", { "accept-encoding": "br", "if-none-match": `"${hash}-gzip"` });
    expect(switched.status).toBe(200);
    expect(brotliDecompressSync(await bytesOf(switched))).toEqual(bytes);
  });

  it.each([
    ["gzip;q=0", null],
    ["br;q=0, gzip;q=0", null],
    ["br;q=0, gzip", "gzip"],
    ["gzip, br;q=0", "gzip"],
    ["gzip;q=0.5, br;q=0.9", "br"],
    ["br;q=0.4, gzip;q=0.8", "gzip"],
    ["*", "br"],
    // Equal weights: h3's serveStatic takes the client's order (browsers list gzip first).
    ["gzip, deflate, br, zstd", "gzip"],
    ["br, gzip", "br"],
    ["*;q=0", null],
    ["identity", null],
    ["deflate, compress", null],
  ])("Accept-Encoding %j gives %s", async (acceptEncoding, encoding) => {
    const res = await get("/catalog-history.json", { "accept-encoding": acceptEncoding });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe(encoding);
    const body = await bytesOf(res);
    const plain = encoding === "br" ? brotliDecompressSync(body) : encoding === "gzip" ? gunzipSync(body) : body;
    expect(plain).toEqual(await bytesOf(await get("/catalog-history.json")));
  });

  it("HEAD: the GET's status and headers, no body", async () => {
    for (const headers of [{}, { "accept-encoding": "br" }] as Record<string, string>[]) {
      const [full, head] = await Promise.all([get("/v1/catalog.json", headers), get("/v1/catalog.json", headers, "HEAD")]);
      expect(head.status).toBe(200);
      expect((await bytesOf(head)).length).toBe(0);
      for (const name of ["etag", "last-modified", "cache-control", "content-type", "content-encoding", "content-length", "vary"]) {
        expect(head.headers.get(name), name).toBe(full.headers.get(name));
      }
      expect(head.headers.get("content-length")).toBe(String((await bytesOf(full)).length));
    }
    const revalidated = await get("/v1/catalog.json", { "if-none-match": (await get("/v1/catalog.json")).headers.get("etag")! }, "HEAD");
    expect(revalidated.status).toBe(304);
  });
});

describe("index.json.gz", () => {
  it("is served as the gzip file it is: application/gzip, never compressed again, whatever the client accepts", async () => {
    for (const acceptEncoding of ["", "gzip", "gzip, br", "br;q=1, gzip;q=0.5"]) {
      const res = await get("/v1/index.json.gz", acceptEncoding ? { "accept-encoding": acceptEncoding } : {});
      const body = await bytesOf(res);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/gzip");
      expect(res.headers.get("content-encoding")).toBeNull();
      expect(res.headers.get("vary")).toBeNull(); // one representation only
      expect(res.headers.get("etag")).toBe(`"${sha256(body)}"`);
      expect(res.headers.get("last-modified")).toBe(lastModified());
      expect(res.headers.get("cache-control")).toBe(DATA_CACHE);
      expect(body).toEqual(app.published.index.serialize());
      const records = JSON.parse(gunzipSync(body).toString("utf8")) as { builtAt: string; assets: unknown[] };
      expect(records.builtAt).toBe(app.published.index.builtAt);
      expect(records.assets).toEqual([...app.published.index.records()]);
    }
    const etag = (await get("/v1/index.json.gz")).headers.get("etag")!;
    const notModified = await get("/v1/index.json.gz", { "if-none-match": etag });
    expect(notModified.status).toBe(304);
    expect((await bytesOf(notModified)).length).toBe(0);
  });
});

describe("index.meta.json", () => {
  it("describes the set served: format, build time, counts, and the size and sha256 of every other file", async () => {
    const meta = IndexMeta.parse(await (await get("/v1/index.meta.json")).json());
    expect(meta.format).toBe(PUBLICATION_VERSION);
    expect(meta.builtAt).toBe(app.published.index.builtAt);
    expect(meta.counts.assets).toBe([...app.published.index.records()].length);
    const perSource = Object.values(meta.counts.sources).reduce((a, b) => a + b, 0);
    expect(perSource).toBe(meta.counts.assets);
    expect(meta.counts.sources.polyhaven).toBe([...app.published.index.records()].filter((a) => a.provider === "polyhaven").length);
    expect(Object.keys(meta.files).sort()).toEqual(["catalog-history.json", "catalog.json", "index.json.gz"]);
    for (const [name, file] of Object.entries(meta.files)) {
      const body = await bytesOf(await get(`/v1/${name}`));
      expect(file, name).toEqual({ bytes: body.length, sha256: sha256(body) });
    }
  });
});

describe("the live set changes", () => {
  it("builds the files once per set, and serves a swapped set at once with new tags", async () => {
    const { published } = await testApp();
    const own = await testApp();
    expect(await publicationFiles(own.published)).toBe(await publicationFiles(own.published));

    const before = await own.get("/v1/index.meta.json");
    const oldTag = before.headers.get("etag")!;
    const oldIndexTag = (await own.get("/v1/index.json.gz")).headers.get("etag")!;
    // A new set: the objects are replaced together, as a swap does.
    const kept = [...published.index.records()].slice(0, 10);
    own.published.index = AssetIndex.build(kept, "2027-01-02T03:04:05.000Z");
    own.published.history = { points: [] };
    const after = await own.get("/v1/index.meta.json", { headers: { "if-none-match": oldTag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("last-modified")).toBe("Sat, 02 Jan 2027 03:04:05 GMT");
    const meta = IndexMeta.parse(await after.json());
    expect(meta.counts.assets).toBe(10);
    expect(meta.builtAt).toBe("2027-01-02T03:04:05.000Z");
    const index = await own.get("/v1/index.json.gz", { headers: { "if-none-match": oldIndexTag } });
    expect(index.status).toBe(200);
    expect(JSON.parse(gunzipSync(await bytesOf(index)).toString("utf8")).assets).toEqual(kept);
    expect(await (await own.get("/catalog-history.json")).json()).toEqual({ points: [] });
  }, 60_000);

  it("a set without a catalogue: 404 naming why for the catalogue, and a meta without it", async () => {
    const own = await testApp();
    (own.published as Published).catalog = undefined;
    for (const path of ["/catalog.json", "/v1/catalog.json"]) {
      const res = await own.get(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ error: "the catalog has not been published yet: run npm run pipeline" });
    }
    const meta = IndexMeta.parse(await (await own.get("/v1/index.meta.json")).json());
    expect(Object.keys(meta.files).sort()).toEqual(["catalog-history.json", "index.json.gz"]);
  }, 60_000);
});

describe("the rules of the paths", () => {
  it("/v1/ files follow the API's rules (key, rate limit); /catalog.json and /schemas/ stay open", async () => {
    const keyed = await testApp({ env: { ASSET_SERVER_API_KEY: "k3y", RATE_LIMIT_PER_MINUTE: "120" } });
    for (const path of ["/v1/catalog.json", "/v1/catalog-history.json", "/v1/index.json.gz", "/v1/index.meta.json"]) {
      const refused = await keyed.get(path);
      expect(refused.status, path).toBe(401);
      const ok = await keyed.get(path, { headers: { "x-api-key": "k3y" } });
      expect(ok.status, path).toBe(200);
      expect(ok.headers.get("ratelimit-limit"), path).toBe("120");
      expect(ok.headers.get("access-control-allow-origin"), path).toBe("*");
    }
    for (const path of ["/catalog.json", "/catalog-history.json", "/schemas/IndexMeta.json"]) {
      const res = await keyed.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("ratelimit-limit"), path).toBeNull();
    }
  }, 60_000);

  it("other methods get a JSON 405 naming the allowed ones", async () => {
    const res = await app.get("/v1/index.json.gz", { method: "POST" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
    expect(await res.json()).toEqual({ error: "method POST not allowed on /v1/index.json.gz" });
  });
});

describe("/schemas/", () => {
  it.each(["Catalog", "CatalogHistory", "IndexMeta", "Asset", "BrowserIndexMeta", "BrowserRecord"] as const)(
    "%s.json is its JSON Schema (draft 2020-12), cached and revalidated",
    async (name) => {
      const res = await get(`/schemas/${name}.json`);
      const body = await bytesOf(res);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/schema+json");
      expect(res.headers.get("cache-control")).toBe(SCHEMA_CACHE);
      expect(res.headers.get("etag")).toBe(`"${sha256(body)}"`);
      const schema = JSON.parse(body.toString("utf8"));
      expect(schema).toEqual(schemaDocument(name));
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(schema.title).toBe(name);
      expect(schema.type).toBe("object");
      expect((await get(`/schemas/${name}.json`, { "if-none-match": res.headers.get("etag")! })).status).toBe(304);
    },
  );

  it("the history's schema names the fields of a point; the meta's, its five fields", async () => {
    const history = await (await get("/schemas/CatalogHistory.json")).json();
    expect(history.required).toEqual(["points"]);
    expect(history.properties.points.items).toEqual({ $ref: "#/$defs/CatalogHistoryPoint" });
    expect(Object.keys(history.$defs.CatalogHistoryPoint.properties)).toEqual(expect.arrayContaining(["date", "countedAt", "listings", "sources"]));
    const meta = await (await get("/schemas/IndexMeta.json")).json();
    expect(meta.required).toEqual(["format", "builtAt", "engine", "counts", "files"]);
    expect(meta.properties.format).toMatchObject({ const: PUBLICATION_VERSION });
  });

  it("an unknown schema is a JSON 404", async () => {
    const res = await get("/schemas/Nope.json");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: "no route for GET /schemas/Nope.json" });
  });
});
