/**
 * The pages around the search in a real browser (Debian's Chromium driven by playwright-core),
 * against the whole app on loopback over the recordings: `/sources` lists every source of the
 * registry with its census and sorts; `/sources/polyhaven` shows its census, its history as a
 * chart and example searches that open the search page; `/stats` shows its usage windows (after
 * one search), health and census charts; an unknown source is a 404 page. The history is a week of points made from
 * the census, so the charts have days to draw. Each page passes axe-core (no critical or serious
 * violation) at 1366 px and 390 px, light and dark, and its screenshots go to test/e2e/screenshots/.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { AssetType, Catalog, CatalogHistoryPoint, Provider, Stats } from "../../core/schemas/index.ts";
import { TYPE_NAMES } from "../../web/search/labels.ts";
import { testApp } from "../helpers/app.ts";
import { browserSuite, DESKTOP, expectClean, LOOKS, lookedAt, PHONE, screenshot, smallerThanTargets } from "../helpers/browser-suite.ts";
import { missingBrowser } from "../helpers/chromium.ts";
import { axeViolations, type WatchedPage, watchedPage } from "../helpers/watched-page.ts";

const DAYS = 7;
/** The last days of the week, whose points have `byType`. */
const TYPED_DAYS = 4;

let catalog: Catalog;
let providers: Provider[];
let points: CatalogHistoryPoint[];

/**
 * A week of history ending on the census's day, each earlier day a little smaller, one of them
 * carried over for Poly Haven; the first days written before points kept their listings by type.
 */
function week(today: CatalogHistoryPoint): CatalogHistoryPoint[] {
  return Array.from({ length: DAYS }, (_, i) => {
    const back = DAYS - 1 - i;
    const scale = (n: number) => Math.round(n * (1 - back * 0.03));
    const date = new Date(Date.parse(`${today.date}T00:00:00Z`) - back * 86_400_000).toISOString();
    const { byType, ...rest } = today;
    return {
      ...rest,
      ...(back < TYPED_DAYS ? { byType: Object.fromEntries(Object.entries(byType!).map(([type, n]) => [type, scale(n)])) } : {}),
      date: date.slice(0, 10),
      countedAt: date,
      listings: scale(today.listings),
      free: scale(today.free),
      cc0: scale(today.cc0),
      directDownload: scale(today.directDownload),
      sources: Object.fromEntries(Object.entries(today.sources).map(([id, n]) => [id, scale(n)])),
      stale: back === 2 ? ["polyhaven"] : [],
    };
  });
}

const suite = browserSuite(async () => {
  // A required key set (Freesound's: the one search below asks for models, not sounds), so the key column shows each state.
  const { app, published, get } = await testApp({ env: { FREESOUND_API_KEY: "e2e-key" } });
  points = week(published.history.points.at(-1)!);
  published.history = { points };
  // One search before any page asks for the stats (cached a minute): the breakdowns and the live sources' health have something to show.
  await get("/v1/search?q=arm+chair&type=model");
  catalog = (await (await get("/v1/catalog")).json()) as Catalog;
  providers = ((await (await get("/v1/providers")).json()) as { providers: Provider[] }).providers;
  return app;
});

const listed = (count: number, atLeast?: boolean) => `${count.toLocaleString("en-US")}${atLeast ? "+" : ""}`;

/** Every chart scrolled to (a chart is drawn when it comes near the screen), and drawn. */
async function chartsDrawn(page: Page, count: number): Promise<void> {
  const charts = page.locator(".chart");
  await expect.poll(() => charts.count()).toBe(count);
  for (let i = 0; i < count; i++) {
    await charts.nth(i).scrollIntoViewIfNeeded();
    await charts.nth(i).locator("canvas").waitFor();
  }
}

/** Each page at rest: its data shown, its charts drawn. */
const READY: Record<string, (page: Page) => Promise<unknown>> = {
  "/sources": (page) => expect.poll(() => page.locator(".sources-table td.num").first().innerText()).not.toBe("—"),
  "/sources/polyhaven": (page) => chartsDrawn(page, 1),
  "/stats": (page) => chartsDrawn(page, 4 + Object.keys(points.at(-1)!.byType!).length),
};

async function open(watched: WatchedPage, path: keyof typeof READY): Promise<void> {
  await watched.page.goto(`${suite.server.url}${path}`);
  await READY[path]!(watched.page);
  await watched.page.waitForLoadState("networkidle");
}

/** Headings from the top: one h1, and no level skipped on the way down. */
async function expectHeadingsInOrder(page: Page): Promise<void> {
  const levels = await page.locator("h1, h2, h3, h4").evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));
  expect(levels.filter((l) => l === 1)).toHaveLength(1);
  expect(levels[0]).toBe(1);
  for (let i = 1; i < levels.length; i++) expect(levels[i]!).toBeLessThanOrEqual(levels[i - 1]! + 1);
}

/** Every visible link, button and summary smaller than a 44 px target. */
const smallTargets = (page: Page) => smallerThanTargets(page, "a, button, summary");

