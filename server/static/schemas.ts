/**
 * The JSON Schemas of the published files, served under `/schemas/<name>.json` and generated from
 * the zod schemas the pipeline writes them with and the server reads them with.
 */
import type { z } from "zod";
import { IndexMeta } from "../../core/publication/published.ts";
import { BrowserIndexMeta, BrowserRecord } from "../../core/schemas/browser-index.ts";
import { Asset, AssetsLock, Catalog, CatalogHistory } from "../../core/schemas/index.ts";
import { jsonSchemaDocument } from "../openapi.ts";
import { type StaticFile, staticFile } from "./file.ts";

/**
 * By file name: catalog.json, catalog-history.json, index.meta.json, the records of index.json.gz,
 * and the browser index's meta.json and record shards (v1/browser/); and the one file the service
 * writes into a project, `assets.lock.json` (`asset-search get`).
 */
export const PUBLISHED_SCHEMAS = { Catalog, CatalogHistory, IndexMeta, Asset, BrowserIndexMeta, BrowserRecord, AssetsLock } as const satisfies Record<
  string,
  z.ZodType
>;
export type SchemaName = keyof typeof PUBLISHED_SCHEMAS;

/** The JSON Schema document of `name`, with its title naming it. */
export const schemaDocument = (name: SchemaName) => ({ title: name, ...jsonSchemaDocument(PUBLISHED_SCHEMAS[name]) });

/** The schema file, built once per process: the schemas change only with the code. */
export function schemaFile(name: SchemaName): Promise<StaticFile> {
  const bytes = new TextEncoder().encode(`${JSON.stringify(schemaDocument(name), null, 1)}\n`);
  return staticFile(bytes, { type: "application/schema+json", compress: true });
}
