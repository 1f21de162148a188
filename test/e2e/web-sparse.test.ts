/**
 * The search page's note when little answers (the answer's `sparse`, core/search/sparse.ts), in
 * Chromium over the committed data: the reason in the page's words with the API's facts, the same
 * search with the type its words name, the link-only sites' searches; merged into "no results";
 * kept by "Load more" and by Back, cleared by a new search; from the event stream and from the
 * JSON answer alike. Axe-clean, 44 px targets on a phone, screenshots in test/e2e/screenshots/.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { SearchResponse } from "../../core/schemas/index.ts";
import { testApp } from "../helpers/app.ts";
import { browserSuite, DESKTOP, expectClean, LOOKS, lookedAt, PHONE, screenshot, smallerThanTargets } from "../helpers/browser-suite.ts";
import { missingBrowser } from "../helpers/chromium.ts";
import { axeViolations, watchedPage } from "../helpers/watched-page.ts";

let api: (path: string) => Promise<SearchResponse>;

const suite = browserSuite(async () => {
  const { app, get } = await testApp();
  api = async (path: string) => (await (await get(path)).json()) as SearchResponse;
  return app;
});

const note = (page: Page) => page.locator(".sparse-note");
const cards = (page: Page) => page.locator(".grid .card:not(.skeleton)");
const resultCount = (page: Page) => page.locator(".result-count").innerText();
const words = async (locator: Locator) => ((await locator.textContent()) ?? "").replace(/\s+/g, " ").trim();

/** Waits until the search for `q` is done: the live region states its count, or that there is none. */
async function done(page: Page, q: string): Promise<void> {
  await expect.poll(() => resultCount(page)).toMatch(new RegExp(`^((Showing [\\d,]+ of )?[\\d,]+ results|No results) for “${q}”\\.$`));
}

/** The note's suggestion links are the answer's, each its label, its exact search address, in a new tab. */
async function expectSuggestions(page: Page, answer: SearchResponse): Promise<void> {
  const suggestions = answer.sparse!.suggestions;
  expect(suggestions.length).toBeGreaterThan(0);
  const links = note(page).locator(".sparse-further a");
  expect(await links.count()).toBe(suggestions.length);
  expect(await words(note(page).locator(".sparse-further > span"))).toBe("Look further:");
  for (const [i, s] of suggestions.entries()) {
    const link = links.nth(i);
    expect(await link.getAttribute("href")).toBe(s.searchUrl);
    expect(await link.getAttribute("target")).toBe("_blank");
    expect(await link.getAttribute("rel")).toContain("noopener");
    // Its name is the label, and says it opens a new tab (the arrow beside it is hidden from assistive technology).
    expect(await words(link)).toBe(`${s.label}↗ (opens a new tab)`);
    expect(
      await note(page)
        .getByRole("link", { name: `${s.label} (opens a new tab)`, exact: true })
        .getAttribute("href"),
    ).toBe(s.searchUrl);
  }
}

/** Where an element sits in the document relative to another: true when `a` comes before `b`. */
const comesBefore = async (a: Locator, b: Locator) =>
  a.evaluate((x, y) => Boolean(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING), await b.elementHandle());

