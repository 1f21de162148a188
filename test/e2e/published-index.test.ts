/**
 * The browser example (examples/browser/index.html) in Chromium: it loads the live set's
 * index.json.gz from a loopback server under /v1/, opens it with DecompressionStream, indexes it
 * with MiniSearch and searches it. The page is served by a second loopback server (another origin,
 * as a page elsewhere would be, so CORS is exercised); its one CDN import, MiniSearch, is answered
 * with the local copy in node_modules; nothing leaves the machine.
 *
 * The queries are one word each, words the recorded records hold in one spelling only: no plural,
 * inflected or run-together form that the server's analysis (Porter2 stems, adjacent words written
 * together) would join and MiniSearch's plain lower-cased tokens would not. So both engines find
 * exactly the records holding the word, and the sets of hits agree. Their rankings are not the
 * same (MiniSearch's BM25+ over the fields as one list, against the server's field-weighted scores
 * and tie-breaks), so the sets are compared; for "chair" (five hits) the order agrees too.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssetIndex } from "../../core/search-index.ts";
import { listen, testApp } from "../helpers/app.ts";
import { launchChromium, missingBrowser } from "../helpers/chromium.ts";

const EXAMPLE = readFileSync(new URL("../../examples/browser/index.html", import.meta.url));
const MINISEARCH_CDN = "https://cdn.jsdelivr.net/npm/minisearch@7.2.0/dist/es/index.js";
const MINISEARCH_LOCAL = readFileSync(new URL("../../node_modules/minisearch/dist/es/index.js", import.meta.url));
/** The example shows at most this many results; no query below has more hits, so all are compared. */
const LIMIT = 20;
const QUERIES = ["chair", "leather", "snow", "castle", "marble", "asphalt"];

let api: Awaited<ReturnType<typeof listen>>;
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
  const app = await testApp();
  index = app.published.index;
  api = await listen(app.app);
  site = await serveExample();
  browser = await launchChromium();
  const context = await browser.newContext();
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("http://127.0.0.1:")) return route.continue();
    if (url === MINISEARCH_CDN) {
      // A module script from another origin needs CORS, as jsDelivr sends it.
      return route.fulfill({ status: 200, contentType: "text/javascript", headers: { "access-control-allow-origin": "*" }, body: MINISEARCH_LOCAL });
    }
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
  await api?.close();
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
  it("loads index.json.gz from the server's /v1/ and finds what the server's index finds", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    await page.goto(`${site.url}/?base=${encodeURIComponent(api.url)}`);
    await page.locator('body[data-query=""]').waitFor();
    expect(await page.locator("#status").innerText()).toBe(`${[...index.records()].length} assets, built ${index.builtAt}`);

    for (const query of QUERIES) {
      const server = index.search(query).map((hit) => hit.asset.id);
      expect(server.length, query).toBeGreaterThan(0);
      expect(server.length, query).toBeLessThanOrEqual(LIMIT);
      const shown = await browserResults(query);
      expect([...shown].sort(), query).toEqual([...server].sort());
      expect(await page.locator("#status").innerText()).toBe(`${server.length} results for “${query}”`);
    }
    expect(await browserResults("chair")).toEqual(index.search("chair").map((hit) => hit.asset.id));
    expect(new URL(page.url()).searchParams.get("q")).toBe("chair");

    expect(problems).toEqual([]);
    expect(external).toEqual([]);
  }, 60_000);
});
