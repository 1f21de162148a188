// Assets into a project: `asset-search get`, `credits`, `licenses`, `verify` against the recordings,
// and the library under them (server/project/) in process, for what a child process cannot show.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { AssetsLock, type LockedAsset } from "../core/schemas/index.ts";
import { getAsset } from "../server/project/get.ts";
import { localLibrary } from "../server/project/library.ts";
import { readLock, updateLock } from "../server/project/lock-file.ts";
import { listen, testApp } from "./helpers/app.ts";
import { CLI } from "./helpers/entry.ts";
import { scratchDirs } from "./helpers/scratch.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(ROOT, "test/fixtures");
const ENV = { PATH: process.env.PATH ?? "", ASSET_SERVER_REPLAY: FIXTURES, DATA_DIR: join(ROOT, "data"), RATE_LIMIT_PER_MINUTE: "0" };
const scratch = scratchDirs("asset-search-project-");

const exec = promisify(execFile);
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}
/** The command line in a child process, from the repository (every path given to it is absolute). */
async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [...CLI, ...args], {
      cwd: ROOT,
      env: { ...ENV, ...env },
      timeout: 30_000,
    });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
/** The bytes the replay serves for a file: the synthetic stand-ins, hashed here independently of the code under test. */
const fixture = (path: string) => {
  const bytes = readFileSync(join(FIXTURES, "synthetic", path));
  return { sha256: sha256(bytes), sizeBytes: bytes.length };
};
const files = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
const lockOf = (dir: string) => AssetsLock.parse(JSON.parse(readFileSync(join(dir, "assets.lock.json"), "utf8")));

const ARMCHAIR = "https://dl.polyhaven.org/file/ph-assets/Models";
const ARMCHAIR_ENTRY: LockedAsset = {
  id: "polyhaven:ArmChair_01",
  title: "Arm Chair 01",
  url: "https://polyhaven.com/a/ArmChair_01",
  provider: "polyhaven",
  author: "Kirill Sannikov",
  license: {
    name: "CC0 1.0 Universal (public domain dedication)",
    url: "https://creativecommons.org/publicdomain/zero/1.0/",
    commercialUse: true,
    attributionRequired: false,
    spdx: "CC0-1.0",
  },
  price: { free: true },
  folder: "assets/polyhaven-armchair_01",
  options: { format: "gltf" },
  downloadedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown as string,
  files: [
    {
      path: "assets/polyhaven-armchair_01/ArmChair_01_2k.gltf",
      url: `${ARMCHAIR}/gltf/2k/ArmChair_01/ArmChair_01_2k.gltf`,
      ...fixture("gltf-armchair/ArmChair_01_2k.gltf"),
    },
    {
      path: "assets/polyhaven-armchair_01/textures/Armchair_01_nor_gl_2k.jpg",
      url: `${ARMCHAIR}/jpg/2k/ArmChair_01/Armchair_01_nor_gl_2k.jpg`,
      ...fixture("gltf-armchair/textures/Armchair_01_nor_gl_2k.jpg"),
    },
    {
      path: "assets/polyhaven-armchair_01/ArmChair_01.bin",
      url: `${ARMCHAIR}/gltf/4k/ArmChair_01/ArmChair_01.bin`,
      ...fixture("gltf-armchair/ArmChair_01.bin"),
    },
    {
      path: "assets/polyhaven-armchair_01/textures/Armchair_01_diff_2k.jpg",
      url: `${ARMCHAIR}/jpg/2k/ArmChair_01/Armchair_01_diff_2k.jpg`,
      ...fixture("gltf-armchair/textures/Armchair_01_diff_2k.jpg"),
    },
    {
      path: "assets/polyhaven-armchair_01/textures/Armchair_01_arm_2k.jpg",
      url: `${ARMCHAIR}/jpg/2k/ArmChair_01/Armchair_01_arm_2k.jpg`,
      ...fixture("gltf-armchair/textures/Armchair_01_arm_2k.jpg"),
    },
  ],
};

