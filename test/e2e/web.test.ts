/**
 * The search page (server/web/index.html) in a real browser: Debian's Chromium driven by
 * playwright-core, against the whole app served on loopback over the recorded responses.
 * Nothing leaves the machine: every non-loopback request is aborted. The only ones the page is
 * expected to make are the result thumbnails (images on the source sites' CDNs, such as
 * cdn.polyhaven.com); their failures are the only failures allowed.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 * WEB_SCREENSHOT=web.png also saves a screenshot of the page after the search and click.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, testApp } from "../helpers/app.ts";
import { launchChromium, missingBrowser } from "../helpers/chromium.ts";

const ASSET_ID = "polyhaven:ArmChair_01";
const DOWNLOAD_HREF = "/v1/assets/polyhaven%3AArmChair_01/download";
const ARM_CHAIR_THUMBNAIL = "https://cdn.polyhaven.com/asset_img/thumbs/ArmChair_01.png";

let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;
let page: Page;
/** What went wrong in the page, checked at the end: console errors, uncaught exceptions, failed or 4xx/5xx requests. */
const problems: string[] = [];
/** Requests the page made to anything but the app (all aborted), with their resource types. */
const external: { url: string; type: string }[] = [];
/** Aborted thumbnail images: their failures (and Chromium's console line for each) are expected. */
const thumbnails = new Set<string>();

beforeAll(async () => {
  if (missingBrowser) return;
  const { app } = await testApp();
  server = await listen(app);
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const origin = new URL(server.url).origin;
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (new URL(url).origin === origin || url.startsWith("data:")) return route.continue();
    const type = route.request().resourceType();
    external.push({ url, type });
    if (type === "image") thumbnails.add(url);
    return route.abort("blockedbyclient");
  });
  page = await context.newPage();
  page.setDefaultTimeout(5_000); // a missing element fails the step quickly, with its selector, not the whole test's timeout
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    const where = msg.location().url;
    if (thumbnails.has(where)) return; // "Failed to load resource" for a blocked thumbnail
    problems.push(`console error: ${msg.text()}${where ? ` (${where})` : ""}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught exception: ${error.message}`));
  page.on("requestfailed", (request) => {
    // The page closes a search's event stream at its `done` event or when a newer search takes over: an abort it means.
    const closedStream = request.headers().accept === "text/event-stream" && request.failure()?.errorText === "net::ERR_ABORTED";
    if (!thumbnails.has(request.url()) && !closedStream) problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`);
  });
}, 20_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The detail panel's visible text, its Download link and its file rows, once it shows `title`. */
async function detailPanel(title: string) {
  const detail = page.locator("#detail");
  await detail.getByRole("heading", { name: title }).waitFor({ timeout: 5_000 });
  expect(await detail.isVisible()).toBe(true);
  const download = detail.getByRole("link", { name: "Download", exact: true });
  return {
    text: await detail.innerText(),
    downloadHref: await download.getAttribute("href"),
    fileRows: await detail.locator("table tbody tr").allInnerTexts(),
  };
}

describe("the search page in Chromium", () => {
  it("searches, shows result cards and source statuses, opens an asset, and opens a shared asset link", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    await page.goto(`${server.url}/`);
    expect(await page.title()).toMatch(/asset-search/);

    // Search as a person would: type into the box and press Enter.
    const box = page.getByRole("searchbox");
    await box.click();
    await box.fill("arm chair");
    await box.press("Enter");

    // The browse results of the page load stay until the search answers: wait for the search's own.
    const first = page.locator("#results .card").first();
    await expect.poll(async () => (await first.locator(".title").innerText()).trim(), { timeout: 5_000 }).toBe("Arm Chair 01");
    expect((await first.locator(".meta").innerText()).trim()).toBe("model · polyhaven · CC0-1.0 · download");
    expect(new URL(page.url()).searchParams.get("q")).toBe("arm chair");

    // One status line per source: ok with counts, errors with their reason, links for link-only sites.
    const statuses = await page.locator("#providers .source").allInnerTexts();
    expect(statuses.length).toBeGreaterThan(3);
    // Arm Chair 01 holds both words; five more hold one of them and follow it on the page it does not fill.
    expect(statuses.find((s) => s.startsWith("Poly Haven:"))).toMatch(/^Poly Haven: ok \(6 of 6\)/);
    expect(statuses.find((s) => s.startsWith("Kenney:"))).toMatch(/^Kenney: ok \(0/);
    expect(statuses.find((s) => s.startsWith("Sketchfab:"))).toMatch(/^Sketchfab: error/);
    const fabLink = page.locator("#providers .source", { hasText: "Fab:" }).getByRole("link", { name: "search there" });
    expect(await fabLink.getAttribute("href")).toBe("https://www.fab.com/search?q=arm+chair");

    // Open the asset from its card.
    await first.click();
    const clicked = await detailPanel("Arm Chair 01");
    expect(clicked.text).toContain("CC0-1.0");
    expect(clicked.text).toContain("Kirill Sannikov");
    expect(clicked.downloadHref).toBe(DOWNLOAD_HREF);
    expect(clicked.fileRows.length).toBeGreaterThan(0);
    expect(clicked.fileRows.join("\n")).toContain("Armchair_01_diff_4k.jpg");
    expect(new URL(page.url()).searchParams.get("asset")).toBe(ASSET_ID);
    // The results stay under the panel.
    expect(await page.locator("#results .card").count()).toBeGreaterThan(0);

    if (process.env.WEB_SCREENSHOT) await page.screenshot({ path: process.env.WEB_SCREENSHOT, fullPage: true });

    // The back button closes the panel again.
    await page.goBack();
    await page.locator("#detail").waitFor({ state: "hidden", timeout: 5_000 });

    // The asset's shareUrl (/?asset=<id>) opened directly shows the same panel.
    await page.goto(`${server.url}/?asset=${encodeURIComponent(ASSET_ID)}`);
    const shared = await detailPanel("Arm Chair 01");
    expect(shared).toEqual(clicked);
    // Close takes the asset out of the address, leaving the browse results.
    await page.locator("#detail").getByRole("button", { name: "Close" }).click();
    await page.locator("#detail").waitFor({ state: "hidden" });
    expect(new URL(page.url()).searchParams.has("asset")).toBe(false);
    await page.locator("#results .card").first().waitFor();

    expect(problems).toEqual([]);
    // The page asked for the thumbnails (and nothing else) off the machine, and they were blocked.
    expect(external.some(({ url }) => url.startsWith(ARM_CHAIR_THUMBNAIL))).toBe(true);
    expect(external.filter(({ type }) => type !== "image")).toEqual([]);
  });
});
