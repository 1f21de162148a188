/**
 * The browser example (examples/browser/index.html) in Chromium: it imports search.js from a
 * publication's browser index (v1/browser/, written from the recorded catalogue's index as
 * `npm run publication` writes it) on a loopback static host, and searches it. The page is served
 * by a second loopback server (another origin, as a page elsewhere would be, so CORS is
 * exercised); nothing leaves the machine.
 *
 * search.js reads a query with the server's own analysis and ranks by the same text scores, so for
 * these one-word queries it finds exactly the records the server's index finds. The index's order
 * also weighs signals the browser index does not carry (source rank, type), so the sets are
 * compared; for "chair" (five hits) the order agrees too. The page fetches only the shards of the
 * words asked and the records of the results shown.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssetIndex } from "../../core/index/search-index.ts";
import { BROWSER_DIR, BROWSER_FILES } from "../../core/schemas/browser-format.ts";
import { searchModule } from "../../pipeline/browser-bundle.ts";
import { testApp } from "../helpers/app.ts";
import { launchChromium, missingBrowser } from "../helpers/chromium.ts";
import { scratchDirs } from "../helpers/scratch.ts";
import { type StaticServer, staticServer } from "../helpers/static-server.ts";

const EXAMPLE = readFileSync(new URL("../../examples/browser/index.html", import.meta.url));
/** The example shows at most this many results: the first this many of the server's ranking. */
const LIMIT = 20;
const QUERIES = ["chair", "leather", "snow", "castle", "marble", "asphalt"];
const scratch = scratchDirs("asset-search-browser-example-", afterAll);

let pages: StaticServer;
let folder: string;
let index: AssetIndex;
let site: { url: string; close: () => Promise<void> };
let browser: Browser;
let page: Page;
const problems: string[] = [];
const external: string[] = [];

/** Serves the example page on 127.0.0.1 at `/`, as any static host would. */
async function serveExample() {
  const server = createServer((req, res) => {
    if (new URL(req.url ?? "/", "http://x").pathname !== "/") return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(EXAMPLE);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

beforeAll(async () => {
  if (missingBrowser) return;
  index = (await testApp()).published.index;
  const root = scratch();
  folder = join(root, "v1", BROWSER_DIR);
  index.writeBrowserIndex(folder);
  writeFileSync(join(folder, BROWSER_FILES.module), searchModule());
  pages = await staticServer(root);
  site = await serveExample();
  browser = await launchChromium();
  const context = await browser.newContext();
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("http://127.0.0.1:")) return route.continue();
    external.push(url);
    return route.abort("blockedbyclient");
  });
  page = await context.newPage();
  page.setDefaultTimeout(10_000);
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught exception: ${error.message}`));
  page.on("requestfailed", (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`);
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await pages?.close();
});

/** Types the query into the example's box as a person would and reads the ids of the results it lists. */
async function browserResults(query: string): Promise<string[]> {
  const box = page.getByRole("searchbox");
  await box.fill(query);
  await box.press("Enter");
  await page.locator(`body[data-query="${query}"]`).waitFor();
  return page.locator("#results li").evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.id ?? ""));
}

describe("the browser example", () => {
  it("searches the publication's browser index and finds what the server's index finds", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    await page.goto(`${site.url}/?base=${encodeURIComponent(pages.url)}`);
    await page.locator('body[data-query=""]').waitFor();
    expect(await page.locator("#status").innerText()).toBe(`${[...index.records()].length} assets, built ${index.builtAt}`);
    expect(pages.log.map((r) => r.path)).toEqual(["/v1/browser/search.js", "/v1/browser/meta.json", "/v1/browser/terms/index.json"]);

    for (const query of QUERIES) {
      const server = index
        .search(query)
        .slice(0, LIMIT)
        .map((hit) => hit.asset.id);
      expect(server.length, query).toBeGreaterThan(0);
      const shown = await browserResults(query);
      expect([...shown].sort(), query).toEqual([...server].sort());
      expect(await page.locator("#status").innerText()).toBe(`${server.length} results for “${query}”`);
    }
    expect(await browserResults("chair")).toEqual(index.search("chair").map((hit) => hit.asset.id));
    expect(new URL(page.url()).searchParams.get("q")).toBe("chair");
    // Each file once (the page keeps what it fetched), all found: the shards of the words asked and of the records shown.
    const paths = pages.log.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(pages.log.filter((r) => r.status !== 200)).toEqual([]);
    const recordShards = paths.filter((p) => p.startsWith("/v1/browser/records/")).length;
    expect(recordShards).toBeGreaterThan(0);
    expect(recordShards).toBeLessThan(readdirSync(join(folder, "records")).length);

    expect(problems).toEqual([]);
    expect(external).toEqual([]);
  }, 60_000);
});
