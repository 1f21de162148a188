/**
 * The search page in a real browser: Debian's Chromium driven by playwright-core, against the whole
 * app served on loopback over the recorded responses, at 1366 px and 390 px, light and dark.
 * Nothing leaves the machine: every request off the app's origin is aborted, and none is expected
 * (thumbnails come through the app). Every state is checked by axe-core, and screenshots of each
 * are written to test/e2e/screenshots/ as the run's artifacts.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Catalog, SearchResponse } from "../../core/schemas/index.ts";
import { testApp } from "../helpers/app.ts";
import { browserSuite, DESKTOP, expectClean, PHONE, screenshot } from "../helpers/browser-suite.ts";
import { missingBrowser } from "../helpers/chromium.ts";
import { axeViolations, watchedPage } from "../helpers/watched-page.ts";

/** What `/` may transfer before any thumbnail: the page, its stylesheet and its scripts, compressed. */
const ENTRY_BUDGET = 100_000;

let api: <T>(path: string) => Promise<T>;

const suite = browserSuite(async () => {
  const { app, get } = await testApp();
  api = async <T>(path: string) => (await (await get(path)).json()) as T;
  return app;
});

const cards = (page: Page) => page.locator(".grid .card:not(.skeleton)");
const titles = (page: Page) => page.locator(".grid .card-title").allInnerTexts();
/** An element's words on one line (a chip's parts are flex items, which innerText would put on lines of their own). */
const words = async (locator: Locator) => ((await locator.textContent()) ?? "").replace(/\s+/g, " ").trim();
const resultCount = (page: Page) => page.locator(".result-count").innerText();
/** The ids of the cards shown, from their links (`?…&asset=<id>`). */
const cardIds = async (page: Page) =>
  (await page.locator(".grid .card-title").evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).href))).map(
    (href) => new URL(href).searchParams.get("asset") ?? "",
  );

/** Waits until the search for `q` has settled: the live region states its count. */
async function settled(page: Page, q: string): Promise<void> {
  await expect.poll(() => resultCount(page)).toMatch(new RegExp(`^(Showing [\\d,]+ of )?[\\d,]+ results for “${q}”\\.$`));
}

/** A filter chip's count (undefined when it shows none). */
async function chipCount(page: Page, scope: string, name: string): Promise<string | undefined> {
  const chip = page.locator(scope).getByRole("button", { name: new RegExp(`^${name}`) });
  const count = chip.locator(".count");
  return (await count.count()) ? count.innerText() : undefined;
}

/** Headings from the top: one h1, and no level skipped on the way down. */
async function headingLevels(page: Page): Promise<number[]> {
  return page
    .locator("h1, h2, h3, h4, h5, h6")
    .evaluateAll((hs) => hs.filter((h) => (h as HTMLElement).offsetParent !== null).map((h) => Number(h.tagName[1])));
}
function expectHeadingsInOrder(levels: number[]): void {
  expect(levels[0]).toBe(1);
  expect(levels.filter((l) => l === 1)).toHaveLength(1);
  for (let i = 1; i < levels.length; i++) expect(levels[i]!).toBeLessThanOrEqual(levels[i - 1]! + 1);
}

/** Every visible control smaller than a 44 px touch target: a checkbox counts as its label, a card's title link as its card (the link covers it). */
function smallTargets(page: Page): Promise<string[]> {
  return page.locator("header a, header button, header input, main a, main button, main input, main select, main summary").evaluateAll((els) =>
    els.flatMap((el) => {
      const target = el.matches(".card-title") ? el.closest(".card") : el.matches("input[type=checkbox]") ? el.closest("label") : el;
      const box = (target as HTMLElement).getBoundingClientRect();
      if (!box.width || !box.height) return []; // folded away
      return box.height < 44 || box.width < 44
        ? [`${el.tagName.toLowerCase()} "${(el.textContent ?? "").trim()}" ${Math.round(box.width)}×${Math.round(box.height)}`]
        : [];
    }),
  );
}

