import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../core/config.ts";
import { AssetIndex } from "../core/index/search-index.ts";
import {
  CURRENT_FILE,
  checkFile,
  currentSet,
  INDEX_FILE,
  META_FILE,
  PUBLICATION_VERSION,
  PUBLISHED_FILES,
  parseMeta,
  SETS_DIR,
} from "../core/publication/published.ts";
import { BROWSER_DIR, BROWSER_FILES } from "../core/schemas/browser-format.ts";
import { searchModule } from "./browser-bundle.ts";

/**
 * Copies DATA_DIR's live set to `<outDir>/v1/` (the URL layout of a publication), its index file
 * too when it has one, each file checked against the set's meta first, so an altered or
 * half-written file is never published. Then the browser index (core/index/browser/) is made from
 * the set's index, with `search.js` beside it. The meta is written last. Returns the set's name.
 */
export function exportPublication(dataDir: string, outDir: string): string {
  const set = currentSet(dataDir);
  if (set === undefined) throw new Error(`${dataDir} has no ${CURRENT_FILE}: no set to publish (run the pipeline first)`);
  const dir = join(dataDir, SETS_DIR, set);
  if (!existsSync(join(dir, META_FILE))) throw new Error(`set ${set} has no ${META_FILE} (it was written before the meta existed): run the pipeline again`);
  const metaBytes = readFileSync(join(dir, META_FILE));
  const meta = parseMeta(metaBytes);
  const names = [...Object.values(PUBLISHED_FILES), ...(meta.indexFile ? [INDEX_FILE] : [])];
  const files = names.map((name) => {
    const bytes = readFileSync(join(dir, name));
    checkFile(meta, name, bytes);
    return [name, bytes] as const;
  });
  const out = join(outDir, `v${PUBLICATION_VERSION}`);
  mkdirSync(out, { recursive: true });
  for (const [name, bytes] of files) writeFileSync(join(out, name), bytes);
  writeBrowserFolder(
    meta.indexFile ? AssetIndex.open(join(dir, INDEX_FILE)) : AssetIndex.deserialize(readFileSync(join(dir, PUBLISHED_FILES.index))),
    join(out, BROWSER_DIR),
  );
  writeFileSync(join(out, META_FILE), metaBytes);
  return set;
}

/** The browser index of `index` and its module, in place of any earlier export's (whose shards may outnumber these). */
function writeBrowserFolder(index: AssetIndex, dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  index.writeBrowserIndex(dir);
  writeFileSync(join(dir, BROWSER_FILES.module), searchModule());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { positionals } = parseArgs({ allowPositionals: true, options: {} });
  if (positionals.length !== 1) {
    console.error("usage: npm run publication -- <outDir>   (copies DATA_DIR's live set to <outDir>/v1/)");
    process.exit(2);
  }
  const outDir = positionals[0]!;
  const dataDir = loadConfig().dataDir;
  try {
    const set = exportPublication(dataDir, outDir);
    console.error(`published ${join(dataDir, SETS_DIR, set)} to ${join(outDir, `v${PUBLICATION_VERSION}`)}`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
}
