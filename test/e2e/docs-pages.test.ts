/**
 * The documentation in a real browser (Debian's Chromium driven by playwright-core), against the
 * whole app on loopback over the recordings: `/docs` lists the API's operations from /openapi.json,
 * `/v1/search` among them, without Swagger UI; its button (or a deep link, `#/<tag>/<operationId>`)
 * draws the reference in place, whose "Try it out" asks this server; the MCP and CLI guides render
 * from their Markdown with this server's URL in their examples. Every docs page has the search
 * page's headers, fits 390 px with 44 px targets (Swagger UI's controls included, an operation tried
 * out too) and passes axe-core (no critical or serious violation) in light and dark, the reference
 * both as a list and drawn; its screenshots go to test/e2e/screenshots/.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { testApp } from "../helpers/app.ts";
import { browserSuite, DESKTOP, expectClean, LOOKS, lookedAt, PHONE, screenshot, smallerThanTargets } from "../helpers/browser-suite.ts";
import { missingBrowser } from "../helpers/chromium.ts";
import { axeViolations, type WatchedPage, watchedPage } from "../helpers/watched-page.ts";

const suite = browserSuite(async () => (await testApp()).app);

/** The list's line for GET /v1/search, before Swagger UI is loaded. */
const listedSearch = (page: Page) => page.locator(".docs-operations a", { has: page.locator(".docs-op-path", { hasText: /^\/v1\/search$/ }) });
/** Swagger UI's operation for /v1/search. */
const drawnSearch = (page: Page) => page.locator(".opblock", { has: page.locator('.opblock-summary-path[data-path="/v1/search"]') });
/** Opens the search operation, tries it out for "arm chair" and waits for this server's answer. */
async function tryArmChair(search: Locator): Promise<void> {
  await search.locator(".opblock-summary-control").click();
  await search.getByRole("button", { name: "Try it out" }).click();
  await search.locator('tr[data-param-name="q"] input').fill("arm chair");
  await search.getByRole("button", { name: "Execute" }).click();
  await search.locator(".live-responses-table tbody .response-col_status").waitFor();
}
/** Whether the page loaded any of Swagger UI: its chunk or its stylesheet. */
const swaggerRequested = (watched: WatchedPage) => watched.requests.some((path) => /\/chunks\/reference-|swagger-ui\.css/.test(path));

/** Each page at rest: the reference's operations listed, or the guide's Markdown rendered. */
const READY: Record<string, (page: Page) => Promise<unknown>> = {
  "/docs": (page) => listedSearch(page).waitFor(),
  "/docs/mcp": (page) => page.getByRole("heading", { level: 1, name: "MCP: asset-search in your agent" }).waitFor(),
  "/docs/cli": (page) => page.getByRole("heading", { level: 1, name: "The command line" }).waitFor(),
  "/docs/self-hosting": (page) => page.getByRole("heading", { level: 1, name: "Self-hosting" }).waitFor(),
  "/docs/census": (page) => page.getByRole("heading", { level: 1, name: "Run your own census" }).waitFor(),
};

async function open(watched: WatchedPage, path: string): Promise<void> {
  await watched.page.goto(`${suite.server.url}${path}`);
  await READY[path]!(watched.page);
  await watched.page.waitForLoadState("networkidle");
}

/**
 * Every visible control smaller than a 44 px target: the buttons, fields and menus (Swagger UI's
 * included) and the navigations' links. Links inside prose are left out, as WCAG leaves inline
 * targets out.
 */
const smallTargets = (page: Page) => smallerThanTargets(page, "button, input, select, textarea, summary, nav a");

/** The reference's button, then Swagger UI drawn in place of the list. */
async function openReference(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Open the interactive reference (Try it out)" }).click();
  // The reference's chunk is large and compressed on its first request: the first visit waits for that.
  await drawnSearch(page).waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
}