describe("the search page in Chromium at 1366 px", () => {
  it("shows the census without searching, then searches, filters, pages, goes back and opens an asset", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page, requests } = watched;
    const sizes: Promise<number>[] = [];
    page.on("requestfinished", (request) => {
      if (["document", "stylesheet", "script"].includes(request.resourceType()))
        sizes.push(request.sizes().then((s) => s.responseBodySize + s.responseHeadersSize));
    });

    // The empty state: the census's totals and the sources, and no search at all.
    const catalog = await api<Catalog>("/v1/catalog");
    await page.goto(`${suite.server.url}/`);
    const totals = page.locator(".totals");
    await expect
      .poll(() => totals.innerText())
      .toContain(`${catalog.totals.listings.count.toLocaleString("en-US")}${catalog.totals.listings.atLeast ? "+" : ""}`);
    expect(await totals.innerText()).toContain(catalog.totals.cc0.count.toLocaleString("en-US"));
    const sources = page.locator(".source-list li");
    await expect.poll(() => sources.count()).toBeGreaterThan(20);
    const polyHaven = await sources.filter({ hasText: "Poly Haven" }).innerText();
    expect(polyHaven).toMatch(/index/);
    expect(polyHaven).toMatch(/Models, Textures, HDRIs/);
    expect(await sources.filter({ hasText: "Sketchfab" }).innerText()).toMatch(/live/);
    expect(await sources.filter({ has: page.getByRole("link", { name: "Fab", exact: true }) }).innerText()).toMatch(/link/);
    await page.waitForLoadState("networkidle");
    expect(requests.filter((r) => r.startsWith("/v1/search"))).toEqual([]);
    expect(await page.getByRole("main").count()).toBe(1);
    expectHeadingsInOrder(await headingLevels(page));
    // What / costs before any thumbnail: the page, its stylesheet and scripts as sent (compressed).
    const transferred = (await Promise.all(sizes)).reduce((a, b) => a + b, 0);
    expect(transferred).toBeGreaterThan(0);
    expect(transferred).toBeLessThanOrEqual(ENTRY_BUDGET);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "empty-1366");

    // A search typed into the labelled box: the results, each card with its source's name, price and licence.
    const box = page.getByRole("searchbox", { name: "Search assets" });
    await box.fill("arm chair");
    await box.press("Enter");
    await settled(page, "arm chair");
    const armChair = await api<SearchResponse>("/v1/search?q=arm+chair&facets=true");
    expect(await titles(page)).toEqual(armChair.results.map((r) => r.title));
    const first = cards(page).first();
    expect(await first.locator(".card-title").innerText()).toBe("Arm Chair 01");
    expect(await first.locator(".source").innerText()).toBe("Poly Haven");
    expect(await first.locator(".badge").innerText()).toBe("CC0-1.0");
    expect(await first.locator(".price").innerText()).toBe("Free");
    expect(await first.locator(".card-formats").innerText()).toBe("GLTF · BLEND · FBX · USD");
    const thumb = first.locator("img");
    expect(await thumb.getAttribute("src")).toBe("/v1/assets/polyhaven%3AArmChair_01/thumbnail?w=320");
    // The first row's pictures load at once (the largest paint of the page).
    expect(await thumb.getAttribute("loading")).toBe("eager");
    expect(await thumb.getAttribute("width")).toBe("320");
    expect(await thumb.getAttribute("height")).toBe("320");
    expect(await thumb.getAttribute("alt")).toBe("Arm Chair 01");
    expect(new URL(page.url()).searchParams.get("q")).toBe("arm chair");
    expect(await page.getByRole("status").innerText()).toBe(`${armChair.results.length} results for “arm chair”.`);
    // The facet counts beside the options are the API's.
    const cc0 = armChair.facets!.license.find((f) => f.value === "cc0")!.count;
    expect(await chipCount(page, ".type-chips", "Models")).toBe(String(armChair.facets!.type.find((f) => f.value === "model")!.count));
    expect(await chipCount(page, ".filters", "CC0")).toBe(String(cc0));
    expectHeadingsInOrder(await headingLevels(page));
    expect(await axeViolations(page)).toEqual([]);

    // The status strip: folded to one line; open, a link to search each link-only site, and never a source's own error text.
    const strip = page.locator(".status-strip");
    await strip.locator("summary").click();
    const fab = armChair.providers.find((p) => p.provider === "fab")!;
    expect(fab.searchUrl).toBe("https://www.fab.com/search?q=arm+chair");
    const fabLink = strip.getByRole("link", { name: /^Search on Fab/ });
    expect(await fabLink.getAttribute("href")).toBe(fab.searchUrl);
    expect(await fabLink.getAttribute("target")).toBe("_blank");
    expect(await fabLink.getAttribute("rel")).toContain("noopener");
    const stripText = await strip.innerText();
    const failed = armChair.providers.filter((p) => p.status === "error");
    expect(failed.length).toBeGreaterThan(0);
    for (const p of failed) {
      expect(await words(strip.locator(".status.failed", { hasText: p.name }))).toBe(`${p.name} failed`);
      expect(stripText).not.toContain(p.error!.slice(0, 40));
    }
    expect(await words(strip.locator(".status.ok", { hasText: "Poly Haven" }))).toBe("Poly Haven 6");
    expect(await words(strip.locator(".status.skipped", { hasText: "Freesound" }))).toBe("Freesound skipped: needs an API key on this server");
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "results-1366");

    // A type chip: a new search whose URL holds the filter, and whose counts follow it.
    const models = page.locator(".type-chips").getByRole("button", { name: /^Models/ });
    await models.click();
    await expect.poll(() => new URL(page.url()).searchParams.get("type")).toBe("model");
    const modelsOnly = await api<SearchResponse>("/v1/search?q=arm+chair&type=model&facets=true");
    const cc0Models = modelsOnly.facets!.license.find((f) => f.value === "cc0")!.count;
    // The filter leaves out the icon set among the answers, so the page must change with it.
    expect(modelsOnly.results.length).toBeLessThan(armChair.results.length);
    await expect.poll(() => chipCount(page, ".filters", "CC0")).toBe(String(cc0Models));
    await settled(page, "arm chair");
    expect(await titles(page)).toEqual(modelsOnly.results.map((r) => r.title));
    expect(await models.getAttribute("aria-pressed")).toBe("true");
    // A second type would widen the search: the facets cannot say by how much, so no count is shown.
    expect(await chipCount(page, ".type-chips", "Textures")).toBeUndefined();
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "filtered-1366");

    // Back: the search before the filter, its results and its counts.
    await page.goBack();
    await expect.poll(() => chipCount(page, ".filters", "CC0")).toBe(String(cc0));
    expect(new URL(page.url()).searchParams.has("type")).toBe(false);
    expect(await models.getAttribute("aria-pressed")).toBe("false");
    expect(await titles(page)).toEqual(armChair.results.map((r) => r.title));

    // Load more: the same ranking asked for two pages, its new results appended without repeating a card already shown.
    await box.fill("brick");
    await box.press("Enter");
    await settled(page, "brick");
    const brick = await api<SearchResponse>("/v1/search?q=brick");
    await expect.poll(() => cardIds(page)).toEqual(brick.results.map((r) => r.id));
    // Pictures below the first row load when scrolled near.
    expect(await cards(page).nth(4).locator("img").getAttribute("loading")).toBe("lazy");
    const next = await api<SearchResponse>("/v1/search?q=brick&limit=48");
    const shown = new Set(brick.results.flatMap((r) => [r.id, ...(r.alsoOn ?? []).map((o) => o.id)]));
    const added = next.results.filter((r) => !shown.has(r.id)).map((r) => r.id);
    expect(added.length).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Load more" }).click();
    await expect.poll(() => cards(page).count()).toBe(brick.results.length + added.length);
    const ids = await cardIds(page);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...brick.results.map((r) => r.id), ...added]);
    expect(new URL(page.url()).searchParams.get("page")).toBe("2");
    // Focus moves to the first card added, where reading goes on.
    expect(await page.evaluate(() => (document.activeElement as HTMLAnchorElement | null)?.href)).toContain(encodeURIComponent(added[0]!));
    expect(await axeViolations(page)).toEqual([]);

    // Back again: the search before this one, as it was.
    await page.goBack();
    await expect.poll(() => titles(page)).toEqual(armChair.results.map((r) => r.title));
    expect(await box.inputValue()).toBe("arm chair");
    expect(new URL(page.url()).searchParams.get("q")).toBe("arm chair");

    // A card with a modifier key opens as the browser would (here a new tab); a plain click opens the asset over the results.
    const [tab] = await Promise.all([watched.context.waitForEvent("page"), first.locator(".card-title").click({ modifiers: ["Control"] })]);
    expect(new URL(tab.url()).searchParams.get("asset")).toBe("polyhaven:ArmChair_01");
    await tab.close();
    expect(new URL(page.url()).searchParams.has("asset")).toBe(false);
    await first.locator(".card-title").click();
    await expect.poll(() => new URL(page.url()).searchParams.get("asset")).toBe("polyhaven:ArmChair_01");
    expect(new URL(page.url()).searchParams.get("q")).toBe("arm chair");
    await page.getByRole("dialog").getByRole("heading", { name: "Arm Chair 01" }).waitFor();
    // The results stay behind it: opening an asset searches nothing again.
    const searches = requests.filter((r) => r.startsWith("/v1/search")).length;
    await page.keyboard.press("Escape");
    await expect.poll(() => new URL(page.url()).searchParams.has("asset")).toBe(false);
    expect(await titles(page)).toEqual(armChair.results.map((r) => r.title));
    expect(requests.filter((r) => r.startsWith("/v1/search")).length).toBe(searches);

    expectClean(watched);
    await watched.context.close();
  }, 60_000);
});

