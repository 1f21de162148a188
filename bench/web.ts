/**
 * `npm run bench:web`: the web app as a visitor's browser gets it, against whatever web/ holds now.
 * - Lighthouse 12 (performance, accessibility, best practices, SEO; the target is 95 in each) on
 *   `/`, a results page, an asset page, the sources, a source, the stats, the API reference and a
 *   guide (or only those of them named on the command line), with its desktop config and its
 *   default one (a throttled phone), one run each: throttling is simulated from the trace, so the
 *   scores say how the page would load on that device, not on this machine's loopback.
 * - The bytes `/` transfers on load, as Chromium with an empty cache fetches it (headers plus the
 *   body as sent, with the Accept-Encoding the browser sends), until the network is idle: images
 *   (thumbnails) and the 3D viewer's chunk are left out (issue 26's budget: 100 KB).
 * The server is the built one (`npm start`'s), in a process of its own so that Lighthouse's work
 * does not slow its answers, over the recorded responses with the published data/: nothing
 * leaves the machine. Chromium is Debian's (test/helpers/chromium.ts), one instance for both.
 * A page that does not load is printed as such; only a crash (no build, no server, no browser)
 * throws.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import lighthouse, { desktopConfig, type Result } from "lighthouse";
import { type BrowserContext, chromium } from "playwright-core";
import { ensureBuilt } from "../bin/freshness.js";
import { CHROMIUM, missingBrowser } from "../test/helpers/chromium.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

const PAGES: readonly string[] = ["/", "/?q=arm+chair", "/assets/polyhaven%3AArmChair_01", "/sources", "/sources/polyhaven", "/stats", "/docs", "/docs/mcp"];
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;
type Category = (typeof CATEGORIES)[number];
const FORM_FACTORS = ["desktop", "mobile"] as const;
/** Issue 26's targets: each category's score, and the bytes of `/` before thumbnails. */
const TARGET_SCORE = 95;
const BUDGET_BYTES = 100_000;

/** A scored audit below 1 in a category under the target: what to fix. */
interface FailingAudit {
  id: string;
  title: string;
  score: number;
  displayValue?: string;
  /** What it was found on (addresses, elements, messages), the first few. */
  items: string[];
}

export interface LighthouseRun {
  path: string;
  formFactor: (typeof FORM_FACTORS)[number];
  /** ×100; null when Lighthouse could not score the category (see `error`). */
  scores: Record<Category, number | null>;
  failing: Partial<Record<Category, FailingAudit[]>>;
  /** Lighthouse's code and message when the page did not load as expected. */
  error?: string;
  warnings: string[];
}

interface Transferred {
  url: string;
  type: string;
  /** Headers plus the body as sent (compressed when it was). */
  bytes: number;
  encoding: string;
}

export interface TransferResult {
  /** What counts against the budget. */
  bytes: number;
  responses: Transferred[];
  /** The Accept-Encoding Chromium sent for `/`. */
  acceptEncoding: string;
  /** Left out: images, and scripts of the 3D viewer. */
  excluded: { images: number; imageBytes: number; viewer: Transferred[] };
  /** Requests still open when the network was given up on (none when it went idle). */
  open: string[];
}

export interface WebResult {
  lighthouse: LighthouseRun[];
  transfer: TransferResult;
}

/** A port nothing listens on now, for the server (which takes its port from PORT). */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

/**
 * The built server on 127.0.0.1, answering upstream requests from test/fixtures (unrecorded
 * ones fail at once instead of going out). Its environment is only what it needs, so that no
 * DATA_URL, REDIS_URL or source key of the caller's shell sends it anywhere.
 */
