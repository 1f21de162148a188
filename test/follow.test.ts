/**
 * The server follows its publication (server/data/follow.ts): DATA_URL served by a loopback static
 * server that honours If-None-Match, and DATA_DIR's current.json. Checks are driven by `checkNow()`
 * (and fake timers for the polling), never by sleeping.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../core/config.ts";
import { AssetIndex } from "../core/index/search-index.ts";
import { assetCounts, buildMeta, setFileInfos } from "../core/publication/meta.ts";
import { INDEX_FILE, type IndexMeta, META_FILE, PUBLICATION_VERSION, PUBLISHED_FILES } from "../core/publication/published.ts";
import type { Asset, DataStatus } from "../core/schemas/index.ts";
import { buildCatalog } from "../pipeline/catalog.ts";
import { publishSet, type SetContents } from "../pipeline/publish.ts";
import { dirSource, watchDir } from "../server/data/dir-source.ts";
import { type DataSource, followData } from "../server/data/follow.ts";
import { createDeps, startServer } from "../server/start.ts";
import { capturedLog } from "./helpers/log-lines.ts";
import { FIXTURES } from "./helpers/replay.ts";
import { scratchDirs } from "./helpers/scratch.ts";
import { staticServer } from "./helpers/static-server.ts";
import { syntheticAsset } from "./helpers/synthetic-asset.ts";

const PROVIDER = "polyhaven";
const WORD = "lantern";
// afterAll: the DATA_URL suite serves one folder across its tests.
const tempDir = scratchDirs("follow-", afterAll);

/** Assets of one publication: `slugs` each titled with WORD, so one search finds all of them. */
const assets = (...slugs: string[]): Asset[] => slugs.map((slug) => syntheticAsset(PROVIDER, slug, { title: `${WORD} ${slug}` }));

function contents(list: Asset[], builtAt: string): SetContents {
  return {
    catalog: `${JSON.stringify(buildCatalog([], [], builtAt))}\n`,
    history: `${JSON.stringify({ points: [] })}\n`,
    index: AssetIndex.build(list, builtAt).serialize(),
  };
}

const sha256 = (body: Buffer | string) => createHash("sha256").update(body).digest("hex");

/** index.meta.json for the files, by the pipeline's own builder. */
const metaOf = (files: SetContents, list: Asset[], builtAt: string): IndexMeta => buildMeta(setFileInfos(files), builtAt, assetCounts(list));

/**
 * Deploys a publication to `<root>/v1/`: the files first, the meta last (as a reader would want).
 * `indexFile` adds the index file (index.db) the pipeline publishes; `tamper` changes the bytes
 * of the index (the index file when there is one) after the meta was computed (same length,
 * another sha256); `meta` edits the meta.
 */
function deploy(root: string, list: Asset[], builtAt: string, options: { indexFile?: boolean; tamper?: boolean; meta?: (m: IndexMeta) => unknown } = {}): void {
  const files = contents(list, builtAt);
  const indexFile = options.indexFile ? AssetIndex.build(list, builtAt).fileBytes() : undefined;
  const meta = buildMeta(setFileInfos({ ...files, ...(indexFile ? { indexFile } : {}) }), builtAt, assetCounts(list));
  const dir = join(root, `v${PUBLICATION_VERSION}`);
  mkdirSync(dir, { recursive: true });
  const index = Buffer.from(files.index);
  const tampered = indexFile ?? index;
  if (options.tamper) tampered[tampered.length - 5]! ^= 0xff;
  writeFileSync(join(dir, PUBLISHED_FILES.catalog), files.catalog);
  writeFileSync(join(dir, PUBLISHED_FILES.history), files.history);
  writeFileSync(join(dir, PUBLISHED_FILES.index), index);
  if (indexFile) writeFileSync(join(dir, INDEX_FILE), indexFile);
  writeFileSync(join(dir, META_FILE), JSON.stringify(options.meta ? options.meta(meta) : meta));
}

