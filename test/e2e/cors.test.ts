/**
 * CORS in a real browser: a page served from a second loopback origin calls the API
 * with `fetch`, through Chromium's own preflight, and reads the rate-limit headers. The HTML page
 * of the service stays unreadable from that origin.
 *
 * Needs /usr/bin/chromium (or CHROMIUM_BIN): run test/setup/install-packages.sh.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SOURCES } from "../../sources/index.ts";
import { listen, testApp } from "../helpers/app.ts";
import { launchChromium, missingBrowser } from "../helpers/chromium.ts";

const KEY = "browser-key";
let api: Awaited<ReturnType<typeof listen>>;
let other: Server;
let otherOrigin: string;
let browser: Browser;

beforeAll(async () => {
  if (missingBrowser) return;
  const { app } = await testApp({ env: { ASSET_SERVER_API_KEY: KEY, RATE_LIMIT_PER_MINUTE: "7" } });
  api = await listen(app);
  // The second origin: another port on loopback, serving one empty page.
  other = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>elsewhere</title>"));
  await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
  otherOrigin = `http://localhost:${(other.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 20_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await new Promise((resolve) => (other ? other.close(resolve) : resolve(undefined)));
});

describe("a page on another origin", () => {
  it("reads the API, its RateLimit headers, OpenAPI and the catalogue, but not the HTML page", async () => {
    if (missingBrowser) throw new Error(missingBrowser);
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${otherOrigin}/`);
    expect(new URL(page.url()).origin).not.toBe(new URL(api.url).origin);

    const seen = await page.evaluate(
      async ({ base, key }) => {
        // The x-api-key header makes this a non-simple request: Chromium sends a preflight first.
        const res = await fetch(`${base}/v1/providers`, { headers: { "x-api-key": key } });
        const body = (await res.json()) as { providers: unknown[] };
        const read = async (path: string) => {
          try {
            const r = await fetch(`${base}${path}`);
            return `${r.status}`;
          } catch (err) {
            return `blocked: ${(err as Error).name}`;
          }
        };
        return {
          status: res.status,
          providers: body.providers.length,
          rateLimit: res.headers.get("RateLimit"),
          remaining: res.headers.get("RateLimit-Remaining"),
          policy: res.headers.get("RateLimit-Policy"),
          openapi: await read("/openapi.json"),
          catalog: await read("/catalog.json"),
          health: await read("/health"),
          page: await read("/"),
        };
      },
      { base: api.url, key: KEY },
    );
    expect(seen).toEqual({
      status: 200,
      providers: SOURCES.length,
      rateLimit: expect.stringMatching(/^"default";r=6;t=\d+$/),
      remaining: "6",
      policy: '"default";q=7;w=60',
      openapi: "200",
      catalog: "200",
      health: "200",
      page: "blocked: TypeError",
    });
  });
});