async function startServer(): Promise<{ base: string; stop: () => Promise<void> }> {
  const entry = await ensureBuilt(ROOT, "server/main");
  const port = await unusedPort();
  const env = {
    PATH: process.env.PATH ?? "",
    HOST: "127.0.0.1",
    PORT: String(port),
    ASSET_SERVER_REPLAY: "test/fixtures",
    DATA_DIR: "data",
    RATE_LIMIT_PER_MINUTE: "0",
  };
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode} before /health answered:\n${stderr}`);
    const status = await fetch(`${base}/health`).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return { base, stop: () => stopProcess(child) };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Headless Chromium with a DevTools port (Lighthouse connects to it; Playwright too, over CDP), on
 * an empty temporary profile, with the flags of test/helpers/chromium.ts that this offline machine
 * needs. Port 0 lets Chromium pick one; it says which on stderr.
 */
async function startChromium(): Promise<{ port: number; stop: () => Promise<void> }> {
  if (missingBrowser) throw new Error(missingBrowser);
  const profile = mkdtempSync(join(tmpdir(), "bench-web-"));
  const child = spawn(
    CHROMIUM,
    [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--no-default-browser-check",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  const stop = async () => {
    await stopProcess(child);
    rmSync(profile, { recursive: true, force: true });
  };
  let stderr = "";
  const port = await new Promise<number>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const listening = /DevTools listening on ws:\/\/[^/]+:(\d+)\//.exec(stderr);
      if (listening) resolve(Number(listening[1]));
    });
    child.once("exit", (code) => reject(new Error(`Chromium exited with ${code} before its DevTools port opened:\n${stderr.slice(-4000)}`)));
  }).catch(async (err: unknown) => {
    await stop();
    throw err;
  });
  child.stderr?.removeAllListeners("data");
  child.stderr?.resume();
  return { port, stop };
}

/** The fields of an audit's detail row that say where it found something: a resource, an element, a console message or a kind of main-thread work. */
interface DetailItem {
  url?: unknown;
  scriptUrl?: unknown;
  node?: { nodeLabel?: string; selector?: string };
  description?: unknown;
  groupLabel?: unknown;
  /** Why, per place, where the audit says (valid-source-maps: "missing", "timed out fetching"). */
  subItems?: { items?: { error?: unknown }[] };
}

function itemLabel(item: DetailItem, base: string): string | undefined {
  const url = item.url ?? item.scriptUrl;
  if (typeof url === "string") {
    const errors = (item.subItems?.items ?? []).flatMap((sub) => (typeof sub.error === "string" ? [sub.error] : []));
    return (url.startsWith(base) ? url.slice(base.length) : url) + (errors.length ? ` (${errors.join("; ")})` : "");
  }
  if (item.node) return item.node.nodeLabel ?? item.node.selector;
  if (typeof item.description === "string") return item.description;
  return typeof item.groupLabel === "string" ? item.groupLabel : undefined;
}

function failingAudits(lhr: Result, category: Category, base: string): FailingAudit[] {
  return (lhr.categories[category]?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id]!)
    .filter((audit) => audit.score !== null && audit.score < 1)
    .sort((a, b) => a.score! - b.score!)
    .map(({ id, title, score, displayValue, details }) => {
      const rows = details && "items" in details && Array.isArray(details.items) ? (details.items as DetailItem[]) : [];
      const items = rows.map((item) => itemLabel(item, base)).filter((label) => label !== undefined);
      return { id, title, score: score!, ...(displayValue ? { displayValue } : {}), items };
    });
}

async function runLighthouse(port: number, base: string, path: string, formFactor: LighthouseRun["formFactor"]): Promise<LighthouseRun> {
  const result = await lighthouse(
    base + path,
    // The full-page screenshot only decorates the report, which is not written.
    { port, logLevel: "error", output: "json", onlyCategories: [...CATEGORIES], disableFullPageScreenshot: true },
    formFactor === "desktop" ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${path} (${formFactor})`);
  const { lhr } = result;
  const scores = {} as LighthouseRun["scores"];
  const failing: LighthouseRun["failing"] = {};
  for (const category of CATEGORIES) {
    const score = lhr.categories[category]?.score;
    scores[category] = typeof score === "number" ? Math.round(score * 100) : null;
    if (scores[category] !== null && scores[category] < TARGET_SCORE) failing[category] = failingAudits(lhr, category, base);
  }
  return {
    path,
    formFactor,
    scores,
    failing,
    ...(lhr.runtimeError ? { error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` } : {}),
    warnings: lhr.runWarnings,
  };
}

/**
 * three.js marks itself with `__THREE__` and model-viewer defines its element: either in a script
 * makes it the viewer's chunk, whatever content hash names it.
 */
const VIEWER_MARKERS = [/__THREE__/, /customElements\.define\(\s*["']model-viewer["']/];

/** How long `/` may keep the network busy after its load event before what finished is counted. */
const IDLE_WAIT_MS = 15_000;

async function measureTransfer(context: BrowserContext, base: string): Promise<TransferResult> {
  const page = await context.newPage();
  const open = new Set<string>();
  const measured: Promise<(Transferred & { viewer: boolean }) | undefined>[] = [];
  let acceptEncoding = "";
  page.on("request", (request) => open.add(request.url()));
  page.on("requestfailed", (request) => open.delete(request.url()));
  page.on("requestfinished", (request) => {
    open.delete(request.url());
    measured.push(
      (async () => {
        const response = await request.response();
        if (!response) return undefined;
        const [sizes, requestHeaders, headers] = await Promise.all([request.sizes(), request.allHeaders(), response.allHeaders()]);
        if (request.url() === `${base}/`) acceptEncoding = requestHeaders["accept-encoding"] ?? "";
        const type = request.resourceType();
        const script = type === "script" ? (await response.body()).toString() : "";
        return {
          url: request.url().slice(base.length),
          type,
          bytes: sizes.responseHeadersSize + sizes.responseBodySize,
          encoding: headers["content-encoding"] ?? "identity",
          viewer: VIEWER_MARKERS.some((marker) => marker.test(script)),
        };
      })(),
    );
  });
  await page.goto(`${base}/`, { waitUntil: "load" });
  await page.waitForLoadState("networkidle", { timeout: IDLE_WAIT_MS }).catch(() => undefined);
  const still = [...open].map((url) => url.replace(base, ""));
  const responses = (await Promise.all(measured)).filter((r) => r !== undefined);
  await page.close();
  const images = responses.filter((r) => r.type === "image");
  const viewer = responses.filter((r) => r.viewer);
  const counted = responses.filter((r) => r.type !== "image" && !r.viewer);
  const strip = ({ viewer: _viewer, ...r }: Transferred & { viewer: boolean }): Transferred => r;
  return {
    bytes: counted.reduce((sum, r) => sum + r.bytes, 0),
    responses: counted.map(strip),
    acceptEncoding,
    excluded: { images: images.length, imageBytes: images.reduce((sum, r) => sum + r.bytes, 0), viewer: viewer.map(strip) },
    open: still,
  };
}

/** `pages`: only these of PAGES get Lighthouse runs (the transfer of `/` is measured whatever they are). */
export async function benchWeb(pages: readonly string[] = PAGES): Promise<WebResult> {
  const unknown = pages.filter((p) => !PAGES.includes(p));
  if (unknown.length) throw new Error(`not among the pages measured: ${unknown.join(", ")} (they are ${PAGES.join(", ")})`);
  const server = await startServer();
  try {
    const browser = await startChromium();
    try {
      const runs: LighthouseRun[] = [];
      for (const path of pages) {
        for (const formFactor of FORM_FACTORS) runs.push(await runLighthouse(browser.port, server.base, path, formFactor));
      }
      const playwright = await chromium.connectOverCDP(`http://127.0.0.1:${browser.port}`);
      try {
        // A context of its own: an empty cache, nothing kept from the Lighthouse runs.
        const context = await playwright.newContext();
        const transfer = await measureTransfer(context, server.base);
        await context.close();
        return { lighthouse: runs, transfer };
      } finally {
        await playwright.close();
      }
    } finally {
      await browser.stop();
    }
  } finally {
    await server.stop();
  }
}

