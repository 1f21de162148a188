/**
 * The search page showing results as they arrive, in Chromium (as test/e2e/web.test.ts drives it):
 * with one live source held searching until the test releases it, the index's results are on the
 * page while the status strip shows that source searching, and the page then settles into the
 * final ranking, the JSON answer's. A newer search closes the older one's stream. Without
 * EventSource the page asks for the JSON answer, with skeleton cards until it comes.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchResponse } from "../../core/schemas/index.ts";
import { SOURCES } from "../../sources/index.ts";
import { listen, testApp } from "../helpers/app.ts";
import { launchChromium, missingBrowser } from "../helpers/chromium.ts";
import { fakeSearchUrl, heldSource } from "../helpers/fake-source.ts";
import { watchedPage } from "../helpers/watched-page.ts";

/** How long a page may take to show what a step waits for: a bound on the wait, never on the page's speed. */
const PAGE_WAIT = { timeout: 10_000 };
const QUERY = "arm chair";
/** Each test searches words of its own: the server's client keeps an upstream answer for minutes, so a query the slow source answered once answers at once. */
const NEWER_QUERY = "chair";
const JSON_QUERY = "wooden chair";
const VIEWPORT = { width: 1366, height: 900 };

let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;
let get: (path: string) => Promise<Response>;
/** Lets the slow source answer a query (once released, for good). */
let release: (q: string) => void;
/** The JSON answer's titles, once the page has settled (asked earlier, it would put the slow answer in the client's cache). */
const jsonTitles = async (q: string) => ((await (await get(`/v1/search?q=${encodeURIComponent(q)}`)).json()) as SearchResponse).results.map((r) => r.title);