describe("the sparse-answer note at 1366 px", () => {
  it("says how few answer and where else to look, right after the grid, and a new search clears it", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;

    await page.goto(`${suite.server.url}/?q=arm+chair`);
    await done(page, "arm chair");
    const armChair = await api("/v1/search?q=arm+chair&facets=true");
    const n = armChair.results.length;
    expect(armChair.sparse).toMatchObject({ reason: `only ${n} results answer the query well`, shown: n });
    expect(armChair.sparse?.nearestType).toBeUndefined();
    await expect.poll(() => cards(page).count()).toBe(n);
    expect(await note(page).count()).toBe(1);
    expect(await note(page).locator(".sparse-why").innerText()).toBe(`Only ${n} results answer “arm chair” well.`);
    await expectSuggestions(page, armChair);
    expect(await note(page).locator(".sparse-type").count()).toBe(0);
    // One note: the no-results text is not shown beside it.
    expect(await page.locator(".no-results").count()).toBe(0);
    // After the grid, below its last card.
    const grid = (await page.locator(".grid").boundingBox())!;
    expect((await note(page).boundingBox())!.y).toBeGreaterThanOrEqual(grid.y + grid.height);
    expect(await comesBefore(page.locator(".grid"), note(page))).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "sparse-1366");

    // A new search whose first page is full: no note.
    const box = page.getByRole("searchbox", { name: "Search assets" });
    await box.fill("brick");
    await box.press("Enter");
    await done(page, "brick");
    expect((await api("/v1/search?q=brick")).sparse).toBeUndefined();
    await expect.poll(() => cards(page).count()).toBe(24);
    expect(await note(page).count()).toBe(0);

    // Back: the search before, from memory, with its note.
    await page.goBack();
    await done(page, "arm chair");
    expect(await note(page).locator(".sparse-why").innerText()).toBe(`Only ${n} results answer “arm chair” well.`);
    await expectSuggestions(page, armChair);

    expectClean(watched);
    await watched.context.close();
  }, 60_000);

  it("links a typed search to the type its words name, and that search has its own answer", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;

    await page.goto(`${suite.server.url}/?q=wood+texture&type=model`);
    await done(page, "wood texture");
    const models = await api("/v1/search?q=wood+texture&type=model");
    expect(models.sparse?.nearestType).toBe("texture");
    expect(models.sparse?.reason).toBe(`only ${models.results.length} results answer the query well`);
    await expect.poll(() => cards(page).count()).toBe(models.results.length);
    expect(await note(page).locator(".sparse-why").innerText()).toBe(`Only ${models.results.length} results answer “wood texture” well.`);
    const nearest = note(page).locator(".sparse-type a");
    expect(await nearest.getAttribute("href")).toBe("/?q=wood+texture&type=texture");
    expect(await nearest.innerText()).toBe("Search Textures instead");
    expect(await nearest.getAttribute("target")).toBeNull();
    // The suggestions are this typed search's (Fab's listing type follows the filter).
    await expectSuggestions(page, models);
    expect(models.sparse!.suggestions.find((s) => s.provider === "fab")!.searchUrl).toContain("listing_types=3d-model");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "sparse-typed-1366");

    // Taking it: the textures' first page is full, so the note goes.
    await nearest.click();
    await expect.poll(() => new URL(page.url()).searchParams.get("type")).toBe("texture");
    await done(page, "wood texture");
    expect((await api("/v1/search?q=wood+texture&type=texture")).sparse).toBeUndefined();
    expect(await note(page).count()).toBe(0);

    expectClean(watched);
    await watched.context.close();
  }, 60_000);

  it("is the no-results message when nothing answers, one note and not two", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;

    await page.goto(`${suite.server.url}/?q=explosion+sound&type=model`);
    await done(page, "explosion sound");
    const answer = await api("/v1/search?q=explosion+sound&type=model");
    expect(answer.results).toEqual([]);
    expect(answer.sparse?.reason).toBe("nothing answers the query");
    expect(await resultCount(page)).toBe("No results for “explosion sound”.");
    expect(await page.locator(".no-results").count()).toBe(1);
    expect(await note(page).count()).toBe(1);
    expect(await note(page).locator(".sparse-why").innerText()).toBe(
      "Nothing answers “explosion sound”. Try fewer or other words, or take a filter off; the sources' status above says which sources answered.",
    );
    const nearest = note(page).locator(".sparse-type a");
    expect(await nearest.getAttribute("href")).toBe("/?q=explosion+sound&type=audio");
    expect(await nearest.innerText()).toBe("Search Audio instead");
    await expectSuggestions(page, answer);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "sparse-none-1366");

    expectClean(watched);
    await watched.context.close();
  }, 30_000);

  it("stays through Load more, before the button, with the longer answer's word", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;

    await page.goto(`${suite.server.url}/?q=rock+model&type=texture`);
    await done(page, "rock model");
    const first = await api("/v1/search?q=rock+model&type=texture");
    const share = first.sparse?.bestShare;
    expect(share).toBeLessThan(0.5);
    expect(first.sparse?.reason).toBe(`the best result matches only ${Math.round(share! * 100)} % of the query's words`);
    expect(first.sparse?.nearestType).toBe("model");
    expect(await cards(page).count()).toBe(first.results.length);
    const why = `The best result matches only ${Math.round(share! * 100)} % of the words in “rock model”.`;
    expect(await note(page).locator(".sparse-why").innerText()).toBe(why);
    expect(await note(page).locator(".sparse-type a").getAttribute("href")).toBe("/?q=rock+model&type=model");
    const more = page.getByRole("button", { name: "Load more" });
    expect(await comesBefore(note(page), more)).toBe(true);
    await expectSuggestions(page, first);

    const longer = await api("/v1/search?q=rock+model&type=texture&limit=48");
    expect(longer.sparse).toEqual({ ...first.sparse, shown: longer.results.length });
    await more.click();
    await expect.poll(() => new URL(page.url()).searchParams.get("page")).toBe("2");
    await expect.poll(() => cards(page).count()).toBeGreaterThan(first.results.length);
    expect(await note(page).count()).toBe(1);
    expect(await note(page).locator(".sparse-why").innerText()).toBe(why);
    await expectSuggestions(page, longer);
    expect(await axeViolations(page)).toEqual([]);

    expectClean(watched);
    await watched.context.close();
  }, 60_000);

  it("comes from the JSON answer too, where the browser has no EventSource", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, {
      viewport: DESKTOP,
      init: (context) =>
        context.addInitScript(() => {
          delete (window as { EventSource?: unknown }).EventSource;
        }),
    });
    const { page } = watched;
    await page.goto(`${suite.server.url}/?q=arm+chair`);
    await done(page, "arm chair");
    const armChair = await api("/v1/search?q=arm+chair&facets=true");
    expect(await note(page).locator(".sparse-why").innerText()).toBe(`Only ${armChair.results.length} results answer “arm chair” well.`);
    await expectSuggestions(page, armChair);
    expectClean(watched);
    await watched.context.close();
  }, 30_000);
});

describe("the sparse-answer note in every look", () => {
  for (const look of LOOKS) {
    const name = `${look.viewport.width}${look.colorScheme === "dark" ? "-dark" : ""}`;
    it(`is axe-clean at ${name}, its links 44 px targets, nothing wider than a phone`, async () => {
      if (missingBrowser) throw new Error(missingBrowser);
      const watched = await lookedAt(suite, look);
      const { page } = watched;

      await page.goto(`${suite.server.url}/?q=wood+texture&type=model`);
      await done(page, "wood texture");
      await note(page).waitFor();
      expect(await smallerThanTargets(page, ".sparse-note a")).toEqual([]);
      if (look.viewport === PHONE) expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `sparse-typed-${name}`);

      await page.goto(`${suite.server.url}/?q=explosion+sound&type=model`);
      await done(page, "explosion sound");
      expect(await smallerThanTargets(page, ".sparse-note a")).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `sparse-none-${name}`);

      expectClean(watched);
      await watched.context.close();
    }, 30_000);
  }
});