/** A set in DATA_DIR by the pipeline's own publishSet, with the test's meta as the fourth file (none when `withMeta` is false). */
function publishDir(dataDir: string, list: Asset[], builtAt: string, options: { withMeta?: boolean; tamper?: boolean } = {}): string {
  const files = contents(list, builtAt);
  const meta = metaOf(files, list, builtAt);
  if (options.tamper) meta.files[PUBLISHED_FILES.catalog]!.sha256 = "0".repeat(64);
  const set = publishSet(dataDir, files, builtAt);
  // publishSet writes the set's meta itself: replaced by the test's (tampered or not), or removed for a set from before metas.
  if (options.withMeta ?? true) writeFileSync(join(dataDir, "sets", set, META_FILE), JSON.stringify(meta));
  else rmSync(join(dataDir, "sets", set, META_FILE));
  return set;
}

const OLD = ["alpha", "bravo"];
const NEW = ["alpha", "charlie", "delta"];
const ids = (slugs: string[]) => slugs.map((s) => `${PROVIDER}:${s}`).sort();

describe("following DATA_URL", () => {
  let root: string;
  let files: Awaited<ReturnType<typeof staticServer>>;
  let started: Awaited<ReturnType<typeof startServer>>;
  let base: string;
  const search = async (): Promise<{ status: number; ids: string[] }> => {
    const res = await fetch(`${base}/v1/search?q=${WORD}&providers=${PROVIDER}&limit=50`);
    const body = (await res.json()) as { results?: Asset[] };
    return { status: res.status, ids: (body.results ?? []).map((a) => a.id).sort() };
  };
  const health = async (): Promise<DataStatus> => ((await (await fetch(`${base}/health`)).json()) as { data: DataStatus }).data;
  const metaRequests = () => files.log.filter((l) => l.path === `/v1/${META_FILE}`);

  beforeAll(async () => {
    root = tempDir();
    deploy(root, assets(...OLD), "2026-11-20T04:00:00.000Z");
    files = await staticServer(root);
    const config = loadConfig({
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: tempDir(), // empty: the publication at DATA_URL is the only data
      DATA_URL: files.url,
      DATA_POLL_SECONDS: "0",
      ASSET_SERVER_REPLAY: FIXTURES,
      RATE_LIMIT_PER_MINUTE: "0",
    });
    started = await startServer(config, { signals: false });
    base = `http://127.0.0.1:${new URL(started.server.url!).port}`;
  });
  afterAll(async () => {
    await started?.shutdown();
    await files?.close();
  });

  it("serves the publication from the first request on, and says so in /health", async () => {
    expect(await search()).toEqual({ status: 200, ids: ids(OLD) });
    const data = await health();
    expect(data).toMatchObject({ source: "url", url: files.url, builtAt: "2026-11-20T04:00:00.000Z", assets: 2, pollSeconds: 0, lastError: null });
    expect(data.set).toBeUndefined();
    expect(data.lastCheckAt).not.toBeNull();
  });

  it("asks again with If-None-Match and fetches nothing more on a 304", async () => {
    const before = files.log.length;
    expect(await started.deps.data!.checkNow()).toBe("unchanged");
    const asked = files.log.slice(before);
    expect(asked).toEqual([{ path: `/v1/${META_FILE}`, ifNoneMatch: `"${sha256(readFileSync(join(root, "v1", META_FILE)))}"`, status: 304 }]);
  });

  it("swaps in a new publication while searches go on: none fails, each sees the old set or the new one whole", async () => {
    deploy(root, assets(...NEW), "2026-11-21T04:00:00.000Z");
    // `during`: sent and answered while the check ran; `after`: sent once the new set was in service.
    const answers: { status: number; ids: string[]; during: boolean; after: boolean }[] = [];
    let checking = false;
    let swapped = false;
    let stop = false;
    const loop = async () => {
      while (!stop) {
        const [during, after] = [checking, swapped];
        const answer = await search();
        answers.push({ ...answer, during: during && checking, after });
      }
    };
    const loops = [loop(), loop(), loop(), loop()];
    while (answers.length < 8) await search(); // the loops are answering before the check starts
    checking = true;
    const outcome = await started.deps.data!.checkNow();
    checking = false;
    swapped = true;
    while (answers.filter((a) => a.after).length < 8) await search();
    stop = true;
    await Promise.all(loops);

    expect(outcome).toBe("updated");
    expect(answers.filter((a) => a.status !== 200)).toEqual([]);
    for (const a of answers) expect([ids(OLD), ids(NEW)]).toContainEqual(a.ids);
    expect(answers.some((a) => a.during)).toBe(true);
    expect(answers.some((a) => a.ids.join() === ids(OLD).join())).toBe(true);
    for (const a of answers.filter((a) => a.after)) expect(a.ids).toEqual(ids(NEW));
    expect(await search()).toEqual({ status: 200, ids: ids(NEW) });
    expect(await health()).toMatchObject({ source: "url", builtAt: "2026-11-21T04:00:00.000Z", assets: 3, lastError: null });
  });

  it("keeps the data in service when a file does not match the meta's sha256, and shows the error in /health", async () => {
    deploy(root, assets("echo"), "2026-11-22T04:00:00.000Z", { tamper: true });
    expect(await started.deps.data!.checkNow()).toBe("failed");
    expect(await search()).toEqual({ status: 200, ids: ids(NEW) });
    const data = await health();
    expect(data).toMatchObject({ source: "url", builtAt: "2026-11-21T04:00:00.000Z", assets: 3 });
    expect(data.lastError?.message).toMatch(
      /^index\.json\.gz does not match index\.meta\.json: \d+ bytes with sha256 [0-9a-f]{64}, expected \d+ bytes with sha256 [0-9a-f]{64}$/,
    );
    expect(data.lastError?.at).toBe(data.lastCheckAt);
    expect(await started.deps.usage.metrics.text()).toContain('asset_search_data_checks_total{outcome="failed"} 1');
  });

  it("tries a failed publication again on the next check (its ETag was not kept), and clears the error once it loads", async () => {
    // The same meta, now with the right file: a CDN that served a stale file a moment ago.
    const meta = readFileSync(join(root, "v1", META_FILE));
    deploy(root, assets("echo"), "2026-11-22T04:00:00.000Z");
    expect(readFileSync(join(root, "v1", META_FILE))).toEqual(meta);
    const before = metaRequests().length;
    expect(await started.deps.data!.checkNow()).toBe("updated");
    expect(
      metaRequests()
        .slice(before)
        .map((l) => l.status),
    ).toEqual([200]);
    expect(await search()).toEqual({ status: 200, ids: ids(["echo"]) });
    expect(await health()).toMatchObject({ builtAt: "2026-11-22T04:00:00.000Z", assets: 1, lastError: null });
  });

  it("refuses a meta of another format, keeping the data in service", async () => {
    deploy(root, assets("foxtrot"), "2026-11-23T04:00:00.000Z", { meta: (m) => ({ ...m, format: 2 }) });
    expect(await started.deps.data!.checkNow()).toBe("failed");
    expect(files.log.at(-1)!.path).toBe(`/v1/${META_FILE}`); // no file of that publication was fetched
    expect(await search()).toEqual({ status: 200, ids: ids(["echo"]) });
    expect((await health()).lastError?.message).toBe("index.meta.json has format 2; this server reads format 1 only");
  });

  it("refuses a file longer than the meta says without reading past that size", async () => {
    deploy(root, assets("golf"), "2026-11-24T04:00:00.000Z", {
      meta: (m) => {
        m.files[PUBLISHED_FILES.history]!.bytes = 2;
        return m;
      },
    });
    expect(await started.deps.data!.checkNow()).toBe("failed");
    expect((await health()).lastError?.message).toBe(`${files.url}/v1/${PUBLISHED_FILES.history} is larger than 2 bytes`);
    expect(await search()).toEqual({ status: 200, ids: ids(["echo"]) });
  });

  it("keeps the data in service when the publication cannot be reached", async () => {
    rmSync(join(root, "v1", META_FILE));
    expect(await started.deps.data!.checkNow()).toBe("failed");
    expect((await health()).lastError?.message).toBe(`GET ${files.url}/v1/${META_FILE} answered HTTP 404`);
    expect(await search()).toEqual({ status: 200, ids: ids(["echo"]) });
    expect(await started.deps.usage.metrics.text()).toMatch(
      /asset_search_data_checks_total\{outcome="unchanged"\} 1\nasset_search_data_checks_total\{outcome="updated"\} 3\nasset_search_data_checks_total\{outcome="failed"\} 4/,
    );
  });
});

