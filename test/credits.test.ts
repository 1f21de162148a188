// Credits and kits over HTTP: GET /v1/credits in every format with exact text, GET /v1/download
// (several assets, one credits file), the Link to the credits on a single file's 302, and both in
// /openapi.json.
import { describe, expect, it } from "vitest";
import { writeCredits } from "../core/model/credits.ts";
import { licenseById } from "../core/model/license.ts";
import { type AssetDetails, CreditsResponse, ErrorBody } from "../core/schemas/index.ts";
import { SOURCES } from "../sources/index.ts";
import { testApp } from "./helpers/app.ts";
import { fakeIndexedSource } from "./helpers/fake-source.ts";
import { unzip } from "./helpers/unzip.ts";

/** A synthetic source whose one asset is CC-BY (no recorded details of a CC-BY asset exist). */
const ROCKS: AssetDetails = {
  id: "ccby:rock-set",
  provider: "ccby",
  nativeId: "rock-set",
  title: "Rock Set",
  type: "model",
  tags: [],
  url: "https://ccby.example/a/rock-set",
  author: "Jane Doe",
  license: licenseById("CC-BY-4.0"),
  downloadable: false,
  files: [],
};
const ccby = fakeIndexedSource("ccby", { getAsset: async (nativeId) => (nativeId === ROCKS.nativeId ? ROCKS : null) });
const app = () => testApp({ sources: [...SOURCES, ccby] });
const IDS = "polyhaven:ArmChair_01,fontsource:abel,ccby:rock-set";

const CC_BY_TXT = '  "Rock Set" by Jane Doe (https://ccby.example/a/rock-set), licensed under CC-BY-4.0 (https://creativecommons.org/licenses/by/4.0/).';
const ABEL_TXT = '  "Abel" (https://fontsource.org/fonts/abel), licence unknown.';
const ARMCHAIR_TXT =
  '  "Arm Chair 01" by Kirill Sannikov (https://polyhaven.com/a/ArmChair_01), licensed under CC0-1.0 (https://creativecommons.org/publicdomain/zero/1.0/).';
const TXT = [
  "Credits",
  "=======",
  "",
  "Creative Commons Attribution 4.0 (CC-BY-4.0): credit required",
  CC_BY_TXT,
  "",
  "Unknown licence: check each source page before use",
  ABEL_TXT,
  "",
  "CC0 1.0 Universal (public domain dedication) (CC0-1.0): no credit required",
  ARMCHAIR_TXT,
  "",
].join("\n");
const MD = [
  "# Credits",
  "",
  "## Creative Commons Attribution 4.0 (CC-BY-4.0): credit required",
  "",
  "- [Rock Set](https://ccby.example/a/rock-set) by Jane Doe, licensed under [CC-BY-4.0](https://creativecommons.org/licenses/by/4.0/). Modified from the original.",
  "",
  "## Unknown licence: check each source page before use",
  "",
  "- [Abel](https://fontsource.org/fonts/abel), licence unknown.",
  "",
  "## CC0 1.0 Universal (public domain dedication) (CC0-1.0): no credit required",
  "",
  "- [Arm Chair 01](https://polyhaven.com/a/ArmChair_01) by Kirill Sannikov, licensed under [CC0-1.0](https://creativecommons.org/publicdomain/zero/1.0/).",
  "",
].join("\n");

