import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { PassThrough, Readable } from "node:stream";
import { crc32 } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { fromBufferPromise } from "yauzl";
import { type HttpClient, type StreamResponse, UpstreamError } from "../core/http/types.ts";
import { licenseById } from "../core/model/license.ts";
import type { AssetDetails, AssetFile } from "../core/schemas/index.ts";
import { creditsText, isStored, planZip, streamZip, type ZipPlan, ZipTooLargeError } from "../server/download/zip.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { FIXTURES, replayRuntime } from "./helpers/replay.ts";

// The armchair download is answered by test/fixtures/synthetic/gltf-armchair: synthetic bodies
// (a one-triangle glTF, its .bin, three 8x8 JPEGs) at the real Poly Haven URLs of the recording
// files_ArmChair_01.json. Other upstream bodies here are inline `replay.add` entries on example.com.

const SYNTHETIC = join(FIXTURES, "synthetic", "gltf-armchair");
const DL = "https://dl.polyhaven.org/file/ph-assets/Models";
const EX = "https://files.example.com/asset";
const MiB = 1024 * 1024;

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function unzip(zip: Buffer): Promise<Map<string, { data: Buffer; method: number }>> {
  const file = await fromBufferPromise(zip, { lazyEntries: true });
  const out = new Map<string, { data: Buffer; method: number }>();
  for await (const entry of file.eachEntry()) {
    out.set(entry.fileName, { data: await collect(await file.openReadStreamPromise(entry)), method: entry.compressionMethod });
  }
  return out;
}

/**
 * The runtime's client, recording which URLs were opened, when their bodies ended, and each
 * request's signal. `closedDown(out)` settles once the archive `out` is closed and every request
 * it made has settled and its body closed: then nothing is left that could ask for another URL.
 */
function recording(http: HttpClient, options: { hideSize?: boolean } = {}) {
  const log: string[] = [];
  const signals = new Map<string, AbortSignal>();
  const requests: Promise<void>[] = [];
  const closed = (stream: Readable) => new Promise<void>((resolve) => (stream.closed ? resolve() : stream.once("close", () => resolve())));
  const client: HttpClient = {
    ...http,
    async stream(url, opts) {
      log.push(`open ${url}`);
      if (opts?.signal) signals.set(url, opts.signal);
      const opened = http.stream(url, opts);
      requests.push(
        opened.then(
          (res) => closed(res.body),
          () => undefined,
        ),
      );
      const res = await opened;
      res.body.once("end", () => log.push(`end ${url}`));
      if (!options.hideSize) return res;
      // An upstream that announces no content-length: only the streaming count can catch it.
      const { sizeBytes: _hidden, ...rest } = res;
      return rest satisfies StreamResponse;
    },
  };
  const closedDown = async (out: Readable) => {
    await closed(out);
    await Promise.all(requests);
  };
  return { client, log, signals, closedDown };
}

const details = (over: Partial<AssetDetails> = {}): AssetDetails => ({
  id: "example:Old Lamp/02",
  provider: "example",
  nativeId: "Old Lamp/02",
  title: "Old Lamp",
  type: "model",
  tags: [],
  url: "https://example.com/assets/old-lamp",
  downloadable: true,
  files: [],
  ...over,
});

const plan = (...entries: ZipPlan["entries"]): ZipPlan => ({ assetId: "example:asset", provider: "example", folder: "example-asset", entries });
const dlUrls = (requested: string[], prefix: string) => requested.filter((u) => u.startsWith(prefix));

async function armchair() {
  const runtime = replayRuntime();
  const asset = await polyhaven.getAsset("ArmChair_01", runtime.context());
  const file = asset!.files.find((f) => f.filename === "ArmChair_01_2k.gltf")!;
  return { runtime, asset: asset!, file };
}