/** A CC-BY asset as a lock holds it: written by the test, as `get` would for a CC-BY source. */
const CC_BY_ENTRY: LockedAsset = {
  id: "opengameart:rock-set",
  title: "Rock Set",
  url: "https://opengameart.org/content/rock-set",
  provider: "opengameart",
  author: "Jane Doe",
  license: {
    name: "Creative Commons Attribution 4.0",
    url: "https://creativecommons.org/licenses/by/4.0/",
    commercialUse: true,
    attributionRequired: true,
    spdx: "CC-BY-4.0",
  },
  folder: "assets/opengameart-rock-set",
  options: {},
  downloadedAt: "2026-11-22T00:00:00.000Z",
  files: [],
};

describe("asset-search get", () => {
  it("writes the armchair's glTF selection in the zip's layout with its licence, and locks every file with its hash", async () => {
    const dir = scratch();
    const run = await cli(["get", "polyhaven:ArmChair_01", "--format", "gltf", "--dir", join(dir, "assets")]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(files(dir)).toEqual([
      "assets.lock.json",
      "assets/polyhaven-armchair_01/ArmChair_01.bin",
      "assets/polyhaven-armchair_01/ArmChair_01_2k.gltf",
      "assets/polyhaven-armchair_01/LICENSE.txt",
      "assets/polyhaven-armchair_01/textures/Armchair_01_arm_2k.jpg",
      "assets/polyhaven-armchair_01/textures/Armchair_01_diff_2k.jpg",
      "assets/polyhaven-armchair_01/textures/Armchair_01_nor_gl_2k.jpg",
    ]);
    expect(lockOf(dir)).toEqual({ lockfileVersion: 1, assets: [ARMCHAIR_ENTRY] });
    for (const f of ARMCHAIR_ENTRY.files) expect(sha256(readFileSync(join(dir, f.path))), f.path).toBe(f.sha256);
    expect(readFileSync(join(dir, "assets/polyhaven-armchair_01/LICENSE.txt"), "utf8")).toMatch(/^SPDX: {8}CC0-1\.0$/m);
    // Plain lines when stdout is no terminal, one per file, then the summary.
    expect(run.stdout).toMatch(/^fetched {2}assets\/polyhaven-armchair_01\/ArmChair_01_2k\.gltf {2}\(2\.5 KiB\)$/m);
    expect(run.stdout).toMatch(/^polyhaven:ArmChair_01 → .*assets\/polyhaven-armchair_01\/ \(5 files, 5 fetched; CC0-1\.0\)/m);

    // Idempotent: the second run asks nothing upstream. Its recordings are none at all, so any request would fail.
    const first = lockOf(dir).assets[0]!.downloadedAt;
    const empty = scratch();
    writeFileSync(join(empty, "manifest.json"), JSON.stringify({ entries: [] }));
    const again = await cli(["get", "polyhaven:ArmChair_01", "--format", "gltf", "--dir", join(dir, "assets"), "--json"], { ASSET_SERVER_REPLAY: empty });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      id: "polyhaven:ArmChair_01",
      upToDate: true,
      files: ARMCHAIR_ENTRY.files.map(() => ({ fetched: false })),
    });
    expect(lockOf(dir).assets[0]!.downloadedAt).toBe(first);

    // verify: clean, then one changed byte named with both hashes.
    expect((await cli(["verify", "--lock", join(dir, "assets.lock.json")])).stdout).toMatch(/^1 assets, 5 files: all match the lock$/m);
    const bin = join(dir, "assets/polyhaven-armchair_01/ArmChair_01.bin");
    const bytes = readFileSync(bin);
    bytes[10] = bytes[10]! ^ 0xff;
    writeFileSync(bin, bytes);
    writeFileSync(join(dir, "assets/polyhaven-armchair_01/notes.txt"), "mine");
    const drift = await cli(["verify", "--lock", join(dir, "assets.lock.json")]);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toContain(
      `changed  assets/polyhaven-armchair_01/ArmChair_01.bin  (polyhaven:ArmChair_01: sha256 ${sha256(bytes)}, 104 bytes; locked ${fixture("gltf-armchair/ArmChair_01.bin").sha256}, 104 bytes)`,
    );
    expect(drift.stdout).toContain("extra    assets/polyhaven-armchair_01/notes.txt  (polyhaven:ArmChair_01: not in the lock)");
    expect(drift.stdout).toMatch(/^2 drifts from /m);

    // A changed file is fetched again (and only it); the lock's entry is updated.
    const repair = await cli(["get", "polyhaven:ArmChair_01", "--format", "gltf", "--dir", join(dir, "assets"), "--json"]);
    const fetched = (JSON.parse(repair.stdout) as { files: { path: string; fetched: boolean }[] }).files.filter((f) => f.fetched).map((f) => f.path);
    expect(fetched).toEqual(["assets/polyhaven-armchair_01/ArmChair_01.bin"]);
    expect(lockOf(dir)).toEqual({ lockfileVersion: 1, assets: [ARMCHAIR_ENTRY] });
  });

  it("writes a single font file, and refuses a link-only asset with the site's URL, writing nothing", async () => {
    const dir = scratch();
    const font = await cli(["get", "fontsource:abel", "--format", "woff", "--dir", join(dir, "assets")]);
    expect(font.code, font.stderr).toBe(0);
    expect(files(join(dir, "assets"))).toEqual(["fontsource-abel/LICENSE.txt", "fontsource-abel/abel-latin-400-normal.woff"]);
    expect(lockOf(dir).assets[0]!.files).toEqual([
      {
        path: "assets/fontsource-abel/abel-latin-400-normal.woff",
        url: "https://cdn.jsdelivr.net/npm/@fontsource/abel/files/abel-latin-400-normal.woff",
        ...fixture("project-files/abel-latin-400-normal.woff"),
      },
    ]);
    expect(font.stdout).toContain("(1 files, 1 fetched; licence unknown: check the source page)");

    const other = scratch();
    const link = await cli(["get", "sketchfab:d9e174d623124d2aa23122683018f6e6", "--dir", join(other, "assets")]);
    expect(link.code).toBe(2);
    expect(link.stderr).toBe(
      "asset-search: Sketchfab has no direct downloads for 'sketchfab:d9e174d623124d2aa23122683018f6e6'; get it on the asset's page: " +
        "https://sketchfab.com/3d-models/cc0-japanese-silver-tree-n-sericea-d9e174d623124d2aa23122683018f6e6\n",
    );
    expect(files(other)).toEqual([]);
    const bad = await cli(["get", "polyhaven:ArmChair_01", "--resolution", "big", "--dir", join(other, "assets")]);
    expect(bad).toMatchObject({ code: 2, stderr: "asset-search: resolution must look like 1k, 2k, 4k or 8k, got 'big'\n" });
  });

  it("asks a running server when ASSET_SEARCH_URL is set, and writes the same", async () => {
    const { app } = await testApp();
    const served = await listen(app);
    try {
      const dir = scratch();
      const run = await cli(["get", "polyhaven:ArmChair_01", "--format", "gltf", "--dir", join(dir, "assets")], { ASSET_SEARCH_URL: served.url });
      expect(run.code, run.stderr).toBe(0);
      expect(lockOf(dir)).toEqual({ lockfileVersion: 1, assets: [ARMCHAIR_ENTRY] });
      const link = await cli(["get", "sketchfab:d9e174d623124d2aa23122683018f6e6", "--dir", join(dir, "assets")], { ASSET_SEARCH_URL: served.url });
      expect(link.stderr).toContain(
        "get it on the asset's page: https://sketchfab.com/3d-models/cc0-japanese-silver-tree-n-sericea-d9e174d623124d2aa23122683018f6e6",
      );
    } finally {
      await served.close();
    }
  });

  it("keeps both entries when two gets run at once on one lock", async () => {
    const dir = scratch();
    const runs = await Promise.all([
      cli(["get", "polyhaven:ArmChair_01", "--format", "gltf", "--dir", join(dir, "assets")]),
      cli(["get", "fontsource:abel", "--format", "woff", "--dir", join(dir, "assets")]),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(lockOf(dir).assets.map((a) => a.id)).toEqual(["fontsource:abel", "polyhaven:ArmChair_01"]);
    expect(files(dir).filter((f) => /\.(lock|tmp|part)$/.test(f))).toEqual([]);
  });
});

describe("the lock under concurrent changes", () => {
  it("loses no entry when many changes race, and is whole JSON at every moment", async () => {
    const dir = scratch();
    const path = join(dir, "assets.lock.json");
    const ids = Array.from({ length: 12 }, (_, i) => `test:asset-${String(i).padStart(2, "0")}`);
    const reads: Promise<unknown>[] = [];
    await Promise.all(
      ids.map((id) => {
        reads.push(readLock(path));
        return updateLock(path, (assets) => assets.set(id, { ...CC_BY_ENTRY, id }));
      }),
    );
    await Promise.all(reads); // every read in between parsed as a lock
    expect((await readLock(path)).assets.map((a) => a.id)).toEqual(ids);
    expect(readdirSync(dir)).toEqual(["assets.lock.json"]);
  });
});

/** `--format gltf`, as FileParams gives it to the library. */
const GLTF = { format: "gltf", resolution: undefined, maps: undefined, all: undefined };

describe("a failure in the middle of a file", () => {
  it("leaves no partial file under its final name and no lock entry", async () => {
    const { deps, replay } = await testApp();
    replay.add(
      { url: `${ARMCHAIR}/jpg/2k/ArmChair_01/Armchair_01_diff_2k.jpg`, file: "synthetic/gltf-armchair/textures/Armchair_01_diff_2k.jpg", fault: "truncate" },
      FIXTURES,
    );
    const dir = scratch();
    const library = localLibrary(deps, "http://localhost");
    await expect(getAsset(library, "polyhaven:ArmChair_01", { root: dir, dir: "assets", params: GLTF })).rejects.toThrow(
      /the source site failed: .*Armchair_01_diff_2k\.jpg/,
    );
    expect(replay.requested.filter((u) => u.endsWith("_diff_2k.jpg"))).toHaveLength(1);
    // The files fetched before it were only staged: nothing is in place, no temporary file is left, no lock.
    expect(files(dir)).toEqual([]);
    expect(existsSync(join(dir, "assets.lock.json"))).toBe(false);
  });

  it("asks nothing upstream for an asset the lock holds whole", async () => {
    const { deps, replay } = await testApp();
    const dir = scratch();
    const library = localLibrary(deps, "http://localhost");
    await getAsset(library, "polyhaven:ArmChair_01", { root: dir, dir: "assets", params: GLTF });
    replay.requested.length = 0;
    const second = await getAsset(library, "polyhaven:ArmChair_01", { root: dir, dir: "assets", params: GLTF });
    expect(second.upToDate).toBe(true);
    expect(replay.requested).toEqual([]);
  });
});

describe("asset-search credits and licenses", () => {
  /** A lock with the CC0 armchair and the unknown-licence font from `get`, and a CC-BY asset. */
  async function project(): Promise<string> {
    const dir = scratch();
    for (const args of [
      ["get", "polyhaven:ArmChair_01", "--format", "gltf"],
      ["get", "fontsource:abel", "--format", "woff"],
    ]) {
      const run = await cli([...args, "--dir", join(dir, "assets")]);
      expect(run.code, run.stderr).toBe(0);
    }
    const lock = lockOf(dir);
    writeFileSync(join(dir, "assets.lock.json"), JSON.stringify({ ...lock, assets: [...lock.assets, CC_BY_ENTRY] }));
    return dir;
  }

  it("writes the credits in Markdown, HTML and text: grouped by licence, credit required first, TASL with links", async () => {
    const dir = await project();
    const lock = join(dir, "assets.lock.json");
    const md = await cli(["credits", "--lock", lock]);
    expect(md.stdout).toBe(
      [
        "# Credits",
        "",
        "## Creative Commons Attribution 4.0 (CC-BY-4.0): credit required",
        "",
        "- [Rock Set](https://opengameart.org/content/rock-set) by Jane Doe, licensed under [CC-BY-4.0](https://creativecommons.org/licenses/by/4.0/).",
        "",
        "## Unknown licence: check each source page before use",
        "",
        "- [Abel](https://fontsource.org/fonts/abel), licence unknown.",
        "",
        "## CC0 1.0 Universal (public domain dedication) (CC0-1.0): no credit required",
        "",
        "- [Arm Chair 01](https://polyhaven.com/a/ArmChair_01) by Kirill Sannikov, licensed under [CC0-1.0](https://creativecommons.org/publicdomain/zero/1.0/).",
        "",
      ].join("\n"),
    );
    const html = await cli(["credits", "--lock", lock, "--format", "html", "--modified", "opengameart:rock-set"]);
    expect(html.stdout).toBe(
      [
        '<section class="credits">',
        "<h2>Credits</h2>",
        "<h3>Creative Commons Attribution 4.0 (CC-BY-4.0): credit required</h3>",
        "<ul>",
        '<li><a href="https://opengameart.org/content/rock-set">Rock Set</a> by Jane Doe, licensed under <a href="https://creativecommons.org/licenses/by/4.0/">CC-BY-4.0</a>. Modified from the original.</li>',
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
    const out = join(dir, "CREDITS.txt");
    expect((await cli(["credits", "--lock", lock, "--format", "txt", "--out", out])).code).toBe(0);
    expect(readFileSync(out, "utf8")).toBe(
      [
        "Credits",
        "=======",
        "",
        "Creative Commons Attribution 4.0 (CC-BY-4.0): credit required",
        '  "Rock Set" by Jane Doe (https://opengameart.org/content/rock-set), licensed under CC-BY-4.0 (https://creativecommons.org/licenses/by/4.0/).',
        "",
        "Unknown licence: check each source page before use",
        '  "Abel" (https://fontsource.org/fonts/abel), licence unknown.',
        "",
        "CC0 1.0 Universal (public domain dedication) (CC0-1.0): no credit required",
        '  "Arm Chair 01" by Kirill Sannikov (https://polyhaven.com/a/ArmChair_01), licensed under CC0-1.0 (https://creativecommons.org/publicdomain/zero/1.0/).',
        "",
      ].join("\n"),
    );
    expect((await cli(["credits", "--lock", lock, "--format", "pdf"])).stderr).toContain("format must be one of md, html, txt, json, got 'pdf'");
  });

  it("summarises the licences and exits 1 on a --fail-on category present, 0 otherwise, 2 on an unknown one", async () => {
    const dir = await project();
    const lock = join(dir, "assets.lock.json");
    const summary = await cli(["licenses", "--lock", lock]);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toBe(
      [
        "3 assets in the lock",
        "",
        "     1  CC-BY-4.0",
        "     1  CC0-1.0",
        "     1  unknown",
        "",
        "Credit required (1):",
        "  opengameart:rock-set",
        "",
        "Commercial use forbidden (0): none",
        "",
        "Licence or terms unknown (1):",
        "  fontsource:abel",
        "",
      ].join("\n"),
    );
    expect((await cli(["licenses", "--lock", lock, "--fail-on", "noncommercial"])).code).toBe(0);
    const unknown = await cli(["licenses", "--lock", lock, "--fail-on", "noncommercial,unknown"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stdout).toContain("FAIL --fail-on unknown: fontsource:abel");
    expect((await cli(["licenses", "--lock", lock, "--fail-on", "attribution"])).code).toBe(1);
    const bad = await cli(["licenses", "--lock", lock, "--fail-on", "gpl"]);
    expect(bad).toMatchObject({ code: 2, stderr: "asset-search: unknown --fail-on 'gpl'; known: noncommercial, unknown, attribution\n" });
  });
});