describe("following DATA_URL with an index file", () => {
  it("downloads the index file to DATA_CACHE_DIR and reads it in place, never index.json.gz; keeps only the file in service; removes its folder at shutdown", async () => {
    const root = tempDir();
    const cache = tempDir();
    deploy(root, assets(...OLD), "2026-11-20T04:00:00.000Z", { indexFile: true });
    const files = await staticServer(root);
    const config = loadConfig({
      HOST: "127.0.0.1",
      PORT: "0",
      DATA_DIR: tempDir(),
      DATA_URL: files.url,
      DATA_CACHE_DIR: cache,
      DATA_POLL_SECONDS: "0",
      ASSET_SERVER_REPLAY: FIXTURES,
      RATE_LIMIT_PER_MINUTE: "0",
    });
    const started = await startServer(config, { signals: false });
    const base = `http://127.0.0.1:${new URL(started.server.url!).port}`;
    const search = async () => {
      const body = (await (await fetch(`${base}/v1/search?q=${WORD}&providers=${PROVIDER}&limit=50`)).json()) as { results: Asset[] };
      return body.results.map((a) => a.id).sort();
    };
    /** The files in the server's folder under DATA_CACHE_DIR, by name. */
    const cached = () => readdirSync(cache).flatMap((folder) => readdirSync(join(cache, folder)));
    const sha256Of = (name: string) => sha256(readFileSync(join(root, "v1", name)));
    try {
      expect(await search()).toEqual(ids(OLD));
      expect(files.log.map((l) => l.path).sort()).toEqual(["/v1/catalog-history.json", "/v1/catalog.json", "/v1/index.db", `/v1/${META_FILE}`]);
      expect(cached()).toEqual([`${sha256Of(INDEX_FILE)}.db`]);

      deploy(root, assets(...NEW), "2026-11-21T04:00:00.000Z", { indexFile: true });
      expect(await started.deps.data!.checkNow()).toBe("updated");
      expect(await search()).toEqual(ids(NEW));
      expect(cached()).toEqual([`${sha256Of(INDEX_FILE)}.db`]);
      const inService = cached();

      deploy(root, assets("hotel"), "2026-11-22T04:00:00.000Z", { indexFile: true, tamper: true });
      expect(await started.deps.data!.checkNow()).toBe("failed");
      expect(started.deps.data!.status().lastError?.message).toMatch(
        /^index\.db does not match index\.meta\.json: \d+ bytes with sha256 [0-9a-f]{64}, expected \d+ bytes with sha256 [0-9a-f]{64}$/,
      );
      expect(await search()).toEqual(ids(NEW));
      expect(cached()).toEqual(inService); // nothing of the refused download is left
      expect(files.log.some((l) => l.path === `/v1/${PUBLISHED_FILES.index}`)).toBe(false);
    } finally {
      await started.shutdown();
      await files.close();
    }
    expect(readdirSync(cache)).toEqual([]);
  });
});

