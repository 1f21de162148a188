/**
 * The web app's pages and files as HTTP answers (server/routes/pages.ts): the security headers on
 * every page, compression and revalidation of the HTML, the bundle's year-long caching, the title,
 * description and link-preview tags of a search, an asset, the sources, a source and the stats,
 * an unknown or malformed source or docs page's 404, the redirects of a trailing slash, and the
 * paths that must not be served. What the pages do in a browser
 * is test/e2e/'s.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { packagePath } from "../core/package-path.ts";
import { testApp } from "./helpers/app.ts";

const MANIFEST = JSON.parse(readFileSync(packagePath("dist/web/manifest.json"), "utf8")) as { script: string; style: string; styleHashes: string[] };
const ARM_CHAIR = "polyhaven%3AArmChair_01";

const EXPECTED_PAGE_HEADERS = {
  "content-security-policy": `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' ${MANIFEST.styleHashes.map((h) => `'${h}'`).join(" ")}; img-src 'self' data: blob:; font-src 'self' blob:; media-src 'self' blob:; connect-src 'self' blob: data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  "x-content-type-options": "nosniff",
  "referrer-policy": "strict-origin-when-cross-origin",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cache-control": "no-cache",
  "content-type": "text/html; charset=utf-8",
};

/** The value of `<meta property|name="key" content="…">` in a page. */
const meta = (html: string, key: string) => new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html)?.[1];

