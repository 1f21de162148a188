/**
 * The documentation in a real browser (Debian's Chromium driven by playwright-core), against the
 * whole app on loopback over the recordings: `/docs` draws the API reference from /openapi.json,
 * lists `/v1/search` and its "Try it out" asks this server; the MCP and CLI guides render from
 * their Markdown with this server's URL in their examples. Every docs page has the search page's
 * headers, fits 390 px with 44 px targets (Swagger UI's controls included, an operation tried out
 * too) and passes axe-core (no critical or serious violation) in light and dark; its screenshots go
 * to test/e2e/screenshots/.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 */
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, testApp } from "../helpers/app.ts";
import { launchChromium, missingBrowser } from "../helpers/chromium.ts";
import { axeViolations, type WatchedPage, watchedPage } from "../helpers/watched-page.ts";

const SCREENSHOTS = new URL("./screenshots/", import.meta.url);
const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;

beforeAll(async () => {
  if (missingBrowser) return;
  const { app } = await testApp();
  server = await listen(app);
  browser = await launchChromium();
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const screenshot = (page: Page, name: string) => page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });

/** Each page at rest: the reference drawn, or the guide's Markdown rendered. */
const READY: Record<string, (page: Page) => Promise<unknown>> = {
  // The reference's chunk is large and compressed on its first request: the first visit waits for that.
  "/docs": (page) => page.locator('.opblock-summary-path[data-path="/v1/search"]').waitFor({ timeout: 30_000 }),
  "/docs/mcp": (page) => page.getByRole("heading", { level: 1, name: "MCP: asset-search in your agent" }).waitFor(),
  "/docs/cli": (page) => page.getByRole("heading", { level: 1, name: "The command line" }).waitFor(),
  "/docs/self-hosting": (page) => page.getByRole("heading", { level: 1, name: "Self-hosting" }).waitFor(),
  "/docs/census": (page) => page.getByRole("heading", { level: 1, name: "Run your own census" }).waitFor(),
};

async function open(watched: WatchedPage, path: string): Promise<void> {
  await watched.page.goto(`${server.url}${path}`);
  await READY[path]!(watched.page);
  await watched.page.waitForLoadState("networkidle");
}

/**
 * Every visible control smaller than a 44 px target: the buttons, fields and menus (Swagger UI's
 * included) and the navigations' links. Links inside prose are left out, as WCAG leaves inline
 * targets out.
 */
function smallTargets(page: Page): Promise<string[]> {
  return page.locator("button, input, select, textarea, summary, nav a").evaluateAll((els) =>
    els.flatMap((el) => {
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height || el.closest(".visually-hidden")) return [];
      return box.height < 44 || box.width < 44
        ? [`${el.tagName.toLowerCase()}.${el.className} "${el.textContent?.trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`]
        : [];
    }),
  );
}

function expectClean(watched: WatchedPage): void {
  expect(watched.problems).toEqual([]);
  expect(watched.external).toEqual([]);
}