describe("following DATA_DIR", () => {
  it("loads the set current.json names once it changes, checking it against its meta; a set without meta still loads", async () => {
    const dataDir = tempDir();
    const first = publishDir(dataDir, assets(...OLD), "2026-11-20T04:00:00.000Z");
    const deps = createDeps(loadConfig({ DATA_DIR: dataDir, DATA_POLL_SECONDS: "0", ASSET_SERVER_REPLAY: FIXTURES }));
    const data = deps.data!;
    expect(data.status()).toMatchObject({ source: "dir", set: first, assets: 2, lastCheckAt: null });
    expect(await data.checkNow()).toBe("unchanged");

    const second = publishDir(dataDir, assets(...NEW), "2026-11-21T04:00:00.000Z");
    const published = deps.published;
    expect(await data.checkNow()).toBe("updated");
    expect(deps.published).toBe(published); // the same object, its fields replaced
    expect([...deps.published.index.records()].map((a) => a.id).sort()).toEqual(ids(NEW));
    expect(data.status()).toMatchObject({ source: "dir", set: second, builtAt: "2026-11-21T04:00:00.000Z", lastError: null });

    publishDir(dataDir, assets("hotel"), "2026-11-22T04:00:00.000Z", { tamper: true });
    expect(await data.checkNow()).toBe("failed");
    expect(data.status().set).toBe(second);
    expect(data.status().lastError?.message).toMatch(
      /^catalog\.json does not match index\.meta\.json: \d+ bytes with sha256 [0-9a-f]{64}, expected \d+ bytes with sha256 0{64}$/,
    );
    expect([...deps.published.index.records()].map((a) => a.id).sort()).toEqual(ids(NEW));

    const old = publishDir(dataDir, assets("india"), "2026-11-23T04:00:00.000Z", { withMeta: false });
    expect(await data.checkNow()).toBe("updated");
    expect(data.status()).toMatchObject({ set: old, assets: 1, lastError: null });
  });

  it("opens a new set's index file in place, not its index.json.gz, and refuses one whose size is not the meta's", async () => {
    const dataDir = tempDir();
    publishDir(dataDir, assets(...OLD), "2026-11-20T04:00:00.000Z");
    const deps = createDeps(loadConfig({ DATA_DIR: dataDir, DATA_POLL_SECONDS: "0", ASSET_SERVER_REPLAY: FIXTURES }));
    const withFile = (list: Asset[], builtAt: string) =>
      publishSet(dataDir, { ...contents(list, builtAt), indexFile: AssetIndex.build(list, builtAt).fileBytes() }, builtAt);

    const second = withFile(assets(...NEW), "2026-11-21T04:00:00.000Z");
    // A broken index.json.gz: a follower that read it would fail.
    writeFileSync(join(dataDir, "sets", second, PUBLISHED_FILES.index), "not gzip");
    expect(await deps.data!.checkNow()).toBe("updated");
    expect([...deps.published.index.records()].map((a) => a.id).sort()).toEqual(ids(NEW));

    const third = withFile(assets("hotel"), "2026-11-22T04:00:00.000Z");
    writeFileSync(join(dataDir, "sets", third, INDEX_FILE), "short");
    expect(await deps.data!.checkNow()).toBe("failed");
    expect(deps.data!.status().lastError?.message).toMatch(
      /^index\.db could not be read: index\.db does not match index\.meta\.json: 5 bytes, expected \d+ bytes$/,
    );
    expect(deps.data!.status().set).toBe(second);
  });

  it("sees a new current.json through the watcher, before any poll", async () => {
    const dataDir = tempDir();
    publishDir(dataDir, assets(...OLD), "2026-11-20T04:00:00.000Z");
    const deps = createDeps(loadConfig({ DATA_DIR: dataDir, ASSET_SERVER_REPLAY: FIXTURES }));
    let loaded!: () => void;
    const seen = new Promise<void>((resolve) => {
      loaded = resolve;
    });
    const { log, lines } = capturedLog((line) => {
      if (line.event === "data_swap") loaded();
    });
    const data = followData({
      published: deps.published,
      origin: { source: "dir" },
      source: dirSource(dataDir, undefined),
      pollSeconds: 3600,
      watch: (onChange) => watchDir(dataDir, onChange, log),
      log,
    });
    // The loaded set is unknown to this source: it loads whatever current.json names on the first change.
    data.start();
    const set = publishDir(dataDir, assets(...NEW), "2026-11-21T04:00:00.000Z");
    await seen;
    await data.stop();
    expect([...deps.published.index.records()].map((a) => a.id).sort()).toEqual(ids(NEW));
    // The swap is one line naming the set now in service.
    expect(lines()).toEqual([
      {
        level: "info",
        time: expect.any(String),
        pid: process.pid,
        hostname: expect.any(String),
        event: "data_swap",
        set,
        assets: 3,
        builtAt: "2026-11-21T04:00:00.000Z",
        msg: "data: now serving 3 assets built 2026-11-21T04:00:00.000Z from DATA_DIR",
      },
    ]);
  });
});