describe("the documentation in Chromium", () => {
  it("/docs lists /v1/search from /openapi.json without Swagger UI; its button draws the reference, whose Try it out asks this server", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;
    await open(watched, "/docs");
    expect(await page.title()).toBe("API reference · asset-search docs");
    expect(await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Docs" }).getAttribute("aria-current")).toBe("page");
    expect(await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "API reference" }).getAttribute("aria-current")).toBe(
      "page",
    );
    expect(watched.requests).toContain("/openapi.json");
    // The list, grouped by tag, each line a deep link into the reference; none of Swagger UI loaded yet.
    expect(await page.getByRole("heading", { level: 2, name: "Search" }).count()).toBe(1);
    expect(await listedSearch(page).innerText()).toMatch(/^GET\s+\/v1\/search\s+\S/);
    expect(await listedSearch(page).getAttribute("href")).toBe("#/Search/searchAssets");
    expect(swaggerRequested(watched)).toBe(false);
    expect(await page.locator(".swagger-ui").count()).toBe(0);
    await screenshot(page, "docs-1366");
    expect(await axeViolations(page)).toEqual([]);

    await openReference(page);
    expect(swaggerRequested(watched)).toBe(true);
    // Drawn in place of the list, the reference holds the focus the button had.
    expect(await page.locator(".docs-operations").count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Interactive reference");
    // Without deep links, the tags' and paths' anchors have no address: said to be no links, so crawlers do not count them as broken.
    expect(await page.locator('.swagger-ui a:not([href])[role="none"]').count()).toBeGreaterThan(10);
    await expect.poll(() => page.locator(".swagger-ui a:not([href]):not([role])").count()).toBe(0);
    // An operation's copy-path button takes the focus, so it is shown at a target's size (Swagger UI draws it 0 px wide until hovered).
    const copy = await page.locator(".opblock-summary .copy-to-clipboard").first().boundingBox();
    expect([copy?.width, copy?.height]).toEqual([44, 44]);
    // The server the requests go to is this one.
    expect(await page.locator(".servers select option").first().getAttribute("value")).toBe(suite.server.url);

    const search = drawnSearch(page);
    await tryArmChair(search);
    expect(await search.locator(".live-responses-table tbody .response-col_status").innerText()).toBe("200");
    // The parameters' defaults filled in, as the document states them.
    expect(watched.requests).toContain("/v1/search?q=arm%20chair&sort=relevance&limit=24&offset=0");
    await screenshot(page, "docs-try-it-1366");
    expect(await axeViolations(page)).toEqual([]);
    expectClean(watched);
    await watched.context.close();
  }, 60_000);

  it("a deep link to an operation, followed from the list or opened as an address, draws the reference with that operation open and focused", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;
    const searchFocused = () =>
      drawnSearch(page)
        .locator(".opblock-summary-control")
        .evaluate((el) => el === document.activeElement);
    await open(watched, "/docs");
    await listedSearch(page).click();
    await drawnSearch(page).waitFor({ timeout: 30_000 });
    expect(page.url()).toBe(`${suite.server.url}/docs#/Search/searchAssets`);
    await expect.poll(() => drawnSearch(page).getAttribute("class")).toContain("is-open");
    expect(await searchFocused()).toBe(true);
    // A shared link: Swagger UI loads with the page.
    await page.goto("about:blank");
    await page.goto(`${suite.server.url}/docs#/Search/searchAssets`);
    await drawnSearch(page).waitFor({ timeout: 30_000 });
    await expect.poll(() => drawnSearch(page).getAttribute("class")).toContain("is-open");
    expect(await searchFocused()).toBe(true);
    expectClean(watched);
    await watched.context.close();
  }, 60_000);

  it("the MCP and CLI guides render with this server's URL in their examples", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: DESKTOP });
    const { page } = watched;
    await open(watched, "/docs/mcp");
    expect(await page.title()).toBe("MCP · asset-search docs");
    for (const client of ["Claude Code", "Claude Desktop", "Cursor", "VS Code", "Any other client"]) {
      await page.getByRole("heading", { level: 2, name: client }).waitFor();
    }
    expect(await page.locator("main").innerText()).toContain(`claude mcp add --transport http asset-search ${suite.server.url}/mcp`);
    await open(watched, "/docs/cli");
    expect(await page.title()).toBe("Command line · asset-search docs");
    expect(await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Command line" }).getAttribute("aria-current")).toBe("page");
    expect(await page.locator("main").innerText()).toContain("asset-search search");
    expectClean(watched);
    await watched.context.close();
  }, 30_000);

  it("Swagger UI's buttons, fields and menus are 44 px targets at 390 px, and an operation tried out fits the width", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(suite.browser, suite.server.url, { viewport: PHONE, isMobile: true, hasTouch: true });
    const { page } = watched;
    await open(watched, "/docs");
    expect(await smallTargets(page)).toEqual([]);
    await openReference(page);
    const controls = page.locator(".swagger-ui").locator("button, input, select, textarea");
    expect(await controls.count()).toBeGreaterThan(0);
    expect(await smallTargets(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const search = drawnSearch(page);
    await tryArmChair(search);
    // Opened and tried: its parameters' fields and menus, Execute, Clear, the media-type menus and the example tabs.
    expect(await search.locator("input, select").count()).toBeGreaterThan(10);
    expect(await smallTargets(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, "docs-try-it-390");
    expectClean(watched);
    await watched.context.close();
  }, 60_000);

  it("each page has the search page's headers, fits 390 px, and passes axe-core in light and dark", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const searchPage = await fetch(`${suite.server.url}/`);
    for (const path of Object.keys(READY)) {
      const response = await fetch(`${suite.server.url}${path}`);
      expect(response.status, path).toBe(200);
      for (const name of ["content-security-policy", "referrer-policy", "x-frame-options", "cross-origin-opener-policy", "permissions-policy"]) {
        expect(response.headers.get(name), `${path} ${name}`).toBe(searchPage.headers.get(name));
      }
    }
    for (const { viewport, colorScheme } of LOOKS) {
      const watched = await lookedAt(suite, { viewport, colorScheme });
      const { page } = watched;
      for (const path of Object.keys(READY)) {
        await open(watched, path);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(viewport.width);
        if (viewport === PHONE) expect(await smallTargets(page), path).toEqual([]);
        expect(await axeViolations(page), `${path} ${colorScheme}`).toEqual([]);
        const name = `${path.slice(1).replace("/", "-")}-${viewport.width}${colorScheme === "dark" ? "-dark" : ""}`;
        await screenshot(page, name);
        if (path !== "/docs") continue;
        await openReference(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth), "/docs drawn").toBeLessThanOrEqual(viewport.width);
        if (viewport === PHONE) expect(await smallTargets(page), "/docs drawn").toEqual([]);
        expect(await axeViolations(page), `/docs drawn ${colorScheme}`).toEqual([]);
        await screenshot(page, name.replace("docs", "docs-reference"));
      }
      expectClean(watched);
      await watched.context.close();
    }
  }, 180_000);
});