describe("planZip", () => {
  it("lays out the glTF at the folder root and its includes at their relative paths", async () => {
    const { asset, file } = await armchair();
    const p = planZip(asset, [file]);
    expect(p.folder).toBe("polyhaven-armchair_01");
    expect(p.entries).toEqual([
      { path: "ArmChair_01_2k.gltf", url: `${DL}/gltf/2k/ArmChair_01/ArmChair_01_2k.gltf`, sizeBytes: 2643 },
      { path: "textures/Armchair_01_nor_gl_2k.jpg", url: `${DL}/jpg/2k/ArmChair_01/Armchair_01_nor_gl_2k.jpg`, sizeBytes: 1482566 },
      { path: "ArmChair_01.bin", url: `${DL}/gltf/4k/ArmChair_01/ArmChair_01.bin`, sizeBytes: 154012 },
      { path: "textures/Armchair_01_diff_2k.jpg", url: `${DL}/jpg/2k/ArmChair_01/Armchair_01_diff_2k.jpg`, sizeBytes: 723200 },
      { path: "textures/Armchair_01_arm_2k.jpg", url: `${DL}/jpg/2k/ArmChair_01/Armchair_01_arm_2k.jpg`, sizeBytes: 442886 },
    ]);
    expect(p.totalBytes).toBe(2643 + 1482566 + 154012 + 723200 + 442886);
  });

  it("puts a companion shared by two files in once and counts it once", async () => {
    const { asset } = await armchair();
    const two = asset.files.filter((f) => f.group === "gltf" && (f.resolution === "2k" || f.resolution === "4k"));
    expect(two).toHaveLength(2);
    const p = planZip(asset, two);
    expect(p.entries.filter((e) => e.path === "ArmChair_01.bin")).toHaveLength(1);
    expect(p.entries).toHaveLength(2 * 5 - 1);
    expect(new Set(p.entries.map((e) => e.path)).size).toBe(p.entries.length);
    const unique = new Map([...two, ...two.flatMap((f) => f.includes ?? [])].map((f) => [f.url, f.sizeBytes ?? 0]));
    expect(p.totalBytes).toBe([...unique.values()].reduce((a, b) => a + b, 0));
  });

  it("leaves totalBytes undefined when any size is unknown", () => {
    const files: AssetFile[] = [
      { url: `${EX}/a.png`, filename: "a.png", format: "png", sizeBytes: 10 },
      { url: `${EX}/b.png`, filename: "b.png", format: "png", includes: [{ path: "c.png", url: `${EX}/c.png` }] },
    ];
    expect(planZip(details(), files).totalBytes).toBeUndefined();
    expect(planZip(details(), [files[0]!]).totalBytes).toBe(10);
  });

  it("slugs the folder and keeps every path inside it", () => {
    const files: AssetFile[] = [
      {
        url: `${EX}/scene.gltf`,
        filename: "sub/dir/scene.gltf",
        format: "gltf",
        includes: [
          { path: "../../etc/passwd", url: `${EX}/p` },
          { path: "textures\\wood.jpg", url: `${EX}/wood.jpg` },
          { path: "/abs/./x.bin", url: `${EX}/x.bin` },
        ],
      },
      { url: `${EX}/LICENSE.txt`, filename: "LICENSE.txt", format: "txt" },
    ];
    const p = planZip(details(), files);
    expect(p.folder).toBe("example-old-lamp-02");
    expect(p.entries.map((e) => e.path)).toEqual(["scene.gltf", "etc/passwd", "textures/wood.jpg", "abs/x.bin", "source-LICENSE.txt"]);
  });
});

