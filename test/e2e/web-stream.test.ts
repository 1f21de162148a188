/**
 * The search page (server/web/index.html) showing results as they arrive, in Chromium (as
 * test/e2e/web.test.ts drives it): with one live source delayed 2 s by the replay dispatcher, the
 * index's results are on the page while that source is still searching, and the page then settles
 * into the final ranking, the JSON answer's. Without EventSource the page falls back to JSON.
 */
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SearchResponse } from "../../core/schemas/index.ts";
import { SOURCES } from "../../sources/index.ts";
import { listen, testApp } from "../helpers/app.ts";
import { launchChromium, missingBrowser } from "../helpers/chromium.ts";
import { fakeSearchUrl, fakeSource } from "../helpers/fake-source.ts";

const DELAY_MS = 2_000;
const QUERY = "arm chair";

let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;
let get: (path: string) => Promise<Response>;
/** The JSON answer's titles, once the page has settled (asked earlier, it would put the slow answer in the client's cache). */
const jsonTitles = async () => SearchResponse.parse(await (await get(`/v1/search?q=${encodeURIComponent(QUERY)}`)).json()).results.map((r) => r.title);
/** Console errors, uncaught exceptions and 4xx/5xx answers of the app, checked at the end of each test. */
const problems: string[] = [];

beforeAll(async () => {
  if (missingBrowser) return;
  const { app, replay, get: getApp } = await testApp({ sources: [...SOURCES, fakeSource("slow")] });
  get = async (path) => getApp(path);
  replay.add({ url: fakeSearchUrl("slow", QUERY), body: JSON.stringify({ items: [{ slug: "slow-chair", name: "Slow Arm Chair" }] }), delayMs: DELAY_MS });
  server = await listen(app);
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** A page of a fresh context: only the app is reachable (the thumbnails on the sources' CDNs are aborted). */
async function openPage(init?: (context: BrowserContext) => Promise<unknown>) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const origin = new URL(server.url).origin;
  await context.route("**/*", (route) => (new URL(route.request().url()).origin === origin ? route.continue() : route.abort("blockedbyclient")));
  await init?.(context);
  const page = await context.newPage();
  page.setDefaultTimeout(5_000);
  page.on("pageerror", (error) => problems.push(`uncaught exception: ${error.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error" && msg.location().url.startsWith(origin)) problems.push(`console error: ${msg.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400 && response.url().startsWith(origin)) problems.push(`HTTP ${response.status()} for ${response.url()}`);
  });
  return page;
}

describe("the search page with a slow live source", () => {
  it("shows the index results before the delayed source answers, then settles into the final ranking", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const page = await openPage();
    const titles = () => page.locator("#results .card .title").allInnerTexts();
    const statuses = () => page.locator("#providers .source").allInnerTexts();
    const started = Date.now();
    await page.goto(`${server.url}/?q=${encodeURIComponent(QUERY)}`);

    // The index's results, while the slow source is still searching.
    await expect.poll(async () => (await titles())[0], { timeout: DELAY_MS }).toBe("Arm Chair 01");
    const early = await statuses();
    const firstShown = Date.now() - started;
    expect(early.find((s) => s.startsWith("slow:"))).toMatch(/^slow: searching…/);
    expect(early.find((s) => s.startsWith("Poly Haven:"))).toMatch(/^Poly Haven: ok \(6 of 6\)/);
    expect(await titles()).not.toContain("Slow Arm Chair");
    expect(await page.locator("#status").innerText()).toMatch(/^Waiting for \d+ more sources?…$/);

    // Then the slow source's line and result, and the final ranking: the JSON answer's, in its order.
    await expect.poll(async () => (await statuses()).find((s) => s.startsWith("Fake slow:")), { timeout: DELAY_MS * 3 }).toMatch(/^Fake slow: ok \(1 of 1\)/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DELAY_MS);
    expect(firstShown).toBeLessThan(DELAY_MS);
    await expect.poll(titles).toContain("Slow Arm Chair");
    expect(await titles()).toEqual(await jsonTitles());
    expect(await page.locator("#status").innerText()).toBe("");
    expect(problems).toEqual([]);
  }, 20_000);

  it("answers with JSON where the browser has no EventSource", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const page = await openPage((context) =>
      context.addInitScript(() => {
        delete (window as { EventSource?: unknown }).EventSource;
      }),
    );
    const requests: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/v1/search")) requests.push(request.headers().accept ?? "");
    });
    await page.goto(`${server.url}/?q=${encodeURIComponent(QUERY)}`);
    await expect.poll(() => page.locator("#results .card .title").allInnerTexts(), { timeout: DELAY_MS * 3 }).toEqual(await jsonTitles());
    expect(requests.some((accept) => accept.includes("text/event-stream"))).toBe(false);
    expect(problems).toEqual([]);
  }, 20_000);
});
