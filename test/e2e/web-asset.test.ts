/**
 * The asset view in a real browser (Debian's Chromium driven by playwright-core, WebGL drawn by
 * SwiftShader), against the whole app on loopback over the recordings: a model opened from the
 * search shows its 3D view and its files, downloads what was picked and copies its credit; an
 * HDRI opens as a panorama, a sound can be played, a font is drawn with its own file. The files
 * the previews load are the synthetic stand-ins of test/fixtures/synthetic/previews/.
 *
 * Every state is checked with axe-core in the light and the dark theme (no critical or serious
 * violation). Nothing leaves the machine: requests to any other origin are aborted and must not
 * happen at all; a console error, an uncaught exception or an HTTP error fails the test.
 * Screenshots at 390 px and 1366 px go to test/e2e/screenshots/ (not committed).
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, testApp } from "../helpers/app.ts";
import { launchChromium, missingBrowser } from "../helpers/chromium.ts";
import { unzip } from "../helpers/unzip.ts";
import { axeViolations, type WatchedPage, watchedPage } from "../helpers/watched-page.ts";

const MODEL = "polyhaven:ArmChair_01";
const HDRI = "hdrmaps:jawornik-before-the-sunset";
const AUDIO = "openverse:7e063ee6-343f-48e4-a4a5-f436393730f6";
const FONT = "fontsource:abel";

const SCREENSHOTS = fileURLToPath(new URL("./screenshots/", import.meta.url));
const WIDE = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };

let server: Awaited<ReturnType<typeof listen>>;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  if (missingBrowser) return;
  const { app } = await testApp();
  server = await listen(app);
  origin = new URL(server.url).origin;
  browser = await launchChromium({ webgl: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
}, 30_000);

/** A watched page (test/helpers/watched-page.ts) that may use the clipboard, with time enough for a 3D view drawn on the CPU. */
async function open(): Promise<WatchedPage> {
  const watched = await watchedPage(browser, server.url, {
    viewport: WIDE,
    init: (context) => context.grantPermissions(["clipboard-read", "clipboard-write"], { origin }),
  });
  watched.page.setDefaultTimeout(10_000);
  return watched;
}

/** axe-core's critical and serious violations of the page as it is, in the light and in the dark theme. */
async function accessibility(page: Page, state: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    found.push(...(await axeViolations(page)).map((v) => `${state} (${colorScheme}): ${v}`));
  }
  await page.emulateMedia({ colorScheme: null });
  return found;
}

/** Screenshots of the page at a phone's and a laptop's width (the dark theme on the phone); the controls in `scope` must be 44 px targets on the phone. */
async function screenshots(page: Page, name: string, scope: string): Promise<string[]> {
  await page.setViewportSize(PHONE);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.locator(scope).evaluate((root) => {
    root.querySelector(".dialog-body")?.scrollTo(0, 0);
    window.scrollTo(0, 0);
  });
  await page.screenshot({ path: `${SCREENSHOTS}asset-${name}-390.png` });
  const small = await page.locator(scope).evaluate((root) =>
    [...root.querySelectorAll<HTMLElement>("button, select, summary, a.button, .segmented label, .maps .check, .tags a")]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ el, box: el.getBoundingClientRect() }))
      .filter(({ box }) => box.height < 44 || box.width < 44)
      .map(({ el, box }) => `${el.tagName.toLowerCase()} "${el.textContent?.trim()}" ${Math.round(box.width)}×${Math.round(box.height)}`),
  );
  await page.emulateMedia({ colorScheme: null });
  await page.setViewportSize(WIDE);
  await page.screenshot({ path: `${SCREENSHOTS}asset-${name}-1366.png` });
  return small.map((s) => `${name} at 390 px: ${s}`);
}

const previewOf = (page: Page) => page.locator("figure.preview");

/** The 3D views wait for their button; the light previews start by themselves. */
const STARTED_BY: Record<string, string> = { model: "View in 3D", panorama: "Look around the panorama" };