describe("the documentation in Chromium", () => {
  it("/docs draws the reference from /openapi.json, lists /v1/search, and its Try it out asks this server", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(browser, server.url, { viewport: DESKTOP });
    const { page } = watched;
    await open(watched, "/docs");
    expect(await page.title()).toBe("API reference · asset-search docs");
    expect(await page.getByRole("navigation", { name: "Site" }).getByRole("link", { name: "Docs" }).getAttribute("aria-current")).toBe("page");
    expect(await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "API reference" }).getAttribute("aria-current")).toBe(
      "page",
    );
    expect(watched.requests).toContain("/openapi.json");
    // Without deep links, the tags' and paths' anchors have no address: said to be no links, so crawlers do not count them as broken.
    expect(await page.locator('.swagger-ui a:not([href])[role="none"]').count()).toBeGreaterThan(10);
    await expect.poll(() => page.locator(".swagger-ui a:not([href]):not([role])").count()).toBe(0);
    // An operation's copy-path button takes the focus, so it is shown at a target's size (Swagger UI draws it 0 px wide until hovered).
    const copy = await page.locator(".opblock-summary .copy-to-clipboard").first().boundingBox();
    expect([copy?.width, copy?.height]).toEqual([44, 44]);
    // The server the requests go to is this one.
    expect(await page.locator(".servers select option").first().getAttribute("value")).toBe(server.url);

    const search = page.locator(".opblock", { has: page.locator('.opblock-summary-path[data-path="/v1/search"]') });
    await search.locator(".opblock-summary-control").click();
    await search.getByRole("button", { name: "Try it out" }).click();
    await search.locator('tr[data-param-name="q"] input').fill("arm chair");
    await search.getByRole("button", { name: "Execute" }).click();
    await search.locator(".live-responses-table tbody .response-col_status").waitFor();
    expect(await search.locator(".live-responses-table tbody .response-col_status").innerText()).toBe("200");
    // The parameters' defaults filled in, as the document states them.
    expect(watched.requests).toContain("/v1/search?q=arm%20chair&sort=relevance&limit=24&offset=0");
    await screenshot(page, "docs-try-it-1366");
    expect(await axeViolations(page)).toEqual([]);
    expectClean(watched);
    await watched.context.close();
  }, 30_000);

  it("the MCP and CLI guides render with this server's URL in their examples", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(browser, server.url, { viewport: DESKTOP });
    const { page } = watched;
    await open(watched, "/docs/mcp");
    expect(await page.title()).toBe("MCP · asset-search docs");
    for (const client of ["Claude Code", "Claude Desktop", "Cursor", "VS Code", "Any other client"]) {
      await page.getByRole("heading", { level: 2, name: client }).waitFor();
    }
    expect(await page.locator("main").innerText()).toContain(`claude mcp add --transport http asset-search ${server.url}/mcp`);
    await open(watched, "/docs/cli");
    expect(await page.title()).toBe("Command line · asset-search docs");
    expect(await page.getByRole("navigation", { name: "Documentation" }).getByRole("link", { name: "Command line" }).getAttribute("aria-current")).toBe("page");
    expect(await page.locator("main").innerText()).toContain("asset-search search");
    expectClean(watched);
    await watched.context.close();
  }, 30_000);

  it("Swagger UI's buttons, fields and menus are 44 px targets at 390 px, and an operation tried out fits the width", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const watched = await watchedPage(browser, server.url, { viewport: PHONE, isMobile: true, hasTouch: true });
    const { page } = watched;
    await open(watched, "/docs");
    const controls = page.locator(".swagger-ui").locator("button, input, select, textarea");
    expect(await controls.count()).toBeGreaterThan(0);
    expect(await smallTargets(page)).toEqual([]);
    const search = page.locator(".opblock", { has: page.locator('.opblock-summary-path[data-path="/v1/search"]') });
    await search.locator(".opblock-summary-control").click();
    await search.getByRole("button", { name: "Try it out" }).click();
    await search.locator('tr[data-param-name="q"] input').fill("arm chair");
    await search.getByRole("button", { name: "Execute" }).click();
    await search.locator(".live-responses-table tbody .response-col_status").waitFor();
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
    const searchPage = await fetch(`${server.url}/`);
    for (const path of Object.keys(READY)) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      for (const name of ["content-security-policy", "referrer-policy", "x-frame-options", "cross-origin-opener-policy", "permissions-policy"]) {
        expect(response.headers.get(name), `${path} ${name}`).toBe(searchPage.headers.get(name));
      }
    }
    const variants = [
      { viewport: PHONE, colorScheme: "light" },
      { viewport: PHONE, colorScheme: "dark" },
      { viewport: DESKTOP, colorScheme: "dark" },
    ] as const;
    for (const { viewport, colorScheme } of variants) {
      const watched = await watchedPage(browser, server.url, { viewport, colorScheme, ...(viewport === PHONE ? { isMobile: true, hasTouch: true } : {}) });
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
  }, 90_000);
});
