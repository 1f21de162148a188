/** Debian's Chromium for the browser tests, driven by playwright-core (installed by test/setup/install-packages.sh). */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_BIN ?? "/usr/bin/chromium";

/** Why the browser tests cannot run, or undefined; they fail (never skip) with this message. */
export const missingBrowser = existsSync(CHROMIUM)
  ? undefined
  : `Chromium is not installed at ${CHROMIUM}: run test/setup/install-packages.sh (as root) and try again`;

/**
 * Headless Chromium on a fresh, empty temporary profile (Playwright refuses --user-data-dir in
 * args), with the background networking that this offline machine would refuse switched off.
 * `webgl`: WebGL drawn on the CPU by SwiftShader (through ANGLE), for pages with a 3D view; the
 * GPU stays off otherwise.
 */
export function launchChromium(options: { webgl?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      ...(options.webgl ? ["--use-gl=angle", "--use-angle=swiftshader", "--enable-unsafe-swiftshader"] : ["--disable-gpu"]),
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