beforeAll(async () => {
  if (missingBrowser) return;
  const slow = heldSource("slow");
  release = slow.release;
  // Timeouts out of reach: the slow source answers when the test releases it, however long the page takes.
  const env = { SOURCE_TIMEOUT_MS: "600000", SEARCH_DEADLINE_MS: "600000" };
  const { app, replay, get: getApp } = await testApp({ sources: [...SOURCES, slow.source], env });
  get = async (path) => getApp(path);
  for (const q of [QUERY, NEWER_QUERY, JSON_QUERY]) {
    replay.add({ url: fakeSearchUrl("slow", q), body: JSON.stringify({ items: [{ slug: "slow-chair", name: "Slow Arm Chair" }] }) });
  }
  server = await listen(app);
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const titles = (page: Page) => page.locator(".grid .card-title").allInnerTexts();
const strip = (page: Page) => page.locator(".status-strip");
/** A status chip's words on one line (its parts are flex items, which innerText would put on lines of their own). */
const chip = async (page: Page, kind: string, name: string) => {
  const found = strip(page).locator(`.status.${kind}`, { hasText: name });
  return (await found.count()) ? ((await found.textContent()) ?? "").replace(/\s+/g, " ").trim() : undefined;
};

describe("the search page with a slow live source", () => {
  it("shows the index results while the slow source is searching, then settles into the final ranking", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(browser, server.url, { viewport: VIEWPORT });
    const { page } = watched;
    await page.goto(`${server.url}/?q=${encodeURIComponent(QUERY)}`);

    // The index's results, while the slow source is still searching.
    await expect.poll(async () => (await titles(page))[0], PAGE_WAIT).toBe("Arm Chair 01");
    expect(await strip(page).locator("summary").innerText()).toMatch(/· 1 searching ·/);
    await strip(page).locator("summary").click();
    expect(await chip(page, "pending", "Fake slow")).toBe("Fake slow searching…");
    expect(await chip(page, "ok", "Poly Haven")).toBe("Poly Haven 6");
    expect(await titles(page)).not.toContain("Slow Arm Chair");
    expect(await page.getByRole("status").innerText()).toMatch(/^\d+ results so far, 1 more source searching…$/);
    expect(await page.locator(".grid").getAttribute("aria-busy")).toBe("true");

    // Then the slow source's chip and result, and the final ranking: the JSON answer's, in its order.
    release(QUERY);
    await expect.poll(() => chip(page, "ok", "Fake slow"), PAGE_WAIT).toBe("Fake slow 1");
    await expect.poll(() => page.getByRole("status").innerText(), PAGE_WAIT).toMatch(/^\d+ results for “arm chair”\.$/);
    expect(await titles(page)).toContain("Slow Arm Chair");
    expect(await titles(page)).toEqual(await jsonTitles(QUERY));
    expect(await strip(page).locator(".status.pending").count()).toBe(0);
    expect(await page.locator(".grid").getAttribute("aria-busy")).toBe("false");
    expect(watched.problems).toEqual([]);
    expect(watched.external).toEqual([]);
    await watched.context.close();
  }, 20_000);

  it("closes a search's stream when a newer search starts, before the older one's end", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(browser, server.url, {
      viewport: VIEWPORT,
      // Each EventSource the page opens, with the events it heard, to see which were closed before their `done`.
      init: (context) =>
        context.addInitScript(() => {
          const Original = window.EventSource;
          const opened: { url: string; source: EventSource; heard: string[] }[] = [];
          (window as unknown as { opened: typeof opened }).opened = opened;
          window.EventSource = class extends Original {
            constructor(url: string | URL, init?: EventSourceInit) {
              super(url, init);
              const entry = { url: String(url), source: this as EventSource, heard: [] as string[] };
              opened.push(entry);
              for (const name of ["index", "source", "done", "failed"]) this.addEventListener(name, () => entry.heard.push(name));
            }
          };
        }),
    });
    const { page } = watched;
    // The older search's slow source is never released; the newer one's answers at once (nothing recorded for it).
    release("brick");
    await page.goto(`${server.url}/?q=${encodeURIComponent(NEWER_QUERY)}`);
    await expect.poll(async () => (await titles(page)).length, PAGE_WAIT).toBeGreaterThan(0);
    const box = page.getByRole("searchbox", { name: "Search assets" });
    await box.fill("brick");
    await box.press("Enter");
    await expect.poll(() => page.getByRole("status").innerText(), PAGE_WAIT).toMatch(/results for “brick”\.$/);

    const streams = await page.evaluate(() =>
      (window as unknown as { opened: { url: string; source: EventSource; heard: string[] }[] }).opened.map((o) => ({
        q: new URL(o.url, location.href).searchParams.get("q"),
        closed: o.source.readyState === EventSource.CLOSED,
        heard: o.heard,
      })),
    );
    expect(streams.map(({ q, closed }) => ({ q, closed }))).toEqual([
      { q: NEWER_QUERY, closed: true },
      { q: "brick", closed: true },
    ]);
    // The older stream was closed by the page before its end (the slow source still searching), the newer one at its end.
    expect(streams[0]!.heard).toContain("index");
    expect(streams[0]!.heard).not.toContain("done");
    expect(streams[1]!.heard).toContain("done");
    expect(await titles(page)).not.toContain("Slow Arm Chair");
    expect(watched.problems).toEqual([]);
    await watched.context.close();
  }, 20_000);

  it("answers with JSON where the browser has no EventSource, with skeleton cards until it comes", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(browser, server.url, {
      viewport: VIEWPORT,
      init: (context) =>
        context.addInitScript(() => {
          delete (window as { EventSource?: unknown }).EventSource;
        }),
    });
    const { page } = watched;
    const accepts: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/v1/search")) accepts.push(request.headers().accept ?? "");
    });
    await page.goto(`${server.url}/?q=${encodeURIComponent(JSON_QUERY)}`);
    // The JSON answer waits for the slow source: skeleton cards meanwhile, hidden from assistive technology.
    await page.locator(".card.skeleton").first().waitFor();
    expect(await page.locator(".card.skeleton").first().getAttribute("aria-hidden")).toBe("true");
    expect(await page.getByRole("status").innerText()).toBe("Searching…");
    release(JSON_QUERY);
    await expect.poll(() => titles(page), PAGE_WAIT).toEqual(await jsonTitles(JSON_QUERY));
    expect(await page.locator(".card.skeleton").count()).toBe(0);
    expect(accepts.length).toBeGreaterThan(0);
    expect(accepts.some((accept) => accept.includes("text/event-stream"))).toBe(false);
    expect(watched.problems).toEqual([]);
    expect(watched.external).toEqual([]);
    await watched.context.close();
  }, 20_000);
});
