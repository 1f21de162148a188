/**
 * What the page tests in Chromium share: the app on loopback and one browser per test file,
 * started before its tests (when Chromium is installed) and closed after them; the two viewports;
 * full-page screenshots in test/e2e/screenshots/; the check that a watched page stayed clean; and
 * the 44 px touch-target check.
 */
import { mkdirSync } from "node:fs";
import type { H3 } from "h3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { listen } from "./app.ts";
import { launchChromium, missingBrowser } from "./chromium.ts";
import { type WatchedPage, watchedPage } from "./watched-page.ts";

export const DESKTOP = { width: 1366, height: 900 };
export const PHONE = { width: 390, height: 844 };
const SCREENSHOTS = new URL("../e2e/screenshots/", import.meta.url);

/** The looks every page is checked in besides the light desktop one: a phone, light and dark, and the dark desktop. */
export const LOOKS = [
  { viewport: PHONE, colorScheme: "light" },
  { viewport: PHONE, colorScheme: "dark" },
  { viewport: DESKTOP, colorScheme: "dark" },
] as const;

export interface BrowserSuite {
  server: Awaited<ReturnType<typeof listen>>;
  browser: Browser;
}

/** Serves the app `start` builds and launches Chromium for the file's tests; read the fields inside a test. */
export function browserSuite(start: () => Promise<H3>): BrowserSuite {
  const suite = {} as BrowserSuite;
  beforeAll(async () => {
    if (missingBrowser) return;
    suite.server = await listen(await start());
    suite.browser = await launchChromium();
    mkdirSync(SCREENSHOTS, { recursive: true });
  }, 30_000);
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

export const screenshot = (page: Page, name: string) => page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true });

/** Nothing went wrong in the page and it reached nothing but the app. */
export function expectClean(watched: WatchedPage): void {
  expect(watched.problems).toEqual([]);
  expect(watched.external).toEqual([]);
}

/** The visible elements `selector` finds that are smaller than a 44 px target, named with their size. */
export function smallerThanTargets(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((els) =>
    els.flatMap((el) => {
      const box = el.getBoundingClientRect();
      if (!box.width || !box.height || el.closest(".visually-hidden")) return [];
      return box.height < 44 || box.width < 44
        ? [`${el.tagName.toLowerCase()}.${el.className} "${el.textContent?.trim().slice(0, 30)}" ${Math.round(box.width)}×${Math.round(box.height)}`]
        : [];
    }),
  );
}

/** A watched page in one of the LOOKS, a phone's with touch. */
export const lookedAt = (suite: BrowserSuite, { viewport, colorScheme }: (typeof LOOKS)[number]): Promise<WatchedPage> =>
  watchedPage(suite.browser, suite.server.url, { viewport, colorScheme, ...(viewport === PHONE ? { isMobile: true, hasTouch: true } : {}) });