describe("the pages", () => {
  it("allow by its hash exactly the inline style the 3D viewer's template writes, found in the built bundle", () => {
    const template = readFileSync(packagePath("node_modules/@google/model-viewer/lib/template.js"), "utf8");
    const css = /<style>([\s\S]*?)<\/style>/.exec(template)?.[1] ?? "";
    expect(MANIFEST.styleHashes).toEqual([`sha256-${createHash("sha256").update(css).digest("base64")}`]);
  });

  it.each(["/", "/?q=rock", `/?asset=${ARM_CHAIR}`, `/assets/${ARM_CHAIR}`, "/sources", "/sources/polyhaven", "/stats"])(
    "%s carries the policy, frame, referrer, nosniff and cache headers",
    async (path) => {
      const { get } = await testApp();
      const res = await get(path);
      expect(res.status).toBe(200);
      for (const [name, value] of Object.entries(EXPECTED_PAGE_HEADERS)) expect(res.headers.get(name), name).toBe(value);
      // No inline script or style for the policy to allow: only the bundle's files.
      const html = await res.text();
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>|<style|\sstyle=/);
      expect(html).toContain(`<script type="module" src="/static/${MANIFEST.script}"></script>`);
      expect(html).toContain(`<link rel="stylesheet" href="/static/${MANIFEST.style}">`);
    },
  );

  it("is compressed as the browser asks, and revalidated by its ETag with a 304", async () => {
    const { get } = await testApp();
    const plain = await (await get("/", { headers: { "accept-encoding": "identity" } })).text();
    const br = await get("/", { headers: { "accept-encoding": "br, gzip" } });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(br.headers.get("vary")).toBe("accept-encoding");
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(plain);
    const gz = await get("/", { headers: { "accept-encoding": "gzip" } });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(plain);
    const again = await get("/", { headers: { "accept-encoding": "br", "if-none-match": br.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("titles a search with its query and an asset with its name, source and facts, with link-preview tags", async () => {
    const { get } = await testApp();
    const search = await (await get("/?q=rock%20wall")).text();
    expect(search).toContain("<title>“rock wall” assets · asset-search</title>");
    expect(meta(search, "og:url")).toBe("http://localhost/?q=rock+wall");

    const asset = await (await get(`/assets/${ARM_CHAIR}`)).text();
    expect(asset).toContain("<title>Arm Chair 01 · Poly Haven · asset-search</title>");
    expect(meta(asset, "og:title")).toBe("Arm Chair 01 · Poly Haven · asset-search");
    expect(meta(asset, "og:url")).toBe(`http://localhost/assets/${ARM_CHAIR}`);
    expect(meta(asset, "og:image")).toBe(`http://localhost/v1/assets/${ARM_CHAIR}/thumbnail?w=640`);
    expect(meta(asset, "twitter:card")).toBe("summary_large_image");
    expect(meta(asset, "description")).toMatch(/^Free \(CC0\) vintage Victorian armchair .*…$/);
    expect(meta(asset, "description")?.length).toBeLessThanOrEqual(200);
    expect(asset).toContain(`<link rel="canonical" href="http://localhost/assets/${ARM_CHAIR}">`);

    // The share link (/?asset=) names the asset page as the canonical one.
    const shared = await (await get(`/?asset=${ARM_CHAIR}`)).text();
    expect(shared).toContain(`<link rel="canonical" href="http://localhost/assets/${ARM_CHAIR}">`);
  });

  it("titles the sources, a source (with its census) and the stats, with link-preview tags", async () => {
    const { get, published } = await testApp();
    const sources = await (await get("/sources")).text();
    expect(sources).toContain("<title>Sources · asset-search</title>");
    const total = published.catalog.totals.listings;
    expect(meta(sources, "description")).toContain(`${total.count.toLocaleString("en-US")}${total.atLeast ? "+" : ""} listings counted daily`);
    expect(meta(sources, "og:url")).toBe("http://localhost/sources");

    const polyHaven = await (await get("/sources/polyhaven")).text();
    expect(polyHaven).toContain("<title>Poly Haven: census and history · asset-search</title>");
    expect(meta(polyHaven, "og:title")).toBe("Poly Haven: census and history · asset-search");
    expect(meta(polyHaven, "description")).toMatch(/^Poly Haven: [\d,]+ listings \([\d,]+ free\) of [a-z, ]+\. Its daily census/);
    expect(polyHaven).toContain('<link rel="canonical" href="http://localhost/sources/polyhaven">');

    const stats = await (await get("/stats")).text();
    expect(stats).toContain("<title>Usage and health · asset-search</title>");
    expect(meta(stats, "og:url")).toBe("http://localhost/stats");
  });

  it.each([
    ["/sources/nope", "Source not found · asset-search", 'no source "nope": /v1/providers lists them'],
    ["/sources/%ZZ", "Source not found · asset-search", 'no source "%ZZ": /v1/providers lists them'],
    ["/sources/poly%E0%A4%A", "Source not found · asset-search", 'no source "poly%E0%A4%A": /v1/providers lists them'],
    ["/docs/nope", "Page not found · asset-search docs", "no page /docs/nope: /llms.txt lists them"],
    ["/docs/%ZZ", "Page not found · asset-search docs", "no page /docs/%ZZ: /llms.txt lists them"],
  ])("answers %s (unknown or malformed) with a 404: the page for a browser, the API's JSON naming it for any other client", async (path, title, error) => {
    const { get } = await testApp();
    const page = await get(path, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(page.status).toBe(404);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(EXPECTED_PAGE_HEADERS["content-security-policy"]);
    expect(page.headers.get("vary")).toBe("accept");
    expect(await page.text()).toContain(`<title>${title}</title>`);
    for (const accept of ["application/json", "*/*"]) {
      const api = await get(path, { headers: { accept } });
      expect(api.status).toBe(404);
      expect(api.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(await api.json()).toEqual({ error });
    }
  });

  it.each([
    ["/sources/", "/sources"],
    ["/sources//", "/sources"],
    ["/sources/polyhaven/", "/sources/polyhaven"],
    ["/stats/", "/stats"],
    ["/stats/?x=1", "/stats?x=1"],
    ["/docs/", "/docs"],
    ["/docs/mcp/", "/docs/mcp"],
  ])("redirects %s to the page's one address, %s", async (path, location) => {
    const { get } = await testApp();
    for (const accept of ["text/html", "application/json"]) {
      const res = await get(path, { headers: { accept } });
      expect(res.status).toBe(301);
      expect(res.headers.get("location")).toBe(location);
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(await res.text()).toBe("");
    }
  });

  it("answers a malformed path elsewhere as any other: an asset id's 400 names it, an unknown path or bundle file is a 404", async () => {
    const { get } = await testApp();
    const asset = await get("/v1/assets/polyhaven:%ZZ");
    expect(asset.status).toBe(400);
    expect(await asset.json()).toEqual({ error: "malformed asset id 'polyhaven:%ZZ': bad percent-encoding" });
    const unknown = await get("/%ZZ");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "no route for GET /%ZZ" });
    const file = await get("/static/%ZZ.js");
    expect(file.status).toBe(404);
    expect(await file.json()).toEqual({ error: "no file /static/%ZZ.js" });
  });

  it("escapes what the address brings into the page", async () => {
    const { get } = await testApp();
    const html = await (await get(`/?q=${encodeURIComponent('"><script>alert(1)</script>')}`)).text();
    expect(html).not.toContain("<script>alert(1)");
    expect(html).toContain("<title>“&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;” assets · asset-search</title>");
  });

  it("answers an asset page of a malformed id with the API's 400 JSON, and counts a page view per page served", async () => {
    const { get, usage } = await testApp();
    const bad = await get("/assets/no-colon");
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatch(/no-colon/);
    await get("/");
    await get(`/assets/${ARM_CHAIR}`);
    await get("/", { method: "HEAD" });
    expect((await usage.snapshot()).window.pageViews).toBe(2);
  });
});

describe("the app's files", () => {
  it("serves the bundle compressed, cached for a year under its content-hashed name", async () => {
    const { get } = await testApp();
    for (const file of [MANIFEST.script, MANIFEST.style]) {
      const res = await get(`/static/${file}`, { headers: { "accept-encoding": "br" } });
      expect(res.status, file).toBe(200);
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(res.headers.get("content-encoding")).toBe("br");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("content-type")).toBe(file.endsWith(".js") ? "text/javascript; charset=utf-8" : "text/css; charset=utf-8");
      const bytes = brotliDecompressSync(Buffer.from(await res.arrayBuffer()));
      expect(bytes.equals(readFileSync(packagePath("dist/web", file)))).toBe(true);
    }
  });

  it.each(["/static/manifest.json", "/static/..%2fbuild.json", "/static/%2e%2e/server/main.js", "/static/nope-123.js", "/static/"])(
    "does not serve %s",
    async (path) => {
      const { get } = await testApp();
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    },
  );
});
