import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { AssetIndex } from "../core/search-index.ts";
import { Catalog, CatalogHistory } from "../core/schemas/index.ts";

/** The static files the pipeline publishes (DESIGN.md §1), loaded once at start. */
export interface Published {
  index: AssetIndex;
  catalog: Catalog | undefined;
  history: CatalogHistory;
}

export const PUBLISHED_FILES = { catalog: "catalog.json", history: "catalog-history.json", index: "index.json.gz" } as const;

function readJson(path: string): unknown {
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : undefined;
}

/** Reads and validates `data/`; a missing file gives an empty catalogue, a corrupt one fails loudly. */
export function loadPublished(dataDir: string): Published {
  const indexPath = join(dataDir, PUBLISHED_FILES.index);
  const catalog = readJson(join(dataDir, PUBLISHED_FILES.catalog));
  const history = readJson(join(dataDir, PUBLISHED_FILES.history));
  return {
    index: existsSync(indexPath) ? AssetIndex.deserialize(readFileSync(indexPath)) : AssetIndex.empty(),
    catalog: catalog === undefined ? undefined : Catalog.parse(catalog),
    history: history === undefined ? { points: [] } : CatalogHistory.parse(history),
  };
}
