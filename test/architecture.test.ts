/**
 * The rules of docs/architecture.md that the compiler does not check: which way imports point,
 * that surfaces call the application layer instead of one another, and that sources fail only
 * through the kit's one error type.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const FOLDERS = ["core", "sources", "pipeline", "server", "cli", "bin", "bench", "test", "web"];

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|tsx|js)$/.test(e.name))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)));
}

const ALL = FOLDERS.flatMap(filesUnder);
const source = (file: string) => readFileSync(join(ROOT, file), "utf8");

/** The repository-relative files a module imports (relative specifiers only). */
function importsOf(file: string): string[] {
  const specifiers = [...source(file).matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) => m[1] ?? "");
  return specifiers.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

/** `importer → imported` for every import from `from` into `into`. */
function crossings(from: (file: string) => boolean, into: (target: string) => boolean): string[] {
  return ALL.filter(from).flatMap((file) =>
    importsOf(file)
      .filter(into)
      .map((target) => `${file} → ${target}`),
  );
}

const under = (folder: string) => (file: string) => file.startsWith(`${folder}/`);

describe("import direction", () => {
  it("core imports nothing of ours outside core", () => {
    expect(crossings(under("core"), (t) => !t.startsWith("core/"))).toEqual([]);
  });

  it("sources import only core and sources", () => {
    expect(crossings(under("sources"), (t) => !t.startsWith("core/") && !t.startsWith("sources/"))).toEqual([]);
  });

  it("the pipeline never imports the server", () => {
    expect(crossings(under("pipeline"), under("server"))).toEqual([]);
  });

  it("the web app imports only itself and, as types that leave nothing in the bundle, core's schemas", () => {
    const outside = (target: string) => !target.startsWith("web/") && !target.startsWith("core/schemas/");
    expect(crossings(under("web"), outside)).toEqual([]);
    const valueImports = filesUnder("web").filter((f) => /^import (?!type\b)[^;]*from "(\.\.\/)+core\//m.test(source(f)));
    expect(valueImports).toEqual([]);
  });

  it("only the router reaches into server/routes: MCP, the CLI and the rest call the application layer", () => {
    const outside = (file: string) => !file.startsWith("server/routes/") && !file.startsWith("test/") && file !== "server/app.ts";
    expect(crossings(outside, under("server/routes"))).toEqual([]);
  });
});

describe("sources", () => {
  const adapters = filesUnder("sources").filter((f) => !f.startsWith("sources/kit/"));

  it("throw only through the kit: no bare Error or UpstreamError in an adapter", () => {
    expect(adapters.filter((f) => /new (Error|UpstreamError)\(/.test(source(f)))).toEqual([]);
  });

  it("need no non-null assertion on search or crawl anywhere: the Source union says which mode has which", () => {
    expect(ALL.filter((f) => /\.(search|crawl)!/.test(source(f)))).toEqual([]);
  });
});

describe("comments", () => {
  // Folders the code writes and git ignores (bench/results/): cited as outputs, absent from a clone.
  const OUTPUTS = source(".gitignore")
    .split("\n")
    .filter((line) => line.endsWith("/"));
  // A path under a top folder, or a bare document name (a `.md` file, which must then be at the root).
  const TOP = /(?<![\w./-])((?:core|sources|server|pipeline|cli|bin|bench|test|web|docs|data|\.ci|\.github)\/[\w./-]*\w|[\w-]+\.md)\b/g;
  const comments = (file: string) =>
    source(file)
      .split("\n")
      .map((line, i) => ({ at: `${file}:${i + 1}`, text: /^\s*(?:\/\/|\/?\*)(.*)$/.exec(line)?.[1] ?? line.split(" // ")[1] ?? "" }));

  it("cite files and folders of the repository, never documents outside it", () => {
    const dangling = ALL.flatMap((file) =>
      comments(file).flatMap(({ at, text }) => [
        ...[...text.matchAll(TOP)]
          .map((m) => m[1] ?? "")
          .filter((ref) => !existsSync(join(ROOT, ref.replace(/[.]$/, ""))) && !OUTPUTS.some((out) => `${ref}/`.startsWith(out)))
          .map((ref) => `${at}: ${ref}`),
      ]),
    );
    expect(dangling).toEqual([]);
  });
});