describe("polling", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const countingSource = (): DataSource & { polls: number } => {
    const source = {
      polls: 0,
      poll: async () => {
        source.polls++;
        return undefined;
      },
    };
    return source;
  };
  const empty = () => ({ index: AssetIndex.empty(), catalog: undefined, history: { points: [] } });

  it("checks every pollSeconds until stopped", async () => {
    vi.useFakeTimers();
    const source = countingSource();
    const data = followData({ published: empty(), origin: { source: "dir" }, source, pollSeconds: 60 });
    data.start();
    data.start(); // a second start adds no second timer
    await vi.advanceTimersByTimeAsync(59_999);
    expect(source.polls).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(source.polls).toBe(1);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(source.polls).toBe(3);
    await data.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(source.polls).toBe(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("does not poll when pollSeconds is 0", async () => {
    vi.useFakeTimers();
    const source = countingSource();
    followData({ published: empty(), origin: { source: "dir" }, source, pollSeconds: 0 }).start();
    expect(vi.getTimerCount()).toBe(0);
  });

  it("keeps no process alive: its timer is unreferenced", async () => {
    const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const before = timeouts();
    const data = followData({ published: empty(), origin: { source: "dir" }, source: countingSource(), pollSeconds: 60 });
    data.start();
    expect(timeouts()).toBe(before);
    await data.stop();
  });

  it("a check asked while one runs waits for it, then checks again", async () => {
    let release!: () => void;
    const source = countingSource();
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: DataSource = {
      poll: async () => {
        source.polls++;
        if (source.polls === 1) await gate;
        return undefined;
      },
    };
    const data = followData({ published: empty(), origin: { source: "dir" }, source: slow, pollSeconds: 0 });
    const first = data.checkNow();
    const second = data.checkNow();
    const third = data.checkNow();
    expect(third).toBe(second);
    release();
    expect(await Promise.all([first, second])).toEqual(["unchanged", "unchanged"]);
    expect(source.polls).toBe(2);
  });
});

describe("DATA_URL and DATA_POLL_SECONDS", () => {
  it("reads a base URL without its trailing slash", () => {
    expect(loadConfig({ DATA_URL: "https://owner.github.io/repo/" }).dataUrl).toBe("https://owner.github.io/repo");
    expect(loadConfig({}).dataUrl).toBeUndefined();
    expect(loadConfig({}).dataPollSeconds).toBe(300);
    expect(loadConfig({ DATA_POLL_SECONDS: "0" }).dataPollSeconds).toBe(0);
  });

  it.each([
    ["ftp://owner.github.io/repo", "DATA_URL must be an absolute http(s) URL, got 'ftp://owner.github.io/repo'"],
    ["owner.github.io/repo", "DATA_URL must be an absolute http(s) URL, got 'owner.github.io/repo'"],
    ["https://owner.github.io/repo/v1/", "DATA_URL is the base of a publication, without its /v<format> folder, got 'https://owner.github.io/repo/v1/'"],
    ["https://owner.github.io/repo?x=1", "DATA_URL must have no query or fragment, got 'https://owner.github.io/repo?x=1'"],
  ])("refuses DATA_URL %s", (value, error) => {
    expect(() => loadConfig({ DATA_URL: value })).toThrow(error);
  });

  it.each([
    ["5", "DATA_POLL_SECONDS must be 0 (never) or at least 10, got '5'"],
    ["-1", "DATA_POLL_SECONDS must be a non-negative number, got '-1'"],
    ["soon", "DATA_POLL_SECONDS must be a non-negative number, got 'soon'"],
  ])("refuses DATA_POLL_SECONDS %s", (value, error) => {
    expect(() => loadConfig({ DATA_POLL_SECONDS: value })).toThrow(error);
  });
});
