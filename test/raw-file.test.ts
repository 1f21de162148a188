/**
 * GET /v1/assets/{id}/raw/{path} (server/routes/raw-file.ts): one file of a selection at its path
 * in the zip's layout, so a glTF's relative URIs resolve beside it; the selection's bounds (404,
 * 409), the size cap (413, and the cut), the address guard on every hop, the preview counted apart
 * from downloads, and how the path is told from the id. Poly Haven's ArmChair_01 files are the
 * SYNTHETIC bodies of test/fixtures/synthetic/gltf-armchair/ at the recorded URLs.
 */
import { readFileSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { join } from "node:path";
// @ts-expect-error The Khronos validator ships no type declarations.
import { validateBytes } from "gltf-validator";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { createHttpClient } from "../core/http/client.ts";
import type { Source } from "../core/model/source.ts";
import { type AssetFile, ErrorBody, FileSelection } from "../core/schemas/index.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { testApp } from "./helpers/app.ts";
import { oneAssetApp, syntheticDetails } from "./helpers/one-asset.ts";
import { FIXTURES } from "./helpers/replay.ts";

const RAW = "/v1/assets/polyhaven:ArmChair_01/raw";
const DL = "https://dl.polyhaven.org/file/ph-assets/Models";
const SYNTHETIC = join(FIXTURES, "synthetic", "gltf-armchair");
const synthetic = (path: string) => readFileSync(join(SYNTHETIC, path));

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

/** A node:http upstream on 127.0.0.1, closed after the test; `asked` lists the paths requested. */
async function upstream(handler: RequestListener): Promise<{ base: string; port: number; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? "");
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, port, asked };
}

/** One synthetic model whose selection is `scene.gltf` with `scene.bin` beside it. */
const gltfFile = (base: string, extra: Partial<AssetFile> = {}): AssetFile => ({
  url: `${base}/scene.gltf`,
  filename: "scene.gltf",
  format: "gltf",
  includes: [{ path: "scene.bin", url: `${base}/scene.bin` }],
  ...extra,
});

