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

  it("the web app imports only itself and, as types that leave nothing in the bundle, core's schemas and search parameters", () => {
    const outside = (target: string) => !target.startsWith("web/") && !target.startsWith("core/schemas/") && target !== "core/model/search-params.ts";
    expect(crossings(under("web"), outside)).toEqual([]);
    const valueImports = filesUnder("web").filter((f) => /^import (?!type\b)[^;]*from "(\.\.\/)+core\//m.test(source(f)));
    expect(valueImports).toEqual([]);
  });

  it("only the router reaches into server/routes: MCP, the CLI and the rest call the application layer", () => {
    const outside = (file: string) => !file.startsWith("server/routes/") && !file.startsWith("test/") && file !== "server/app.ts";
    expect(crossings(outside, under("server/routes"))).toEqual([]);
  });
});

describe("core's rooms", () => {
  // Lowest first; a file's room is its first folder under core/, and the loose files are the ground floor.
  const ROOMS = ["", "schemas", "text", "http", "model", "relevance", "index", "search", "publication"];
  const room = (file: string) => {
    const parts = file.split("/");
    return parts.length > 2 ? (parts[1] ?? "") : "";
  };
  const coreFiles = filesUnder("core");

  it("every file of core/ lives in a known room, with at most 10 loose files", () => {
    expect(coreFiles.filter((f) => !ROOMS.includes(room(f)))).toEqual([]);
    expect(coreFiles.filter((f) => room(f) === "").length).toBeLessThanOrEqual(10);
  });

  it("no import runs from a lower room to a higher one", () => {
    const upward = crossings(under("core"), (t) => t.startsWith("core/")).filter((arrow) => {
      const [from = "", to = ""] = arrow.split(" → ");
      return ROOMS.indexOf(room(to)) > ROOMS.indexOf(room(from));
    });
    expect(upward).toEqual([]);
  });
});

describe("circles", () => {
  it("no file reaches itself through its imports, anywhere in the tree", () => {
    const graph = new Map(ALL.map((f) => [f, importsOf(f).filter((t) => t !== f)]));
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, path: string[]) => {
      state.set(file, "open");
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === "open") circles.push([...path.slice(path.indexOf(next)), file, next].join(" → "));
        else if (!state.has(next) && graph.has(next)) visit(next, [...path, file]);
      }
      state.set(file, "done");
    };
    for (const file of ALL) if (!state.has(file)) visit(file, []);
    expect(circles).toEqual([]);
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
