import { buildSync } from "esbuild";
import { packagePath } from "../core/package-path.ts";

/**
 * `search.js`: core/index/browser/search.ts with the text analysis it imports, as one ES module a
 * page imports from the publication, so a browser analyses a query with the very code the index
 * was built with.
 */
export function searchModule(): string {
  const result = buildSync({
    absWorkingDir: packagePath(),
    entryPoints: ["core/index/browser/search.ts"],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
  });
  return result.outputFiles[0]!.text;
}