describe("the search page in Chromium at 390 px", () => {
  it("shows two cards a row, folds the filters, keeps every target 44 px, and filters from the folded panel", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: PHONE, isMobile: true, hasTouch: true });
    const { page, requests } = watched;

    await page.goto(`${suite.server.url}/`);
    await page.locator(".totals").waitFor();
    await page.waitForLoadState("networkidle");
    expect(requests.filter((r) => r.startsWith("/v1/search"))).toEqual([]);
    expect(await smallTargets(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "empty-390");

    // A shared search opened directly.
    await page.goto(`${suite.server.url}/?q=arm+chair`);
    await settled(page, "arm chair");
    const [a, b, c] = await Promise.all([0, 1, 2].map((i) => cards(page).nth(i).boundingBox()));
    expect(a!.y).toBe(b!.y);
    expect(b!.x).toBeGreaterThan(a!.x + a!.width);
    expect(c!.y).toBeGreaterThan(a!.y + a!.height);
    expect(a!.width).toBeGreaterThan(140);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // The filters are folded, so the results start on the first screen.
    expect(await page.locator(".filters").getAttribute("open")).toBeNull();
    expect(a!.y).toBeLessThan(PHONE.height);
    expect(await smallTargets(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "results-390");

    await page.locator(".filters summary").click();
    await page.locator(".filters").getByRole("button", { name: /^CC0/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get("license")).toBe("cc0");
    await settled(page, "arm chair");
    const cc0Only = await api<SearchResponse>("/v1/search?q=arm+chair&license=cc0");
    expect(await titles(page)).toEqual(cc0Only.results.map((r) => r.title));
    expect(await page.locator(".filters").getByRole("button", { name: /^CC0/ }).getAttribute("aria-pressed")).toBe("true");
    expect(await smallTargets(page)).toEqual([]);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "filtered-390");

    expectClean(watched);
    await watched.context.close();
  }, 60_000);
});

describe("the search page in the dark theme", () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`passes axe-core at ${viewport.width} px, empty and with results and their sources' status open`, async () => {
      if (missingBrowser) throw new Error(missingBrowser);
      const watched = await watchedPage(suite.browser, suite.server.url, { viewport, colorScheme: "dark" });
      const { page } = watched;
      await page.goto(`${suite.server.url}/`);
      await page.locator(".totals").waitFor();
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(17, 19, 24)");
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `empty-${viewport.width}-dark`);

      await page.goto(`${suite.server.url}/?q=arm+chair&type=model,texture`);
      await settled(page, "arm chair");
      await page.locator(".status-strip summary").click();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `results-${viewport.width}-dark`);
      expectClean(watched);
      await watched.context.close();
    }, 30_000);
  }
});
