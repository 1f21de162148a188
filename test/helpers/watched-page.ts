/**
 * A page of the app in Chromium, watched: only the app's origin is reachable (every other request
 * is aborted and recorded), and console errors, uncaught exceptions, failed requests and 4xx/5xx
 * answers are collected for the test to assert empty. Also axe-core's check of the page as it is.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, BrowserContextOptions, Page } from "playwright-core";

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** What went wrong in the page: expected empty. */
  problems: string[];
  /** Requests to anything but the app, all aborted: expected empty. */
  external: string[];
  /** Every request the page made to the app, as path and query. */
  requests: string[];
}

/**
 * API requests the page itself ends, which Chromium reports as aborted: a search's event stream
 * closed at its end or when a newer search takes over, a superseded request, the thumbnails of
 * cards a new search replaced, an asset's requests when its view closes before they answer.
 */
const CANCELLED = /^\/v1\//;

export async function watchedPage(
  browser: Browser,
  appUrl: string,
  options: BrowserContextOptions & { init?: (context: BrowserContext) => Promise<unknown> } = {},
): Promise<WatchedPage> {
  const { init, ...contextOptions } = options;
  const context = await browser.newContext({ locale: "en-US", ...contextOptions });
  const origin = new URL(appUrl).origin;
  const problems: string[] = [];
  const external: string[] = [];
  const requests: string[] = [];
  const local = (url: string) => {
    const u = new URL(url);
    return u.pathname + u.search;
  };
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (url.startsWith("data:") || url.startsWith("blob:") || new URL(url).origin === origin) return route.continue();
    external.push(url);
    return route.abort("blockedbyclient");
  });
  await init?.(context);
  const page = await context.newPage();
  page.setDefaultTimeout(5_000); // a missing element fails its step quickly, naming its selector
  page.on("request", (request) => {
    if (request.url().startsWith(origin)) requests.push(local(request.url()));
  });
  page.on("console", (msg) => {
    if (msg.type() === "error") problems.push(`console error: ${msg.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught exception: ${error.message}`));
  page.on("requestfailed", (request) => {
    const url = request.url();
    const cancelled = url.startsWith(origin) && CANCELLED.test(local(url)) && request.failure()?.errorText === "net::ERR_ABORTED";
    if (!cancelled && !external.includes(url)) problems.push(`request failed: ${url} ${request.failure()?.errorText}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()} for ${response.url()}`);
  });
  return { page, context, problems, external, requests };
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe-core's critical and serious violations on the page as it is now, one line each. The script
 * is evaluated through the debugging protocol, which the page's policy (script-src 'self', no
 * inline script) does not govern, so the page keeps its real policy under test.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return (await axe.run()).violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(" ")) }));
  });
  return violations.filter((v) => v.impact === "critical" || v.impact === "serious").map((v) => `${v.impact} ${v.id}: ${v.targets.join(", ")}`);
}