describe("the pages around the search in Chromium", () => {
  it("/sources lists every source with its census, sorts, and opens a source whose example search opens the search page", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;
    await open(watched, "/sources");
    expect(await page.title()).toBe("Sources · asset-search");
    expect(await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Sources" }).getAttribute("aria-current")).toBe("page");

    // Every source of the registry, with its census total where it is counted.
    const rows = page.locator(".sources-table tbody tr");
    expect(await rows.count()).toBe(providers.length);
    for (const p of providers) {
      const row = rows.filter({ has: page.getByRole("rowheader", { name: p.name, exact: true }) });
      const census = catalog.sources.find((c) => c.id === p.id);
      expect(await row.locator("td").first().innerText(), p.id).toContain(census ? listed(census.total, census.atLeast) : "—");
    }
    // Most listings first; a click on Free sorts by it, largest first, into the address.
    const names = () => page.locator(".sources-table tbody th").allInnerTexts();
    const byListings = [...catalog.sources].sort((a, b) => b.total - a.total);
    expect((await names())[0]).toBe(byListings[0]!.name);
    await page.getByRole("button", { name: /^Free/ }).click();
    await expect.poll(() => new URL(page.url()).search).toBe("?sort=free&order=descending");
    const byFree = [...catalog.sources].filter((c) => c.free !== undefined).sort((a, b) => b.free! - a.free!);
    expect((await names())[0]).toBe(byFree[0]!.name);
    expect(await page.getByRole("columnheader", { name: /^Free/ }).getAttribute("aria-sort")).toBe("descending");
    // The key column tells no key from an optional or a required one, and whether this server has it.
    const keyColumn = (await page.locator(".sources-table thead th").allInnerTexts()).findIndex((t) => t.startsWith("Key here"));
    const keyOf = (name: string) =>
      rows
        .filter({ has: page.getByRole("rowheader", { name, exact: true }) })
        .locator("td")
        .nth(keyColumn - 1)
        .innerText();
    expect(await keyOf("Poly Haven")).toBe("no key needed");
    expect(await keyOf("Sketchfab")).toBe("optional key, not set\nSKETCHFAB_API_TOKEN");
    expect(await keyOf("Thingiverse")).toBe("required key, not set\nTHINGIVERSE_TOKEN");
    expect(await keyOf("Freesound")).toBe("required key, set\nFREESOUND_API_KEY");
    await expectHeadingsInOrder(page);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "sources-1366");

    // A source's page: its census, its history as a chart with the numbers as a table, its searches.
    await page.getByRole("link", { name: "Poly Haven", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Poly Haven" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/sources/polyhaven");
    await READY["/sources/polyhaven"]!(page);
    const polyHaven = catalog.sources.find((c) => c.id === "polyhaven")!;
    expect(await page.locator(".totals").innerText()).toContain(listed(polyHaven.total));
    expect(await page.getByRole("table", { name: "By type" }).innerText()).toContain("Textures");
    expect(await page.getByText(polyHaven.method).count()).toBe(1);
    const history = page.getByRole("table", { name: "Listings, day by day" });
    expect(await history.locator("tbody tr").count()).toBe(DAYS);
    expect(await page.locator(".chart-value").innerText()).toContain(listed(polyHaven.total));
    expect(await page.title()).toBe("Poly Haven: census and history · asset-search");
    expect(await page.locator("section", { has: page.getByRole("heading", { name: "Filters and sorts" }) }).innerText()).toContain(
      "Searched in this service's index, so every filter and sort of the search page applies to its listings",
    );
    await expectHeadingsInOrder(page);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "source-polyhaven-1366");

    await page.getByRole("link", { name: "Textures on Poly Haven" }).click();
    await expect.poll(() => new URL(page.url()).search).toBe("?type=texture&providers=polyhaven");
    await expect.poll(() => page.locator(".result-count").innerText()).toMatch(/results/);
    // The card names its source once the providers list has arrived, which may follow the results.
    await expect.poll(() => page.locator(".grid .card .source").first().innerText()).toBe("Poly Haven");
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("asset-search");
    expectClean(watched);
    await watched.context.close();
  }, 60_000);

  it("a live source's page lists the filters and sorts its site applies and those applied to its listings, and its key", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;
    await page.goto(`${suite.server.url}/sources/sketchfab`);
    const filters = page.locator("section", { has: page.getByRole("heading", { name: "Filters and sorts" }) });
    await filters.waitFor();
    const fact = (scope: typeof page | typeof filters, term: string) =>
      scope
        .locator(".source-facts-list > div", { has: page.getByText(term, { exact: true }) })
        .locator("dd")
        .innerText();
    expect(await fact(filters, "Applied by the site")).toBe("licence, polygon count, animated, rigged, category, format, newest first");
    expect(await fact(filters, "Applied here to its listings")).toBe(
      "licence, commercial use, no credit needed, author, category, format, polygon count, animated, newest first",
    );
    expect(await fact(page, "Key")).toBe("Optional, not set here: it can use SKETCHFAB_API_TOKEN");
    await expectHeadingsInOrder(page);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "source-sketchfab-1366");
    expectClean(watched);
    await watched.context.close();
  }, 30_000);

  it("/stats shows the usage windows, the breakdowns, the sources' health and the census as charts", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;
    await open(watched, "/stats");
    const stats = (await (await fetch(`${suite.server.url}/v1/stats`)).json()) as Stats;
    const usage = page.locator(".usage-table");
    for (const w of stats.windows) expect(await usage.locator("thead").innerText()).toContain(w.label);
    expect(await usage.getByRole("row", { name: /^Pages served/ }).innerText()).toMatch(/Pages served\s+[1-9]/);
    expect(await page.locator(".health-table tbody tr").count()).toBe(stats.providers.length);
    const asked = stats.providers.find((h) => h.requests > 0)!;
    expect(await page.locator(".health-table tbody tr", { hasText: providers.find((p) => p.id === asked.provider)!.name }).innerText()).toContain(
      String(asked.requests),
    );
    expect(await page.getByRole("table", { name: "Searches by type filter" }).innerText()).toMatch(/Models\s+1/);
    const charts = [
      ["Listings", "listings"],
      ["Free", "free"],
      ["CC0", "cc0"],
      ["Direct download", "directDownload"],
    ] as const;
    for (const [title, key] of charts) {
      const table = page.getByRole("table", { name: `${title}, day by day` });
      expect(await table.locator("tbody tr").count()).toBe(DAYS);
      expect(await table.locator("tbody tr").last().locator("td").innerText()).toBe(listed(points.at(-1)![key]));
    }
    // By type: a chart per type over the days that recorded it, most listings first, and from when.
    const firstTyped = points[DAYS - TYPED_DAYS]!.date;
    const since = new Date(firstTyped).toLocaleDateString("en-US", { dateStyle: "long", timeZone: "UTC" });
    expect(await page.getByText("Listings by type are recorded from").innerText()).toBe(`Listings by type are recorded from ${since} on.`);
    const byType = Object.entries(points.at(-1)!.byType!).sort(([, a], [, b]) => b - a);
    const typeCharts = page.locator("h3#type-history-heading + p + .chart-grid .chart-title");
    expect(await typeCharts.allInnerTexts()).toEqual(byType.map(([type]) => TYPE_NAMES[type as AssetType].many));
    for (const [type, count] of byType) {
      const table = page.getByRole("table", { name: `${TYPE_NAMES[type as AssetType].many}, day by day` });
      expect(await table.locator("tbody tr").count()).toBe(TYPED_DAYS);
      expect(await table.locator("tbody tr").last().locator("td").innerText()).toBe(listed(count));
    }
    expect(await page.title()).toBe("Usage and health · asset-search");
    await expectHeadingsInOrder(page);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "stats-1366");
    expectClean(watched);
    await watched.context.close();
  }, 30_000);

  it("each page fits 390 px with 44 px targets, and passes axe-core in light and dark", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    for (const { viewport, colorScheme } of LOOKS) {
      const watched = await lookedAt(suite, { viewport, colorScheme });
      const { page } = watched;
      for (const path of Object.keys(READY)) {
        await open(watched, path);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(viewport.width);
        if (viewport === PHONE) expect(await smallTargets(page), path).toEqual([]);
        expect(await axeViolations(page), `${path} ${colorScheme}`).toEqual([]);
        await screenshot(page, `${path.slice(1).replace("/", "-")}-${viewport.width}${colorScheme === "dark" ? "-dark" : ""}`);
      }
      expectClean(watched);
      await watched.context.close();
    }
  }, 60_000);

  it("answers an unknown or malformed source id with a 404 page that says so", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: PHONE });
    const { page } = watched;
    const res = await page.goto(`${suite.server.url}/sources/no-such-source`);
    expect(res?.status()).toBe(404);
    await page.getByRole("heading", { level: 1, name: "No such source" }).waitFor();
    expect(await page.getByRole("main").innerText()).toContain("no-such-source");
    expect(await page.title()).toBe("Source not found · asset-search");
    expect(await axeViolations(page)).toEqual([]);
    // The page's own 404, which Chromium also logs, is the only thing amiss.
    // A malformed id (not valid percent-encoding) is the same page, naming it as it came.
    expect((await page.goto(`${suite.server.url}/sources/%ZZ`))?.status()).toBe(404);
    await page.getByRole("heading", { level: 1, name: "No such source" }).waitFor();
    expect(await page.getByRole("main").innerText()).toContain("There is no source “%ZZ” here");
    expect(await axeViolations(page)).toEqual([]);
    expect(watched.problems).toEqual([
      `HTTP 404 for ${suite.server.url}/sources/no-such-source`,
      expect.stringMatching(/^console error: Failed to load resource: .* 404/),
      `HTTP 404 for ${suite.server.url}/sources/%ZZ`,
      expect.stringMatching(/^console error: Failed to load resource: .* 404/),
    ]);
    await watched.context.close();
  }, 20_000);
});
