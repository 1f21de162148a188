// @ts-expect-error The Khronos validator ships no type declarations.
import { validateBytes } from "gltf-validator";
import { describe, expect, it } from "vitest";
import type { Source } from "../core/model/source.ts";
import { ErrorBody } from "../core/schemas/index.ts";
import { polyhaven } from "../sources/polyhaven.ts";
import { testApp } from "./helpers/app.ts";
import { unzip } from "./helpers/unzip.ts";

describe("download", () => {
  it("streams the glTF with its companions at their relative paths, plus LICENSE.txt", async () => {
    const { get } = await testApp();
    const res = await get("/v1/assets/polyhaven:ArmChair_01/download");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="polyhaven-armchair_01.zip"');
    const files = await unzip(Buffer.from(await res.arrayBuffer()));
    const gltf = JSON.parse(files.get("polyhaven-armchair_01/ArmChair_01_2k.gltf")!.toString("utf8")) as {
      buffers: { uri: string }[];
      images: { uri: string }[];
    };
    const uris = [...gltf.buffers, ...gltf.images].map((x) => x.uri);
    expect(uris.length).toBeGreaterThan(1);
    for (const uri of uris) expect(files.has(`polyhaven-armchair_01/${uri}`), uri).toBe(true);

    // The Khronos glTF validator, loading every resource from the unzipped folder.
    const loaded: string[] = [];
    const report = (await validateBytes(new Uint8Array(files.get("polyhaven-armchair_01/ArmChair_01_2k.gltf")!), {
      writeTimestamp: false,
      externalResourceFunction: async (uri: string) => {
        const bytes = files.get(`polyhaven-armchair_01/${decodeURIComponent(uri)}`);
        if (!bytes) throw new Error(`missing ${uri}`);
        loaded.push(uri);
        return new Uint8Array(bytes);
      },
    })) as { issues: { numErrors: number; messages: unknown[] } };
    expect(report.issues.numErrors, JSON.stringify(report.issues.messages)).toBe(0);
    expect(loaded.sort()).toEqual([...uris].sort());
    expect(files.get("polyhaven-armchair_01/LICENSE.txt")!.toString("utf8")).toContain("CC0-1.0");
  });

  it("redirects to the one self-contained file", async () => {
    const { get, replay } = await testApp();
    const res = await get("/v1/assets/polyhaven:ArmChair_01/download?maps=diff&format=jpg");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://dl.polyhaven.org/file/ph-assets/Models/jpg/2k/ArmChair_01/Armchair_01_diff_2k.jpg");
    expect(replay.requested.some((u) => u.startsWith("https://dl.polyhaven.org/"))).toBe(false);
  });

  it("answers 413 before streaming when the known size passes the cap", async () => {
    const { get, replay } = await testApp({ env: { DOWNLOAD_MAX_BYTES: "1000" } });
    const res = await get("/v1/assets/polyhaven:ArmChair_01/download");
    expect(res.status).toBe(413);
    expect(ErrorBody.parse(await res.json()).error).toMatch(/over this server's cap of 1000 bytes/);
    expect(replay.requested.some((u) => u.startsWith("https://dl.polyhaven.org/"))).toBe(false);
  });

  it("404 when no file matches the requested maps", async () => {
    const { get } = await testApp();
    const res = await get("/v1/assets/polyhaven:ArmChair_01/download?maps=sheen");
    expect(res.status).toBe(404);
    expect(ErrorBody.parse(await res.json()).error).toBe("no file of 'polyhaven:ArmChair_01' matches the requested format, resolution and maps");
  });

  it("409 with the asset's page when the source has no direct downloads", async () => {
    // A synthetic source: Poly Haven's recorded details, served by a source that says it has no downloads.
    const noDownloads: Source = { ...polyhaven, id: "nodl", name: "No Downloads", supportsDownload: false };
    const { get } = await testApp({ sources: [polyhaven, noDownloads] });
    const res = await get("/v1/assets/nodl:ArmChair_01/download");
    expect(res.status).toBe(409);
    const body = ErrorBody.parse(await res.json());
    expect(body.url).toBe("https://polyhaven.com/a/ArmChair_01");
    expect(body.error).toMatch(/^No Downloads has no direct downloads/);
  });
});