/** Starts a 3D view as a person does: it waits, with the viewer's code not yet fetched, until its button is pressed. */
async function start(page: Page, kind: string): Promise<void> {
  const button = previewOf(page).getByRole("button", { name: new RegExp(`^${STARTED_BY[kind]}`) });
  await button.waitFor();
  expect(await previewOf(page).getAttribute("data-state")).toBe("idle");
  expect(await page.evaluate(() => customElements.get("model-viewer") === undefined)).toBe(true);
  await expect.poll(() => button.isEnabled()).toBe(true);
  await page.screenshot({ path: `${SCREENSHOTS}asset-${kind}-waiting-${page.viewportSize()?.width}.png` });
  await button.click();
}

async function loaded(page: Page, kind: string): Promise<void> {
  if (STARTED_BY[kind]) await start(page, kind);
  await expect.poll(() => previewOf(page).getAttribute("data-state"), { timeout: 30_000 }).toMatch(/loaded|failed/);
  expect(await previewOf(page).getAttribute("data-kind")).toBe(kind);
  expect(await previewOf(page).getAttribute("data-state")).toBe("loaded");
}

/** How every test ends: no accessibility violation, no small target, nothing gone wrong in the page and nothing asked elsewhere. */
async function expectClean({ context, problems, external }: Pick<WatchedPage, "context" | "problems" | "external">, a11y: string[], sizes: string[]) {
  expect(a11y).toEqual([]);
  expect(sizes).toEqual([]);
  expect(problems).toEqual([]);
  expect(external).toEqual([]);
  await context.close();
}