describe("GET /v1/credits", () => {
  it("answers the credits of the ids in md, html, txt and json, the same text the command line writes", async () => {
    const { get } = await app();
    const txt = await get(`/v1/credits?ids=${IDS}&format=txt`);
    expect(txt.status).toBe(200);
    expect(txt.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await txt.text()).toBe(TXT);

    const md = await get(`/v1/credits?ids=${IDS}&modified=ccby:rock-set`);
    expect(md.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    expect(await md.text()).toBe(MD);

    const html = await get(`/v1/credits?ids=${encodeURIComponent(IDS)}&format=html`);
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await html.text()).toBe(
      [
        '<section class="credits">',
        "<h2>Credits</h2>",
        "<h3>Creative Commons Attribution 4.0 (CC-BY-4.0): credit required</h3>",
        "<ul>",
        '<li><a href="https://ccby.example/a/rock-set">Rock Set</a> by Jane Doe, licensed under <a href="https://creativecommons.org/licenses/by/4.0/">CC-BY-4.0</a>.</li>',
        "</ul>",
        "<h3>Unknown licence: check each source page before use</h3>",
        "<ul>",
        '<li><a href="https://fontsource.org/fonts/abel">Abel</a>, licence unknown.</li>',
        "</ul>",
        "<h3>CC0 1.0 Universal (public domain dedication) (CC0-1.0): no credit required</h3>",
        "<ul>",
        '<li><a href="https://polyhaven.com/a/ArmChair_01">Arm Chair 01</a> by Kirill Sannikov, licensed under <a href="https://creativecommons.org/publicdomain/zero/1.0/">CC0-1.0</a>.</li>',
        "</ul>",
        "</section>",
        "",
      ].join("\n"),
    );

    const json = CreditsResponse.parse(await (await get(`/v1/credits?ids=${IDS}&format=json&modified=ccby:rock-set`)).json());
    expect(json.text).toBe(MD);
    expect(json.groups.map((g) => [g.need, g.license?.spdx, g.assets.map((a) => [a.id, a.modified, `  ${a.line}`])])).toEqual([
      ["required", "CC-BY-4.0", [["ccby:rock-set", true, `${CC_BY_TXT} Modified from the original.`]]],
      ["unknown", undefined, [["fontsource:abel", false, ABEL_TXT]]],
      ["not-required", "CC0-1.0", [["polyhaven:ArmChair_01", false, ARMCHAIR_TXT]]],
    ]);
  });

  it("names every unknown id in a 404, a malformed one in a 400, and refuses a bad format or no ids", async () => {
    const { get } = await app();
    const unknown = await get("/v1/credits?ids=polyhaven:ArmChair_01,nosuch:thing,ccby:gone");
    expect(unknown.status).toBe(404);
    expect(ErrorBody.parse(await unknown.json()).error).toBe(
      "unknown or malformed asset ids: 'nosuch:thing' (unknown asset 'nosuch:thing': no source 'nosuch'), 'ccby:gone' (unknown asset 'ccby:gone')",
    );
    const malformed = await get("/v1/credits?ids=nocolon,ccby:gone");
    expect(malformed.status).toBe(400);
    expect(ErrorBody.parse(await malformed.json()).error).toMatch(/^unknown or malformed asset ids: 'nocolon' \(malformed asset id 'nocolon'/);
    for (const [query, message] of [
      ["ids=polyhaven:ArmChair_01&format=pdf", "format must be one of md, html, txt, json, got 'pdf'"],
      ["", "ids is required: comma-separated asset ids (<provider>:<nativeId>)"],
      [`ids=${Array.from({ length: 51 }, (_, i) => `a:${i}`).join(",")}`, "ids may name at most 50 assets, got 51"],
    ]) {
      const res = await get(`/v1/credits?${query}`);
      expect(res.status, query).toBe(400);
      expect(ErrorBody.parse(await res.json()).error).toBe(message);
    }
  });
});

describe("GET /v1/download (several assets)", () => {
  it("streams one zip: each asset in its folder with its own options, and one credits file for all", async () => {
    const { get } = await app();
    const res = await get("/v1/download?ids=polyhaven:ArmChair_01;format=gltf,fontsource:abel;format=woff");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="assets.zip"');
    const files = await unzip(Buffer.from(await res.arrayBuffer()));
    expect([...files.keys()].sort()).toEqual([
      "CREDITS.txt",
      "fontsource-abel/abel-latin-400-normal.woff",
      "polyhaven-armchair_01/ArmChair_01.bin",
      "polyhaven-armchair_01/ArmChair_01_2k.gltf",
      "polyhaven-armchair_01/textures/Armchair_01_arm_2k.jpg",
      "polyhaven-armchair_01/textures/Armchair_01_diff_2k.jpg",
      "polyhaven-armchair_01/textures/Armchair_01_nor_gl_2k.jpg",
    ]);
    expect(files.get("CREDITS.txt")!.toString("utf8")).toBe(
      [
        "Credits",
        "=======",
        "",
        "Unknown licence: check each source page before use",
        ABEL_TXT,
        "",
        "CC0 1.0 Universal (public domain dedication) (CC0-1.0): no credit required",
        ARMCHAIR_TXT,
        "",
      ].join("\n"),
    );
  });

  it("takes the request's options as every id's default, and refuses before the first byte what it cannot deliver", async () => {
    const { get } = await app();
    const maps = await get("/v1/download?ids=polyhaven:ArmChair_01;format=jpg;maps=diff+nor_gl,fontsource:abel&format=woff");
    const files = await unzip(Buffer.from(await maps.arrayBuffer()));
    expect([...files.keys()].sort()).toEqual([
      "CREDITS.txt",
      "fontsource-abel/abel-latin-400-normal.woff",
      "polyhaven-armchair_01/Armchair_01_diff_2k.jpg",
      "polyhaven-armchair_01/Armchair_01_nor_gl_2k.jpg",
    ]);
    const page = await get("/v1/download?ids=polyhaven:ArmChair_01,sketchfab:d9e174d623124d2aa23122683018f6e6");
    expect(page.status).toBe(409);
    expect(ErrorBody.parse(await page.json())).toMatchObject({
      url: "https://sketchfab.com/3d-models/cc0-japanese-silver-tree-n-sericea-d9e174d623124d2aa23122683018f6e6",
    });
    for (const [query, status, message] of [
      ["ids=polyhaven:ArmChair_01;colour=red", 400, "unknown option 'colour' of 'polyhaven:ArmChair_01' in ids; known: format, resolution, maps, all"],
      ["ids=polyhaven:ArmChair_01;resolution=huge", 400, "resolution must look like 1k, 2k, 4k or 8k, got 'huge'"],
      ["ids=nosuch:thing", 404, "unknown asset 'nosuch:thing': no source 'nosuch'"],
      ["ids=", 400, "ids is required: comma-separated asset ids (<provider>:<nativeId>), each optionally with ;format=…;resolution=…"],
    ] as const) {
      const res = await get(`/v1/download?${query}`);
      expect(res.status, query).toBe(status);
      expect(ErrorBody.parse(await res.json()).error).toBe(message);
    }
  });

  it("refuses the same asset twice, and answers 413 before streaming when the assets together pass the cap", async () => {
    const { get, replay } = await testApp({ env: { DOWNLOAD_MAX_BYTES: "2000000" } });
    const res = await get("/v1/download?ids=polyhaven:ArmChair_01;format=gltf,polyhaven:ArmChair_01;format=jpg;maps=diff");
    // The two selections of the same asset share its folder: refused as the same asset twice.
    expect(res.status).toBe(400);
    const big = await get("/v1/download?ids=polyhaven:ArmChair_01;format=gltf");
    expect(big.status).toBe(413);
    expect(ErrorBody.parse(await big.json()).error).toMatch(/^the assets are 2805307 bytes together, over this server's cap of 2000000 bytes/);
    expect(replay.requested.some((u) => u.startsWith("https://dl.polyhaven.org/"))).toBe(false);
  });
});

describe("a single file's credit", () => {
  it("rides on the 302 as a Link to the asset's credits", async () => {
    const { get } = await app();
    const res = await get("/v1/assets/fontsource:abel/download?format=woff", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://cdn.jsdelivr.net/npm/@fontsource/abel/files/abel-latin-400-normal.woff");
    expect(res.headers.get("link")).toBe('<http://localhost/v1/credits?ids=fontsource%3Aabel&format=txt>; rel="license"; type="text/plain"');
    const credits = await get("/v1/credits?ids=fontsource%3Aabel&format=txt");
    expect(await credits.text()).toContain(ABEL_TXT);
  });
});

describe("/openapi.json", () => {
  it("documents the credits, the kit download and the lock file's schema", async () => {
    const { get } = await app();
    const doc = (await (await get("/openapi.json")).json()) as {
      paths: Record<string, { get?: { parameters?: { name: string }[]; responses: Record<string, { headers?: Record<string, unknown> }> } }>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.paths["/v1/credits"]?.get?.parameters?.map((p) => p.name)).toEqual(["format", "modified", "ids"]);
    expect(doc.paths["/v1/download"]?.get?.parameters?.map((p) => p.name)).toEqual(["format", "resolution", "maps", "all", "ids"]);
    expect(Object.keys(doc.paths["/v1/assets/{id}/download"]!.get!.responses["302"]!.headers!)).toEqual(expect.arrayContaining(["Location", "Link"]));
    expect(doc.paths["/schemas/AssetsLock.json"]).toBeDefined();
    // The lock file is no operation's, so no component: /schemas/AssetsLock.json is its schema.
    expect(doc.components.schemas.CreditsResponse).toBeDefined();
    expect(doc.components.schemas.AssetsLock).toBeUndefined();
    const schema = (await (await get("/schemas/AssetsLock.json")).json()) as { title: string; properties: Record<string, unknown> };
    expect(schema.title).toBe("AssetsLock");
    expect(Object.keys(schema.properties)).toEqual(["lockfileVersion", "assets"]);
  });
});

describe("one asset's credit line, as the asset view copies it", () => {
  it("comes in three forms in the JSON answer, the same words as each format's file", async () => {
    const { get } = await app();
    const json = CreditsResponse.parse(await (await get("/v1/credits?ids=ccby:rock-set&format=json")).json());
    const [rock] = json.groups[0]?.assets ?? [];
    expect(rock?.line).toBe(CC_BY_TXT.trim());
    expect(rock?.markdown).toBe(
      "[Rock Set](https://ccby.example/a/rock-set) by Jane Doe, licensed under [CC-BY-4.0](https://creativecommons.org/licenses/by/4.0/).",
    );
    expect(rock?.html).toBe(
      '<a href="https://ccby.example/a/rock-set">Rock Set</a> by Jane Doe, licensed under <a href="https://creativecommons.org/licenses/by/4.0/">CC-BY-4.0</a>.',
    );
    expect(await (await get("/v1/credits?ids=ccby:rock-set&format=md")).text()).toContain(`- ${rock?.markdown}\n`);
    expect(await (await get("/v1/credits?ids=ccby:rock-set&format=html")).text()).toContain(`<li>${rock?.html}</li>`);
  });

  it("keeps a Markdown link whole when its address holds parentheses or spaces", () => {
    const text = writeCredits([{ id: "x:1", title: "Tree (large)", url: "https://site.example/a/tree_(large) v2", license: licenseById("CC-BY-4.0") }], "md");
    expect(text).toContain(
      "- [Tree (large)](https://site.example/a/tree_%28large%29%20v2), licensed under [CC-BY-4.0](https://creativecommons.org/licenses/by/4.0/).",
    );
  });
});
