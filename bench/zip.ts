/**
 * Zip downloads against plain downloads of the same files from the same loopback upstream, with
 * the service's own HTTP client on both sides: the zip's throughput ÷ the plain one (1 = the zip
 * costs nothing over the bytes themselves) and the CPU time of each per MiB, for an all-stored
 * set and for a set with one compressible member, and the RSS growth while a 2 GiB archive streams.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { createRequire } from "node:module";
import type { Readable } from "node:stream";
import { Worker } from "node:worker_threads";
import { loadConfig } from "../core/config.ts";
import { createHttpClient } from "../core/http/client.ts";
import type { HttpClient } from "../core/http/types.ts";
import { streamZip, type ZipPlan } from "../server/download/zip.ts";
import { median } from "./stats.ts";

const MiB = 1024 * 1024;

/** A file of the upstream: `size` bytes made of `block` repeated, so a 2 GiB file costs no memory. */
interface UpstreamFile {
  name: string;
  size: number;
  block: Buffer;
}

/**
 * Serves the files at `/<name>` with their content-length, from a worker thread: the upstream is
 * another machine in real life, so its work must not share the event loop being measured.
 */
async function upstream(files: UpstreamFile[]): Promise<{ base: string; close: () => Promise<number> }> {
  const worker = new Worker(UPSTREAM_WORKER, { eval: true, workerData: files.map((f) => ({ ...f, block: new Uint8Array(f.block) })) });
  const [port] = (await once(worker, "message")) as [number];
  return { base: `http://127.0.0.1:${port}`, close: () => worker.terminate() };
}

/** The worker's code: a node:http server of the files it is given, writing each with backpressure. */
const UPSTREAM_WORKER = `
const { createServer } = require("node:http");
const { once } = require("node:events");
const { parentPort, workerData } = require("node:worker_threads");
const byName = new Map(workerData.map((f) => ["/" + f.name, { ...f, block: Buffer.from(f.block) }]));
const server = createServer(async (req, res) => {
  const file = byName.get(req.url || "");
  if (!file) return void res.writeHead(404).end();
  res.writeHead(200, { "content-type": "application/octet-stream", "content-length": file.size });
  for (let sent = 0; sent < file.size && !res.destroyed; ) {
    const chunk = file.block.subarray(0, Math.min(file.block.length, file.size - sent));
    sent += chunk.length;
    if (!res.write(chunk)) await once(res, "drain");
  }
  res.end();
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
`;

/** Reads a stream to its end; the peak RSS seen while it flowed. */
async function drain(stream: Readable): Promise<{ bytes: number; peakRss: number }> {
  let bytes = 0;
  let peakRss = process.memoryUsage.rss();
  for await (const chunk of stream) {
    bytes += (chunk as Buffer).length;
    if (bytes % (64 * MiB) < (chunk as Buffer).length) peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }
  return { bytes, peakRss };
}

const seconds = (start: number) => (performance.now() - start) / 1000;

/** CPU time of the whole process (this thread, the upstream's, zlib's pool) spent by `run`, in µs. */
async function cpuMicros(run: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await run();
  const used = process.cpuUsage(before);
  return used.user + used.system;
}

/** yazl's CRC-32 (the project's buffer-crc32 adapter), for the floor below. */
const crc32 = createRequire(import.meta.url)("buffer-crc32") as { unsigned: (data: Buffer, previous?: number) => number };

/**
 * The same files, in each round: plain one after another, plain with the CRC-32 of every byte (the
 * floor: any zip writer must do at least that much, so floor ÷ plain is the most a zip can reach on
 * this machine), then as one zip. Ratios are taken within a round and the median over rounds is
 * printed: the loopback's speed drifts by up to 2× between rounds on a shared virtual machine, and
 * comparing the best plain round with the best zip round would compare two different moments.
 * Also the CPU time each costs per MiB of files: the upstream's share is the same on both sides, so
 * the difference is what the zip adds.
 */
