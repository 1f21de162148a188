import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { createHttpClient } from "../core/http/client.ts";
import type { HttpClient } from "../core/http/types.ts";
import { loadPublished } from "../core/publication/published.ts";
import { exportPublication } from "../pipeline/export.ts";
import { runPipeline } from "../pipeline/run.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { replayRuntime } from "./helpers/replay.ts";
import { scratchDirs } from "./helpers/scratch.ts";
import { staticServer } from "./helpers/static-server.ts";

// PREVIOUS_URL: the pipeline reads the previous publication from a web server (GitHub Pages in the
// workflow), here a node:http server on 127.0.0.1 that serves a folder as it is.

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
const scratch = scratchDirs("asset-search-previous-");

/** A loopback static server of `root` (test/helpers/static-server.ts), closed after the test. */
async function serve(root: string, options: { status?: number } = {}) {
  const server = await staticServer(root, options);
  cleanups.push(server.close);
  return { ...server, requested: () => server.log.map((l) => l.path) };
}

/** The real client (undici Agent); the address guard lets tests reach 127.0.0.1 only this way. */
function loopbackClient(): HttpClient {
  const http = createHttpClient({ config: loadConfig({ HTTP_RETRIES: "0" }), allowPrivateAddresses: true });
  cleanups.push(() => http.close());
  return http;
}

const POLYHAVEN_CENSUS = "https://api.polyhaven.com/assets?type=textures";

/** A publication of one day's run from the recordings, exported to `<root>/v1/`. */
async function publication(root: string, now: string) {
  const dataDir = scratch();
  await runPipeline({ runtime: replayRuntime({ now: new Date(now) }), sources: [polyhaven], dataDir });
  exportPublication(dataDir, root);
}

const unguarded = { maxFailedShare: 1, maxListingsDrop: 1 };

describe("PREVIOUS_URL", () => {
  it("carries the history and a failing source's last numbers from the publication, not from DATA_DIR", async () => {
    const root = scratch();
    await publication(root, "2026-11-21T04:00:00Z");
    const server = await serve(root);
    // DATA_DIR holds an older set of its own (the repository's offline default in the workflow): not read.
    const dataDir = scratch();
    await runPipeline({ runtime: replayRuntime({ now: new Date("2026-11-10T04:00:00Z") }), sources: [polyhaven], dataDir });
    const runtime = replayRuntime({ now: new Date("2026-11-22T04:00:00Z") });
    runtime.replay.add({ url: POLYHAVEN_CENSUS, status: 500, body: "down" });
    const lines: string[] = [];
    const previous = { url: server.url, http: loopbackClient() };
    await runPipeline({ runtime, sources: [polyhaven], dataDir, previous, limits: unguarded, log: (l) => lines.push(l) });

    expect(server.requested()).toEqual(["/v1/index.meta.json", "/v1/catalog.json", "/v1/catalog-history.json", "/v1/index.json.gz"]);
    expect(lines[0]).toBe(`previous publication: ${server.url} built 2026-11-21T04:00:00.000Z`);
    const { catalog, history, index } = loadPublished(dataDir);
    expect(history.points.map((p) => [p.date, p.stale])).toEqual([
      ["2026-11-21", []],
      ["2026-11-22", ["polyhaven"]],
    ]);
    expect(catalog!.sources[0]).toMatchObject({ total: 771, stale: { since: "2026-11-21T04:00:00.000Z" } });
    // The crawl failed too: the assets come from the publication's index.
    expect([...index.records()]).toHaveLength(771);
  });

  it("takes a missing publication (404) for a first run", async () => {
    const server = await serve(scratch());
    const dataDir = scratch();
    const lines: string[] = [];
    const runtime = replayRuntime({ now: new Date("2026-11-22T04:00:00Z") });
    await runPipeline({ runtime, sources: [polyhaven], dataDir, previous: { url: server.url, http: loopbackClient() }, log: (l) => lines.push(l) });
    expect(server.requested()).toEqual(["/v1/index.meta.json"]);
    expect(lines[0]).toBe(`no publication at ${server.url} yet: first run`);
    expect(loadPublished(dataDir).history.points.map((p) => p.date)).toEqual(["2026-11-22"]);
  });

  it("stops, publishing nothing, when a file does not match the meta or the server fails", async () => {
    const root = scratch();
    await publication(root, "2026-11-21T04:00:00Z");
    writeFileSync(join(root, "v1", "catalog-history.json"), '{"points":[]}\n');
    const altered = await serve(root);
    const dataDir = scratch();
    const run = (url: string) =>
      runPipeline({
        runtime: replayRuntime({ now: new Date("2026-11-22T04:00:00Z") }),
        sources: [polyhaven],
        dataDir,
        previous: { url, http: loopbackClient() },
      });
    await expect(run(altered.url)).rejects.toThrow(
      /^catalog-history\.json does not match index\.meta\.json: 14 bytes with sha256 [0-9a-f]{64}, expected \d+ bytes/,
    );

    const failing = await serve(root, { status: 503 });
    await expect(run(failing.url)).rejects.toThrow(`${failing.url}/v1/index.meta.json answered HTTP 503`);

    const other = scratch();
    await publication(other, "2026-11-21T04:00:00Z");
    rmSync(join(other, "v1", "index.json.gz"));
    const incomplete = await serve(other);
    await expect(run(incomplete.url)).rejects.toThrow(`${incomplete.url}/v1/index.json.gz is missing (HTTP 404) although index.meta.json lists it`);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