/** Of each failing audit, the first few places it was found on, each cut to a readable length. */
const ITEMS_KEPT = 3;
const ITEM_CHARS = 120;
const SHORT: Record<Category, string> = { performance: "perf", accessibility: "a11y", "best-practices": "best", seo: "SEO" };
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/** The figures as bench lines (bench/run.ts prints them with the others). */
export function webLines({ lighthouse: runs, transfer }: WebResult): string[] {
  const title = `web: Lighthouse 12 scores ×100 (target ≥ ${TARGET_SCORE})`;
  const label = (run: LighthouseRun) => `web:   ${run.path} ${run.formFactor}`;
  const width = Math.max(title.length, ...runs.map((run) => label(run).length)) + 2;
  const lines = [`${title.padEnd(width)}${CATEGORIES.map((c) => SHORT[c].padStart(5)).join("")}`];
  for (const run of runs) {
    const scores = CATEGORIES.map((c) => String(run.scores[c] ?? "–").padStart(5)).join("");
    const below = CATEGORIES.filter((c) => run.scores[c] === null || run.scores[c] < TARGET_SCORE).map((c) => SHORT[c]);
    const verdict = run.error ? `error ${run.error}` : below.length ? `below: ${below.join(", ")}` : "all met";
    lines.push(`${label(run).padEnd(width)}${scores}   ${verdict}`);
    for (const [category, audits] of Object.entries(run.failing).filter(([, audits]) => audits.length)) {
      const list = audits.map((a) => {
        const where =
          a.items
            .slice(0, ITEMS_KEPT)
            .map((item) => (item.length > ITEM_CHARS ? `${item.slice(0, ITEM_CHARS - 1)}…` : item))
            .join(", ") + (a.items.length > ITEMS_KEPT ? ` +${a.items.length - ITEMS_KEPT} more` : "");
        return `${a.id} ${a.score.toFixed(2)} "${a.title}"${a.displayValue ? ` (${a.displayValue})` : ""}${where ? ` [${where}]` : ""}`;
      });
      lines.push(`web:     ${SHORT[category as Category]} ${run.scores[category as Category]} on ${run.path} ${run.formFactor}: ${list.join("; ")}`);
    }
  }
  const byType = new Map<string, number>();
  for (const r of transfer.responses) byType.set(r.type, (byType.get(r.type) ?? 0) + r.bytes);
  const parts = [...byType].map(([type, bytes]) => `${type} ${kB(bytes)}`).join(", ");
  const encodings = [...new Set(transfer.responses.map((r) => r.encoding))].join("/");
  const { images, imageBytes, viewer } = transfer.excluded;
  // A response of more than 1 KB sent as it is: what compression would shrink.
  const plain = transfer.responses.filter((r) => r.encoding === "identity" && r.bytes > 1000).map((r) => `${r.url} ${kB(r.bytes)}`);
  lines.push(
    `web: / transfer before thumbnails / budget ${(transfer.bytes / BUDGET_BYTES).toFixed(2)} (${kB(transfer.bytes)} of ${BUDGET_BYTES / 1000} KB: ${transfer.responses.length} responses, ${parts}; ${encodings} for Accept-Encoding "${transfer.acceptEncoding}"${plain.length ? `, uncompressed: ${plain.join(", ")}` : ""}; not counted: ${images} images ${kB(imageBytes)}, viewer ${viewer.length ? viewer.map((v) => `${v.url} ${kB(v.bytes)}`).join(", ") : "not loaded"}${transfer.open.length ? `; still open after ${IDLE_WAIT_MS / 1000} s: ${transfer.open.join(", ")}` : ""})`,
  );
  return lines;
}

// `npm run bench:web -- /docs /docs/mcp`: Lighthouse on those pages only, printed and not written over the full results.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const only = process.argv.slice(2);
  const result = await benchWeb(only.length ? only : PAGES);
  if (!only.length) {
    mkdirSync("bench/results", { recursive: true });
    writeFileSync("bench/results/web.json", `${JSON.stringify({ measuredAt: new Date().toISOString(), ...result }, null, 2)}\n`);
  }
  for (const line of webLines(result)) console.log(line);
}