async function compare(http: HttpClient, files: UpstreamFile[], rounds: number) {
  const { base, close } = await upstream(files);
  const plan: ZipPlan = { assetId: "bench:zip", provider: "bench", folder: "bench", entries: files.map((f) => ({ path: f.name, url: `${base}/${f.name}` })) };
  const total = files.reduce((n, f) => n + f.size, 0);
  const plainAll = async () => {
    for (const f of files) await drain((await http.stream(`${base}/${f.name}`)).body);
  };
  const plainWithCrc = async () => {
    for (const f of files) {
      let crc = 0;
      for await (const chunk of (await http.stream(`${base}/${f.name}`)).body) crc = crc32.unsigned(chunk as Buffer, crc);
    }
  };
  const zipAll = () => drain(streamZip(plan, "credits", { http, maxBytes: Number.MAX_SAFE_INTEGER }));
  const runs = { plain: [] as number[], floor: [] as number[], zip: [] as number[] };
  const cpu = { plain: [] as number[], zip: [] as number[] };
  const timed = async (run: () => Promise<unknown>, speeds: number[], micros?: number[]) => {
    const start = performance.now();
    const used = await cpuMicros(run);
    micros?.push(used);
    speeds.push(total / MiB / seconds(start));
  };
  for (let round = 0; round < rounds; round++) {
    await timed(plainAll, runs.plain, cpu.plain);
    await timed(plainWithCrc, runs.floor);
    await timed(zipAll, runs.zip, cpu.zip);
  }
  await close();
  const perRound = (xs: number[]) => median(xs.map((x, i) => x / (runs.plain[i] ?? Number.NaN)));
  const perMiB = (micros: number[]) => Math.round(median(micros) / (total / MiB));
  return {
    megabytes: Math.round(total / MiB),
    plainMBps: Math.round(median(runs.plain)),
    zipMBps: Math.round(median(runs.zip)),
    ratio: perRound(runs.zip),
    crcFloorRatio: perRound(runs.floor),
    cpuMicrosPerMiB: { plain: perMiB(cpu.plain), zip: perMiB(cpu.zip) },
  };
}

/** RSS growth while a 2 GiB archive of four stored 512 MiB files streams through. */
async function memory(http: HttpClient) {
  const files = [0, 1, 2, 3].map((i) => ({ name: `big-${i}.exr`, size: 512 * MiB, block: randomBytes(MiB) }));
  const { base, close } = await upstream(files);
  const plan: ZipPlan = { assetId: "bench:big", provider: "bench", folder: "big", entries: files.map((f) => ({ path: f.name, url: `${base}/${f.name}` })) };
  globalThis.gc?.();
  const before = process.memoryUsage.rss();
  const { bytes, peakRss } = await drain(streamZip(plan, "credits", { http, maxBytes: Number.MAX_SAFE_INTEGER }));
  await close();
  return { archiveMiB: Math.round(bytes / MiB), rssGrowthMiB: Math.round((peakRss - before) / MiB) };
}

export async function benchZip() {
  // The loopback upstream is only reachable with the address guard off, as in the download tests.
  const http = createHttpClient({ config: loadConfig({ HTTP_CACHE_TTL_MS: "0", HTTP_RETRIES: "0" }), allowPrivateAddresses: true });
  // Five incompressible files, 220 MiB in all: stored (png, exr, glb, jpg, ktx2).
  const random = randomBytes(4 * MiB);
  const stored = ["a.png", "b.exr", "c.glb", "d.jpg", "e.ktx2"].map((name) => ({ name, size: 44 * MiB, block: random }));
  // The same with one 4 MiB text member (a glTF's JSON is of that order), which is deflated.
  const text = Buffer.from(`${JSON.stringify({ vertices: Array.from({ length: 20_000 }, (_, i) => [i % 97, i % 89, i % 83]) })}\n`);
  const mixed = [...stored.slice(0, 4), { name: "e.gltf", size: 4 * MiB, block: text }];
  const result = { stored: await compare(http, stored, 7), compressible: await compare(http, mixed, 7), memory: await memory(http) };
  await http.close();
  return result;
}