describe("GET /v1/assets/{id}/raw/{path}", () => {
  it("serves the glTF at the root and its .bin and textures at their relative paths, so every URI resolves beside it", async () => {
    const { get, replay } = await testApp();
    const res = await get(`${RAW}/ArmChair_01_2k.gltf`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("model/gltf+json");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-disposition")).toBe('inline; filename="ArmChair_01_2k.gltf"');
    expect(res.headers.get("content-security-policy")).toMatch(/sandbox/);
    const gltf = Buffer.from(await res.arrayBuffer());
    expect(gltf.equals(synthetic("ArmChair_01_2k.gltf"))).toBe(true);

    // The Khronos validator loads every resource the way a browser would: relative to the glTF's URL.
    const types: Record<string, string | null> = {};
    const report = (await validateBytes(new Uint8Array(gltf), {
      writeTimestamp: false,
      externalResourceFunction: async (uri: string) => {
        const file = await get(`${RAW}/${uri}`);
        if (file.status !== 200) throw new Error(`${uri}: ${file.status}`);
        types[decodeURIComponent(uri)] = file.headers.get("content-type");
        const bytes = Buffer.from(await file.arrayBuffer());
        expect(bytes.equals(synthetic(decodeURIComponent(uri))), uri).toBe(true);
        return new Uint8Array(bytes);
      },
    })) as { issues: { numErrors: number; messages: unknown[] } };
    expect(report.issues.numErrors, JSON.stringify(report.issues.messages)).toBe(0);
    expect(types).toEqual({
      "ArmChair_01.bin": "application/octet-stream",
      "textures/Armchair_01_diff_2k.jpg": "image/jpeg",
      "textures/Armchair_01_nor_gl_2k.jpg": "image/jpeg",
      "textures/Armchair_01_arm_2k.jpg": "image/jpeg",
    });
    expect(replay.requested.filter((u) => u.startsWith(DL)).sort()).toEqual(
      [
        `${DL}/gltf/2k/ArmChair_01/ArmChair_01_2k.gltf`,
        `${DL}/gltf/4k/ArmChair_01/ArmChair_01.bin`,
        `${DL}/jpg/2k/ArmChair_01/Armchair_01_diff_2k.jpg`,
        `${DL}/jpg/2k/ArmChair_01/Armchair_01_nor_gl_2k.jpg`,
        `${DL}/jpg/2k/ArmChair_01/Armchair_01_arm_2k.jpg`,
      ].sort(),
    );
  });

  it("chooses the selection with the /files parameters: a path of another selection is a 404 naming it", async () => {
    const { get, replay } = await testApp();
    const jpg = await get(`${RAW}/Armchair_01_diff_2k.jpg?format=jpg&maps=diff`);
    expect(jpg.status).toBe(200);
    expect(Buffer.from(await jpg.arrayBuffer()).equals(synthetic("textures/Armchair_01_diff_2k.jpg"))).toBe(true);

    const gltf = await get(`${RAW}/ArmChair_01_2k.gltf?format=jpg&maps=diff`);
    expect(gltf.status).toBe(404);
    expect(ErrorBody.parse(await gltf.json()).error).toBe(
      "no file 'ArmChair_01_2k.gltf' in the selection of 'polyhaven:ArmChair_01' for this format, resolution and maps; /files lists the selection",
    );
    const outside = await get(`${RAW}/textures/Armchair_01_rough_2k.jpg`);
    expect(outside.status).toBe(404);
    expect(ErrorBody.parse(await outside.json()).error).toMatch(/^no file 'textures\/Armchair_01_rough_2k.jpg' in the selection/);
    expect((await get(`${RAW}/..%2FArmChair_01_2k.gltf`)).status).toBe(404);
    expect(replay.requested.filter((u) => u.startsWith(DL))).toEqual([`${DL}/jpg/2k/ArmChair_01/Armchair_01_diff_2k.jpg`]);
  });

  it("413 before fetching when the file's known size passes PREVIEW_MAX_BYTES, naming both", async () => {
    const { get, replay } = await testApp({ env: { PREVIEW_MAX_BYTES: "200000" } });
    expect((await get(`${RAW}/ArmChair_01_2k.gltf`)).status).toBe(200);
    const res = await get(`${RAW}/textures/Armchair_01_diff_2k.jpg`);
    expect(res.status).toBe(413);
    expect(ErrorBody.parse(await res.json()).error).toBe("'textures/Armchair_01_diff_2k.jpg' is 723200 bytes, over this server's preview cap of 200000 bytes");
    expect(replay.requested).not.toContain(`${DL}/jpg/2k/ArmChair_01/Armchair_01_diff_2k.jpg`);
  });

  it("413 when the upstream announces a larger length than the cap, and cuts a stream that passes it", async () => {
    const announced = oneAssetApp(syntheticDetails("loop", "lamp", { files: [gltfFile("https://files.example")] }), { env: { PREVIEW_MAX_BYTES: "1000" } });
    announced.replay.add({ url: "https://files.example/scene.gltf", body: "x".repeat(5000) });
    const res = await announced.get("/v1/assets/loop:lamp/raw/scene.gltf");
    expect(res.status).toBe(413);
    expect(ErrorBody.parse(await res.json()).error).toBe("'scene.gltf' is 5000 bytes, over this server's preview cap of 1000 bytes");

    // An upstream that sends no length (chunked, in two writes): the stream is cut past the cap.
    const { base } = await upstream((_req, res) => {
      res.write("x".repeat(800));
      res.end("x".repeat(800));
    });
    const http = createHttpClient({ config: loadConfig({ HTTP_RETRIES: "0" }), allowPrivateAddresses: true });
    stops.push(() => http.close());
    const served = (cap: string) =>
      oneAssetApp(syntheticDetails("loop", "lamp", { files: [gltfFile(base)] }), { http, env: { PREVIEW_MAX_BYTES: cap } }).get(
        "/v1/assets/loop:lamp/raw/scene.gltf",
      );
    const cut = await served("1000");
    expect(cut.status).toBe(200);
    await expect(cut.arrayBuffer()).rejects.toThrow();
    // Control: under a cap it does not pass, the same stream arrives whole.
    expect((await (await served("1600")).arrayBuffer()).byteLength).toBe(1600);
  });

  it("refuses a private file URL and a redirect hop to one: a 502, and nothing is asked of them", async () => {
    const literal = oneAssetApp(syntheticDetails("loop", "lamp", { files: [gltfFile("http://10.0.0.7")] }));
    const res = await literal.get("/v1/assets/loop:lamp/raw/scene.gltf");
    expect(res.status).toBe(502);
    expect(ErrorBody.parse(await res.json()).error).toMatch(/10\.0\.0\.7 is a private address/);
    expect(literal.replay.requested).toEqual([]);

    const hop = oneAssetApp(syntheticDetails("loop", "lamp", { files: [gltfFile("https://files.example")] }));
    hop.replay.add({ url: "https://files.example/scene.bin", status: 302, headers: { location: "http://127.0.0.1:9/scene.bin" } });
    const bin = await hop.get("/v1/assets/loop:lamp/raw/scene.bin");
    expect(bin.status).toBe(502);
    expect(ErrorBody.parse(await bin.json()).error).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(hop.replay.requested).toEqual(["https://files.example/scene.bin"]);
  });

  it("refuses a file host whose DNS answer is private, and never reaches the server there (real Agent)", async () => {
    const { port, asked } = await upstream((_req, res) => res.end("secret"));
    const lookup = ((_hostname: string, _options: unknown, cb: (...args: unknown[]) => void) =>
      cb(null, [{ address: "127.0.0.1", family: 4 }])) as unknown as LookupFunction;
    const http = createHttpClient({ config: loadConfig({ HTTP_RETRIES: "0" }), lookup });
    stops.push(() => http.close());
    const { get } = oneAssetApp(syntheticDetails("loop", "lamp", { files: [gltfFile(`http://files.internal.example:${port}`)] }), { http });
    const res = await get("/v1/assets/loop:lamp/raw/scene.gltf");
    expect(res.status).toBe(502);
    expect(ErrorBody.parse(await res.json()).error).toMatch(/loopback/);
    expect(asked).toEqual([]);
  });

  it("409 with the asset's page for a file behind a login (listed with all=true), and for a source without direct downloads", async () => {
    const login = oneAssetApp(syntheticDetails("loop", "lamp", { files: [gltfFile("https://files.example", { requiresAuth: true })] }));
    expect((await login.get("/v1/assets/loop:lamp/raw/scene.bin")).status).toBe(404); // never selected otherwise
    const res = await login.get("/v1/assets/loop:lamp/raw/scene.bin?all=true");
    expect(res.status).toBe(409);
    expect(ErrorBody.parse(await res.json())).toEqual({
      error: "'scene.bin' of 'loop:lamp' needs a login on Fake loop; get it on the asset's page",
      url: "https://loop.example/a/lamp",
    });
    expect(login.replay.requested).toEqual([]);

    // A synthetic source: Poly Haven's recorded details, served by a source that says it has no downloads.
    const noDownloads: Source = { ...polyhaven, id: "nodl", name: "No Downloads", supportsDownload: false };
    const { get } = await testApp({ sources: [polyhaven, noDownloads] });
    const page = await get("/v1/assets/nodl:ArmChair_01/raw/ArmChair_01_2k.gltf");
    expect(page.status).toBe(409);
    expect(ErrorBody.parse(await page.json())).toMatchObject({ url: "https://polyhaven.com/a/ArmChair_01" });
  });

  it("counts a preview, never a download (HEAD counts nothing), under its own route label", async () => {
    const { get, usage } = await testApp();
    for (const path of ["ArmChair_01_2k.gltf", "ArmChair_01.bin"]) expect((await get(`${RAW}/${path}`)).status).toBe(200);
    expect((await get(`${RAW}/ArmChair_01_2k.gltf`, { method: "HEAD" })).status).toBe(200);
    expect((await get(`${RAW}/nope.txt`)).status).toBe(404);
    expect((await usage.snapshot()).window).toMatchObject({ previews: 2, downloads: 0, assetViews: 0 });
    const metrics = await usage.metrics.text();
    expect(metrics).toContain("asset_search_previews_total 2");
    expect(metrics).toContain("asset_search_downloads_total 0");
    expect(metrics).toContain('asset_search_http_requests_total{route="/v1/assets/{id}/raw/{path}",method="GET",status="200"} 2');
  });

  it("tells the path from the id at the first /raw/ (an id's own slashes encoded), after the routes whose ending the path has", async () => {
    const details = syntheticDetails("loop", "user/raw", { files: [gltfFile("https://files.example")] });
    const { get, replay } = oneAssetApp(details);
    replay.add({ url: "https://files.example/scene.gltf", body: '{"asset":{"version":"2.0"}}' });
    const file = await get("/v1/assets/loop:user%2Fraw/raw/scene.gltf");
    expect(file.status).toBe(200);
    expect(await file.text()).toBe('{"asset":{"version":"2.0"}}');
    // A path that ends like another route is that route, as before: the files of `loop:user/raw`.
    const files = await get("/v1/assets/loop:user/raw/files");
    expect(files.status).toBe(200);
    expect(FileSelection.parse(await files.json()).id).toBe("loop:user/raw");
  });

  it("keeps the API key rule", async () => {
    const { get } = await testApp({ env: { ASSET_SERVER_API_KEY: "k3y" } });
    expect((await get(`${RAW}/ArmChair_01_2k.gltf`)).status).toBe(401);
    expect((await get(`${RAW}/ArmChair_01_2k.gltf?api_key=k3y`)).status).toBe(200);
  });
});