describe("creditsText", () => {
  it("names the asset, its source, licence and every file with its URL", async () => {
    const { asset, file } = await armchair();
    const text = creditsText(asset, [file]);
    expect(text).toContain("Arm Chair 01");
    expect(text).toContain("https://polyhaven.com/a/ArmChair_01");
    expect(text).toContain("Kirill Sannikov");
    expect(text).toContain("CC0 1.0 Universal");
    expect(text).toContain("CC0-1.0");
    expect(text).toContain("https://creativecommons.org/publicdomain/zero/1.0/");
    expect(text).not.toContain("Credit line");
    for (const entry of planZip(asset, [file]).entries) {
      expect(text).toContain(entry.path);
      expect(text).toContain(entry.url);
    }
  });

  it("includes the attribution line when the licence requires it, and says when the licence is unknown", () => {
    const files: AssetFile[] = [{ url: `${EX}/a.png`, filename: "a.png", format: "png" }];
    const byText = creditsText(details({ author: "Jane", license: licenseById("CC-BY-4.0") }), files);
    expect(byText).toContain(
      '"Old Lamp" by Jane (https://example.com/assets/old-lamp), licensed under CC-BY-4.0 (https://creativecommons.org/licenses/by/4.0/).',
    );
    expect(creditsText(details(), files)).toMatch(/Licence: +unknown/);
  });
});

describe("isStored", () => {
  it("stores already-compressed formats and deflates the rest", () => {
    for (const name of [
      "a.jpg",
      "a.JPEG",
      "a.png",
      "a.webp",
      "a.zip",
      "a.glb",
      "a.gz",
      "a.mp3",
      "a.ogg",
      "a.woff2",
      "a.exr",
      "a.ktx2",
      "a.7z",
      "a.rar",
      "a.mp4",
    ]) {
      expect(isStored(name), name).toBe(true);
    }
    for (const name of ["a.gltf", "a.bin", "a.obj", "a.fbx", "a.blend", "a.hdr", "a.txt", "LICENSE", "a.usda"]) {
      expect(isStored(name), name).toBe(false);
    }
  });
});

