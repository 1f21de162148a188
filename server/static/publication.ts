/**
 * The live set as the files of a publication (`<base>/v1/`): catalog.json, catalog-history.json,
 * index.json.gz and index.meta.json, the same names and formats as the pipeline's folder, so a
 * reader or another server can follow this server as it follows GitHub Pages.
 */

import type { AssetIndex } from "../../core/index/search-index.ts";
import { buildMeta, countsOf } from "../../core/publication/meta.ts";
import { type IndexMeta, PUBLISHED_FILES, type Published } from "../../core/publication/published.ts";
import { type StaticFile, staticFile } from "./file.ts";

export interface PublicationFiles {
  /** Absent while nothing has been published (the routes answer 404, as /v1/catalog does). */
  catalog?: StaticFile;
  history: StaticFile;
  index: StaticFile;
  meta: StaticFile;
}

const JSON_TYPE = "application/json; charset=utf-8";
/** As pipeline/run.ts writes them, so the same document gives the same bytes here and on Pages. */
const jsonBytes = (value: unknown) => new TextEncoder().encode(`${JSON.stringify(value, null, 1)}\n`);

/**
 * What the live set's index.meta.json says, computed from the bytes this server serves (their
 * sizes and sha256, so a reader can check them) by the pipeline's own builder
 * (core/publication/meta.ts), until the set carries its own meta file.
 * The one place to switch to that file when core/publication/published.ts loads it.
 */
export function liveIndexMeta(index: AssetIndex, files: Record<string, StaticFile>): IndexMeta {
  const infos = Object.fromEntries(Object.entries(files).map(([name, file]) => [name, { bytes: file.identity.body.length, sha256: file.sha256 }]));
  return buildMeta(infos, index.builtAt, countsOf(index.countBy("provider")));
}

async function buildFiles(published: Published): Promise<PublicationFiles> {
  const { index, catalog, history } = published;
  // Every file of a set carries the set's build time.
  const modified = new Date(index.builtAt);
  const json = (value: unknown) => staticFile(jsonBytes(value), { type: JSON_TYPE, modified, compress: true });
  const [catalogFile, historyFile, indexFile] = await Promise.all([
    catalog ? json(catalog) : undefined,
    json(history),
    // Gzip already: served as the file it is (application/gzip, no Content-Encoding), never compressed again.
    staticFile(index.serialize(), { type: "application/gzip", modified, compress: false }),
  ]);
  const listed: Record<string, StaticFile> = {
    ...(catalogFile ? { [PUBLISHED_FILES.catalog]: catalogFile } : {}),
    [PUBLISHED_FILES.history]: historyFile,
    [PUBLISHED_FILES.index]: indexFile,
  };
  const meta = await json(liveIndexMeta(index, listed));
  return { ...(catalogFile ? { catalog: catalogFile } : {}), history: historyFile, index: indexFile, meta };
}

/** The files of a set, built once per set: keyed by the index object, checked against the catalog and history it was built with. */
const built = new WeakMap<AssetIndex, { catalog: Published["catalog"]; history: Published["history"]; files: Promise<PublicationFiles> }>();

/**
 * The live set's files, built on the first request for the set and then reused. A swap of the live
 * set (new objects in `deps.published`) is seen by identity and builds the new set's files; the
 * old ones go with the old objects.
 */
export function publicationFiles(published: Published): Promise<PublicationFiles> {
  const { index, catalog, history } = published;
  const cached = built.get(index);
  if (cached && cached.catalog === catalog && cached.history === history) return cached.files;
  const files = buildFiles(published);
  built.set(index, { catalog, history, files });
  // A failed build is not kept: the next request tries again.
  files.catch(() => {
    if (built.get(index)?.files === files) built.delete(index);
  });
  return files;
}