describe("the asset view in Chromium", () => {
  it("opens a model from the results: the 3D view loads, the picked files download, the credit copies, Escape closes", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const { context, page, problems, external } = await open();
    const a11y: string[] = [];
    const sizes: string[] = [];

    await page.goto(`${server.url}/?q=arm+chair`);
    const card = page.locator(`a[href*="asset=${encodeURIComponent(encodeURIComponent(MODEL))}"], a[href*="asset=${encodeURIComponent(MODEL)}"]`).first();
    await card.click();
    const dialog = page.getByRole("dialog", { name: "Arm Chair 01" });
    await dialog.waitFor();
    expect(new URL(page.url()).searchParams.get("asset")).toBe(MODEL);
    // Focus moved into the dialog, to its title.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("asset-dialog-title");
    await expect.poll(() => page.title()).toBe("Arm Chair 01 · Poly Haven · asset-search");

    // The 3D view: model-viewer on the smallest glTF (1k), its .bin and textures asked with the same selection.
    await loaded(page, "model");
    const viewer = dialog.locator("model-viewer");
    expect(await viewer.evaluate((el) => (el as HTMLElement & { src: string }).src)).toBe(
      "/v1/assets/polyhaven%3AArmChair_01/raw/ArmChair_01_1k.gltf?format=gltf&resolution=1k",
    );
    expect(await viewer.evaluate((el) => (el as HTMLElement & { loaded: boolean }).loaded)).toBe(true);
    a11y.push(...(await accessibility(page, "model dialog")));

    // The facts.
    const facts = await dialog.locator(".facts").innerText();
    expect(facts).toContain("Poly Haven");
    expect(facts).toContain("Kirill Sannikov");
    expect(facts).toContain("Commercial use allowed");
    expect(facts).toContain("No credit required");
    expect(facts).toContain("Free");

    // The picker starts on the server's default selection (glTF 2k), then takes a format and a resolution.
    const files = dialog.locator(".files");
    const total = files.locator(".total");
    await expect.poll(() => total.innerText()).toBe("1 file and 4 companion files · total 2.8 MB");
    await files.getByLabel("Format").selectOption("gltf");
    await files.getByLabel("Resolution").selectOption("1k");
    await expect.poll(() => total.innerText()).toBe("1 file and 4 companion files · total 769 kB");
    expect(await files.locator(".file-list .file-name").allInnerTexts()).toEqual([
      "ArmChair_01_1k.gltf",
      "textures/Armchair_01_diff_1k.jpg",
      "ArmChair_01.bin",
      "textures/Armchair_01_nor_gl_1k.jpg",
      "textures/Armchair_01_arm_1k.jpg",
    ]);
    const download = files.getByRole("link", { name: /^Download zip/ });
    const href = await download.getAttribute("href");
    expect(href).toBe("/v1/assets/polyhaven%3AArmChair_01/download?format=gltf&resolution=1k");
    const zip = await page.request.get(`${server.url}${href}`, { maxRedirects: 0 });
    expect(zip.status()).toBe(200);
    expect(zip.headers()["content-type"]).toBe("application/zip");
    const entries = [...(await unzip(await zip.body())).keys()];
    expect(entries).toEqual([
      "polyhaven-armchair_01/LICENSE.txt",
      "polyhaven-armchair_01/ArmChair_01_1k.gltf",
      "polyhaven-armchair_01/textures/Armchair_01_diff_1k.jpg",
      "polyhaven-armchair_01/ArmChair_01.bin",
      "polyhaven-armchair_01/textures/Armchair_01_nor_gl_1k.jpg",
      "polyhaven-armchair_01/textures/Armchair_01_arm_1k.jpg",
    ]);

    // Texture maps: the map set of one format, its maps chosen one by one.
    await files.getByLabel("Format").selectOption("jpg");
    await expect
      .poll(() => files.locator(".file-list .file-name").allInnerTexts())
      .toEqual([
        "Armchair_01_diff_1k.jpg",
        "Armchair_01_nor_gl_1k.jpg",
        "Armchair_01_roughness_1k.jpg",
        "Armchair_01_metallic_1k.jpg",
        "Armchair_01_arm_1k.jpg",
      ]);
    // By keyboard, as a person without a mouse would (and with no wait for the 3D view's frames to settle).
    const roughness = files.getByLabel("Roughness", { exact: true });
    await roughness.focus();
    await page.keyboard.press("Space");
    await expect.poll(() => files.locator(".file-list .file-name").count()).toBe(4);
    expect(await files.getByRole("link", { name: /^Download zip/ }).getAttribute("href")).toBe(
      "/v1/assets/polyhaven%3AArmChair_01/download?format=jpg&resolution=1k&maps=diffuse,normal_gl,metalness,arm",
    );
    a11y.push(...(await accessibility(page, "picker on a map set")));

    // The same request for scripts and agents.
    await dialog.getByText("For scripts and agents").click();
    expect(await dialog.getByLabel("Download with curl").inputValue()).toBe(
      `curl -LOJ '${origin}/v1/assets/polyhaven%3AArmChair_01/download?format=jpg&resolution=1k&maps=diffuse,normal_gl,metalness,arm'`,
    );
    expect(JSON.parse(await dialog.getByLabel(/^MCP tool call/).inputValue())).toEqual({
      name: "get_asset",
      arguments: { id: MODEL, format: "jpg", resolution: "1k", maps: ["diffuse", "normal_gl", "metalness", "arm"] },
    });

    // Copy credit, as plain text and as Markdown: the lines of GET /v1/credits (core/model/credits.ts).
    const credit = dialog.locator(".credit");
    await credit.getByRole("button", { name: "Copy credit" }).click();
    await expect.poll(() => credit.getByRole("status").innerText()).toBe("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      '"Arm Chair 01" by Kirill Sannikov (https://polyhaven.com/a/ArmChair_01), licensed under CC0-1.0 (https://creativecommons.org/publicdomain/zero/1.0/).',
    );
    await credit.getByLabel("Markdown").check();
    await credit.getByRole("button", { name: "Copy credit" }).click();
    await expect
      .poll(() => page.evaluate(() => navigator.clipboard.readText()))
      .toBe(
        "[Arm Chair 01](https://polyhaven.com/a/ArmChair_01) by Kirill Sannikov, licensed under [CC0-1.0](https://creativecommons.org/publicdomain/zero/1.0/).",
      );
    await credit.getByLabel("HTML").check();
    expect(await credit.getByRole("textbox").inputValue()).toBe(
      '<a href="https://polyhaven.com/a/ArmChair_01">Arm Chair 01</a> by Kirill Sannikov, licensed under <a href="https://creativecommons.org/publicdomain/zero/1.0/">CC0-1.0</a>.',
    );
    a11y.push(...(await accessibility(page, "credit copied")));
    sizes.push(...(await screenshots(page, "model-dialog", ".asset-dialog")));

    // Escape closes the dialog, takes the asset out of the address and gives focus back to the card.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(new URL(page.url()).searchParams.has("asset")).toBe(false);
    // The page gives focus back once the dialog is gone, which a busy machine may show a frame later.
    await expect.poll(() => card.evaluate((el) => el === document.activeElement)).toBe(true);
    // Back opens it again.
    await page.goBack();
    await page.getByRole("dialog", { name: "Arm Chair 01" }).waitFor();

    await expectClean({ context, problems, external }, a11y, sizes);
  }, 120_000);

  it("reopens an asset from its share URL and serves its own page with its title and preview tags", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const { context, page, problems, external } = await open();
    const details = (await (await page.request.get(`${server.url}/v1/assets/${encodeURIComponent(MODEL)}`)).json()) as { shareUrl: string };
    const share = new URL(details.shareUrl);
    await page.goto(`${server.url}${share.pathname}${share.search}`);
    await page.getByRole("dialog", { name: "Arm Chair 01" }).waitFor();
    expect(await page.title()).toBe("Arm Chair 01 · Poly Haven · asset-search");
    await loaded(page, "model");
    // The dialog's close button also takes the asset out of the address.
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    expect(new URL(page.url()).searchParams.has("asset")).toBe(false);

    await page.goto(`${server.url}/assets/${encodeURIComponent(MODEL)}`);
    expect(await page.title()).toBe("Arm Chair 01 · Poly Haven · asset-search");
    expect(await page.locator('meta[property="og:title"]').getAttribute("content")).toBe("Arm Chair 01 · Poly Haven · asset-search");
    expect(await page.locator('meta[property="og:image"]').getAttribute("content")).toBe(`${origin}/v1/assets/polyhaven%3AArmChair_01/thumbnail?w=640`);
    await page.getByRole("main").getByRole("heading", { level: 1, name: "Arm Chair 01" }).waitFor();
    await loaded(page, "model");
    const a11y = await accessibility(page, "asset page");
    const sizes = await screenshots(page, "model-page", "main");
    await page.getByRole("link", { name: "Search all sources" }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe("/");

    await expectClean({ context, problems, external }, a11y, sizes);
  }, 60_000);

  it("opens an HDRI as a panorama to look around in", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const { context, page, problems, external } = await open();
    await page.goto(`${server.url}/?asset=${encodeURIComponent(HDRI)}`);
    const dialog = page.getByRole("dialog", { name: "Jawornik Before the Sunset" });
    await dialog.waitFor();
    await loaded(page, "panorama");
    const panorama = dialog.getByRole("application", { name: /^Panorama of Jawornik Before the Sunset/ });
    expect(await panorama.isVisible()).toBe(true);
    await panorama.focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("+");
    const a11y = await accessibility(page, "HDRI dialog");
    const sizes = await screenshots(page, "hdri", ".asset-dialog");

    await expectClean({ context, problems, external }, a11y, sizes);
  }, 60_000);

  it("shows the thumbnail and a short note when a preview cannot be had, and the rest of the view still works", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const { context, page, problems, external } = await open();
    // The raw endpoint's answer for a file over its preview cap.
    await page.route("**/raw/**", (route) =>
      route.fulfill({ status: 413, contentType: "application/json", body: JSON.stringify({ error: "over this server's preview cap" }) }),
    );
    await page.goto(`${server.url}/?asset=${encodeURIComponent(HDRI)}`);
    const dialog = page.getByRole("dialog", { name: "Jawornik Before the Sunset" });
    await start(page, "panorama");
    await expect.poll(() => previewOf(page).getAttribute("data-state")).toBe("failed");
    expect(await previewOf(page).locator("figcaption").innerText()).toBe(
      "This HDRI is too large to preview here. The picture from the source is shown instead.",
    );
    expect(await previewOf(page).getByRole("img", { name: "Jawornik Before the Sunset" }).isVisible()).toBe(true);
    await expect.poll(() => dialog.locator(".files .total").innerText()).toBe("1 file · total 22.0 MB");
    const a11y = await accessibility(page, "failed preview");

    expect(a11y).toEqual([]);
    // The one failure is the refused file itself (and Chromium's console line for it).
    expect(problems).toEqual([
      `HTTP 413 for ${origin}/v1/assets/hdrmaps%3Ajawornik-before-the-sunset/raw/197_hdrmaps_com_free_1K.exr?format=exr&resolution=1k`,
      "console error: Failed to load resource: the server responded with a status of 413 (Payload Too Large)",
    ]);
    expect(external).toEqual([]);
    await context.close();
  }, 60_000);

  it("plays a sound's preview", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const { context, page, problems, external } = await open();
    await page.goto(`${server.url}/?asset=${encodeURIComponent(AUDIO)}`);
    const dialog = page.getByRole("dialog", { name: "I Love My Dog You Love your Cat" });
    await dialog.waitFor();
    await loaded(page, "audio");
    const audio = dialog.locator("audio");
    expect(await audio.getAttribute("src")).toBe(`/v1/assets/${encodeURIComponent(AUDIO)}/raw/i-love-my-dog-you-love-your-cat.mp3?format=mp3`);
    // Playable: enough data for the current position at least (HAVE_CURRENT_DATA), as a press on play would need.
    await audio.evaluate((el: HTMLAudioElement) => el.play());
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.readyState)).toBeGreaterThanOrEqual(2);
    const a11y = await accessibility(page, "audio dialog");
    const sizes = await screenshots(page, "audio", ".asset-dialog");

    await expectClean({ context, problems, external }, a11y, sizes);
  }, 60_000);

  it("draws a font's specimen with the font's own file, and downloads that one file by a redirect", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const { context, page, problems, external } = await open();
    await page.goto(`${server.url}/?asset=${encodeURIComponent(FONT)}`);
    const dialog = page.getByRole("dialog", { name: "Abel" });
    await dialog.waitFor();
    await loaded(page, "font");
    const family = await dialog.locator(".specimen").getAttribute("data-family");
    expect(
      await page.evaluate(
        (name) => ({ check: document.fonts.check(`16px "${name}"`), status: [...document.fonts].find((f) => f.family.replace(/"/g, "") === name)?.status }),
        family,
      ),
    ).toEqual({ check: true, status: "loaded" });
    await dialog.getByLabel("Sample text").fill("Pixel perfect");
    expect(await dialog.locator(".specimen-line").allInnerTexts()).toEqual(["16px\nPixel perfect", "28px\nPixel perfect", "48px\nPixel perfect"]);

    // One self-contained file: the download is a redirect to the source's file.
    const href = await dialog.getByRole("link", { name: /^Download abel-latin-400-normal\.woff2/ }).getAttribute("href");
    const redirect = await page.request.get(`${server.url}${href}`, { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    expect(redirect.headers().location).toBe("https://cdn.jsdelivr.net/npm/@fontsource/abel/files/abel-latin-400-normal.woff2");
    const a11y = await accessibility(page, "font dialog");
    const sizes = await screenshots(page, "font", ".asset-dialog");

    await expectClean({ context, problems, external }, a11y, sizes);
  }, 60_000);
});