describe("streamZip", () => {
  it("streams a ready-to-use glTF folder: every uri of the glTF resolves inside the archive", async () => {
    const { runtime, asset, file } = await armchair();
    const p = planZip(asset, [file]);
    const credits = creditsText(asset, [file]);
    const { client, log } = recording(runtime.http);
    const zip = await collect(streamZip(p, credits, { http: client, maxBytes: 64 * MiB }));
    const entries = await unzip(zip);

    const folder = "polyhaven-armchair_01";
    expect([...entries.keys()].sort()).toEqual([`${folder}/LICENSE.txt`, ...p.entries.map((e) => `${folder}/${e.path}`)].sort());

    // Byte-for-byte the synthetic bodies served at the real URLs.
    for (const e of p.entries) expect(entries.get(`${folder}/${e.path}`)!.data.equals(readFileSync(join(SYNTHETIC, e.path))), e.path).toBe(true);

    const gltfPath = `${folder}/ArmChair_01_2k.gltf`;
    const gltf = JSON.parse(entries.get(gltfPath)!.data.toString("utf8")) as { buffers: { uri: string }[]; images: { uri: string }[] };
    const uris = [...gltf.buffers, ...gltf.images].map((x) => x.uri);
    expect(uris).toHaveLength(4);
    for (const uri of uris) expect(entries.has(posix.join(posix.dirname(gltfPath), uri)), uri).toBe(true);

    expect(entries.get(`${folder}/LICENSE.txt`)!.data.toString("utf8")).toBe(credits);

    // Each upstream file asked once, in plan order, and each only after the previous body ended.
    expect(dlUrls(runtime.replay.requested, "https://dl.polyhaven.org/")).toEqual(p.entries.map((e) => e.url));
    expect(log).toEqual(p.entries.flatMap((e) => [`open ${e.url}`, `end ${e.url}`]));
  });

  it("stores already-compressed entries and deflates the others", async () => {
    const { runtime, asset, file } = await armchair();
    const p = planZip(asset, [file]);
    const entries = await unzip(await collect(streamZip(p, creditsText(asset, [file]), { http: runtime.http, maxBytes: 64 * MiB })));
    const method = (path: string) => entries.get(`polyhaven-armchair_01/${path}`)!.method;
    expect(method("ArmChair_01_2k.gltf")).toBe(8);
    expect(method("ArmChair_01.bin")).toBe(8);
    expect(method("LICENSE.txt")).toBe(8);
    expect(method("textures/Armchair_01_diff_2k.jpg")).toBe(0);
    expect(method("textures/Armchair_01_nor_gl_2k.jpg")).toBe(0);
    expect(method("textures/Armchair_01_arm_2k.jpg")).toBe(0);
  });

  it("keeps bytes and CRC-32 exact across the many chunks of a body, stored or deflated", async () => {
    const runtime = replayRuntime();
    // SYNTHETIC bodies: 3.5 MiB of varied ASCII bytes (the replay body is text), as a stored and as a deflated entry.
    const body = Buffer.from(Array.from({ length: 3.5 * MiB }, (_, i) => (i * 7919) % 127));
    runtime.replay.add({ url: `${EX}/big.png`, body: body.toString("latin1") }).add({ url: `${EX}/big.obj`, body: body.toString("latin1") });
    const zip = await collect(
      streamZip(plan({ path: "big.png", url: `${EX}/big.png` }, { path: "big.obj", url: `${EX}/big.obj` }), "credits", {
        http: runtime.http,
        maxBytes: 64 * MiB,
      }),
    );
    const file = await fromBufferPromise(zip, { lazyEntries: true });
    const seen: string[] = [];
    for await (const entry of file.eachEntry()) {
      if (entry.fileName.endsWith("LICENSE.txt")) continue;
      const data = await collect(await file.openReadStreamPromise(entry));
      expect(data.equals(body), entry.fileName).toBe(true);
      expect(entry.crc32, entry.fileName).toBe(crc32(data));
      seen.push(`${entry.fileName} ${entry.compressionMethod}`);
    }
    expect(seen).toEqual(["example-asset/big.png 0", "example-asset/big.obj 8"]);
  });

  it("writes no ZIP64 records for a small archive (yazl adds them only when sizes or offsets need them)", async () => {
    const { runtime, asset, file } = await armchair();
    const zip = await collect(streamZip(planZip(asset, [file]), "credits", { http: runtime.http, maxBytes: 64 * MiB }));
    expect(zip.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(false); // ZIP64 end of central directory
    expect(zip.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(false); // ZIP64 locator
  });

  it("opens entries lazily: the next upstream request waits until the previous entry is written", async () => {
    const runtime = replayRuntime();
    const big = Buffer.alloc(MiB, "a").toString();
    runtime.replay
      .add({ url: `${EX}/big.jpg`, body: big })
      .add({ url: `${EX}/second.bin`, body: "second", delayMs: 30 })
      .add({ url: `${EX}/third.txt`, body: "third" });
    const out = streamZip(
      plan({ path: "big.jpg", url: `${EX}/big.jpg` }, { path: "second.bin", url: `${EX}/second.bin` }, { path: "third.txt", url: `${EX}/third.txt` }),
      "credits",
      { http: runtime.http, maxBytes: 64 * MiB },
    );
    // Nobody reads yet: the 1 MiB first entry fills the streams' buffers up to the archive's own
    // (which then asks its writer to wait for a drain) and cannot finish; stalled there, the
    // second URL must not have been asked.
    await vi.waitFor(() => expect(dlUrls(runtime.replay.requested, EX)).toEqual([`${EX}/big.jpg`]));
    await vi.waitFor(() => expect((out as PassThrough).writableNeedDrain).toBe(true));
    expect(dlUrls(runtime.replay.requested, EX)).toEqual([`${EX}/big.jpg`]);

    const entries = await unzip(await collect(out));
    expect(dlUrls(runtime.replay.requested, EX)).toEqual([`${EX}/big.jpg`, `${EX}/second.bin`, `${EX}/third.txt`]);
    expect(entries.get("example-asset/big.jpg")!.data.length).toBe(MiB);
    expect(entries.get("example-asset/second.bin")!.data.toString()).toBe("second");
    expect(entries.get("example-asset/third.txt")!.data.toString()).toBe("third");
  });

  it("fails with ZipTooLargeError mid-stream when the bytes pass maxBytes, and aborts that upstream request", async () => {
    const runtime = replayRuntime();
    runtime.replay
      .add({ url: `${EX}/a.jpg`, body: "a".repeat(100 * 1024) })
      .add({ url: `${EX}/b.jpg`, body: "b".repeat(MiB) })
      .add({ url: `${EX}/c.jpg`, body: "c" });
    const { client, signals, closedDown } = recording(runtime.http, { hideSize: true });
    const p = plan({ path: "a.jpg", url: `${EX}/a.jpg` }, { path: "b.jpg", url: `${EX}/b.jpg` }, { path: "c.jpg", url: `${EX}/c.jpg` });
    const out = streamZip(p, "credits", { http: client, maxBytes: 300 * 1024 });
    const err = await collect(out).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZipTooLargeError);
    expect((err as ZipTooLargeError).limitBytes).toBe(300 * 1024);
    expect((err as ZipTooLargeError).actualBytes).toBeGreaterThan(300 * 1024);
    expect((err as ZipTooLargeError).actualBytes).toBeLessThan(100 * 1024 + MiB);
    expect(signals.get(`${EX}/a.jpg`)!.aborted).toBe(false);
    expect(signals.get(`${EX}/b.jpg`)!.aborted).toBe(true);
    await closedDown(out);
    expect(dlUrls(runtime.replay.requested, EX)).toEqual([`${EX}/a.jpg`, `${EX}/b.jpg`]);
  });

  it("fails before reading a body whose announced content-length passes maxBytes", async () => {
    const runtime = replayRuntime();
    runtime.replay.add({ url: `${EX}/a.jpg`, body: "a".repeat(1000) }).add({ url: `${EX}/b.jpg`, body: "b".repeat(5000) });
    const { client, signals } = recording(runtime.http);
    const p = plan({ path: "a.jpg", url: `${EX}/a.jpg` }, { path: "b.jpg", url: `${EX}/b.jpg` });
    const err = await collect(streamZip(p, "credits", { http: client, maxBytes: 3000 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZipTooLargeError);
    expect((err as ZipTooLargeError).actualBytes).toBe(6000);
    expect(signals.get(`${EX}/b.jpg`)!.aborted).toBe(true);
  });

  it("fails without any request when the planned total already passes maxBytes", async () => {
    const runtime = replayRuntime();
    const p = { ...plan({ path: "a.jpg", url: `${EX}/a.jpg`, sizeBytes: 5000 }), totalBytes: 5000 };
    const err = await collect(streamZip(p, "credits", { http: runtime.http, maxBytes: 3000 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ZipTooLargeError);
    expect(runtime.replay.requested).toEqual([]);
  });

  it("stops when the signal aborts: the current request is aborted and no further URL is asked", async () => {
    const runtime = replayRuntime();
    runtime.replay
      .add({ url: `${EX}/a.txt`, body: "a" })
      .add({ url: `${EX}/b.txt`, body: "b", fault: "hang" })
      .add({ url: `${EX}/c.txt`, body: "c" });
    const { client, signals, closedDown } = recording(runtime.http);
    const client_gone = new AbortController();
    const p = plan({ path: "a.txt", url: `${EX}/a.txt` }, { path: "b.txt", url: `${EX}/b.txt` }, { path: "c.txt", url: `${EX}/c.txt` });
    const out = streamZip(p, "credits", { http: client, maxBytes: MiB, signal: client_gone.signal });
    const done = collect(out).catch((e: unknown) => e);
    await vi.waitFor(() => expect(dlUrls(runtime.replay.requested, EX)).toEqual([`${EX}/a.txt`, `${EX}/b.txt`]));
    client_gone.abort();
    const err = await done;
    expect((err as Error).name).toBe("AbortError");
    expect(signals.get(`${EX}/b.txt`)!.aborted).toBe(true);
    await closedDown(out);
    expect(dlUrls(runtime.replay.requested, EX)).toEqual([`${EX}/a.txt`, `${EX}/b.txt`]);
  });

  it("asks nothing when the signal is already aborted", async () => {
    const runtime = replayRuntime();
    const { client, closedDown } = recording(runtime.http);
    const out = streamZip(plan({ path: "a.txt", url: `${EX}/a.txt` }), "credits", { http: client, maxBytes: MiB, signal: AbortSignal.abort() });
    const err = await collect(out).catch((e: unknown) => e);
    expect((err as Error).name).toBe("AbortError");
    await closedDown(out);
    expect(runtime.replay.requested).toEqual([]);
  });

  it("aborts the current upstream request when the consumer destroys the stream", async () => {
    const runtime = replayRuntime();
    runtime.replay.add({ url: `${EX}/a.txt`, body: "a", fault: "hang" }).add({ url: `${EX}/b.txt`, body: "b" });
    const { client, signals, closedDown } = recording(runtime.http);
    const out = streamZip(plan({ path: "a.txt", url: `${EX}/a.txt` }, { path: "b.txt", url: `${EX}/b.txt` }), "credits", {
      http: client,
      maxBytes: MiB,
    });
    out.resume();
    await vi.waitFor(() => expect(signals.get(`${EX}/a.txt`)).toBeDefined());
    out.destroy();
    await vi.waitFor(() => expect(signals.get(`${EX}/a.txt`)!.aborted).toBe(true));
    await closedDown(out);
    expect(dlUrls(runtime.replay.requested, EX)).toEqual([`${EX}/a.txt`]);
  });

  // The route has sent 200 and the headers by then: the client gets a truncated archive with no
  // central directory (reported as broken by any unzip tool) rather than a zip silently missing a file.
  it("errors the stream when one upstream entry fails, and asks nothing after it", async () => {
    const runtime = replayRuntime();
    runtime.replay
      .add({ url: `${EX}/a.txt`, body: "a" })
      .add({ url: `${EX}/b.txt`, status: 404, body: "not found" })
      .add({ url: `${EX}/c.txt`, body: "c" });
    const { client, closedDown } = recording(runtime.http);
    const p = plan({ path: "a.txt", url: `${EX}/a.txt` }, { path: "b.txt", url: `${EX}/b.txt` }, { path: "c.txt", url: `${EX}/c.txt` });
    const chunks: Buffer[] = [];
    const out = streamZip(p, "credits", { http: client, maxBytes: MiB });
    out.on("data", (c: Buffer) => chunks.push(c));
    const err = await new Promise<unknown>((resolve) => out.on("error", resolve));
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).status).toBe(404);
    expect((err as UpstreamError).url).toBe(`${EX}/b.txt`);
    await closedDown(out);
    expect(dlUrls(runtime.replay.requested, EX)).toEqual([`${EX}/a.txt`, `${EX}/b.txt`]);
    // What was sent is not a readable archive.
    await expect(unzip(Buffer.concat(chunks))).rejects.toThrow();
  });

  it("errors the stream with an UpstreamError when a body breaks mid-way", async () => {
    const runtime = replayRuntime();
    runtime.replay.add({ url: `${EX}/a.jpg`, body: "a".repeat(300 * 1024), fault: "truncate" });
    const err = await collect(streamZip(plan({ path: "a.jpg", url: `${EX}/a.jpg` }), "credits", { http: runtime.http, maxBytes: MiB })).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(UpstreamError);
    expect((err as UpstreamError).kind).toBe("network");
    expect((err as UpstreamError).url).toBe(`${EX}/a.jpg`);
  });
});
