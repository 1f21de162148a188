/**
 * The live set as a publication: the files the pipeline publishes to GitHub Pages under
 * `<base>/v1/`, served by the server at the same paths, and the JSON Schemas of their formats.
 * Under `/v1/` they follow the API's rules (rate limit, and the key when one is set) like every
 * `/v1/*` path; the schemas, like `/catalog.json`, are open.
 */

import { IndexMeta, META_FILE, PUBLISHED_FILES } from "../../core/publication/published.ts";
import type { AppDeps } from "../context.ts";
import { ApiError } from "../errors.ts";
import { errorResponse, jsonSchemaDocument, rateLimitedResponses, schemaRef, staticFileResponses } from "../openapi.ts";
import { DATA_CACHE, SCHEMA_CACHE, type StaticFile, serveFile } from "../static/file.ts";
import { type PublicationFiles, publicationFiles } from "../static/publication.ts";
import { PUBLISHED_SCHEMAS, type SchemaName, schemaFile } from "../static/schemas.ts";
import { API, get, type Handler, OPEN, type Route } from "./route.ts";

/** The publication's folder, as on Pages: `/v<format>/`. */
export const PUBLICATION_PATH = "/v1";

/** Serves one file of the live set, looked up anew on every request so a swapped set is served at once. */
export const servePublished =
  (pick: (files: PublicationFiles) => StaticFile | undefined) =>
  (deps: AppDeps): Handler =>
  async (event) => {
    const file = pick(await publicationFiles(deps.published));
    if (!file) throw new ApiError(404, "the catalog has not been published yet: run npm run pipeline");
    return serveFile(event, file, DATA_CACHE);
  };

/** What servePublished answers while no set has been published. */
export const NOT_PUBLISHED = errorResponse("Nothing published yet: the pipeline has not built this file");

// IndexMeta is no component (it lives in core/publication/published.ts, not core/schemas): inline, without the document's `$schema`.
const { $schema: _schema, ...indexMetaSchema } = jsonSchemaDocument(IndexMeta);

export const publishedCatalogRoute = get(
  `${PUBLICATION_PATH}/${PUBLISHED_FILES.catalog}`,
  API,
  servePublished((files) => files.catalog),
  {
    operationId: "getPublishedCatalog",
    tags: ["Sources"],
    summary: "The live set's catalog.json",
    description: "The same bytes as the publication on GitHub Pages would hold for this set; `/catalog.json` is the same document.",
    responses: rateLimitedResponses({ ...staticFileResponses("The latest census", "application/json", schemaRef("Catalog")), 404: NOT_PUBLISHED }),
  },
);

export const publishedHistoryRoute = get(
  `${PUBLICATION_PATH}/${PUBLISHED_FILES.history}`,
  API,
  servePublished((files) => files.history),
  {
    operationId: "getPublishedCatalogHistory",
    tags: ["Sources"],
    summary: "The live set's catalog-history.json",
    description: "One census data point per UTC day; the same bytes as `/catalog-history.json`.",
    responses: rateLimitedResponses({ ...staticFileResponses("Daily census points", "application/json", schemaRef("CatalogHistory")), 404: NOT_PUBLISHED }),
  },
);

export const publishedIndexRoute = get(
  `${PUBLICATION_PATH}/${PUBLISHED_FILES.index}`,
  API,
  servePublished((files) => files.index),
  {
    operationId: "getPublishedIndex",
    tags: ["Sources"],
    summary: "The live set's index.json.gz",
    description:
      "The asset records of the indexed sources, gzip-compressed JSON `{ builtAt, assets: Asset[] }`, served as the file it is " +
      "(`application/gzip`, no `Content-Encoding`): a reader gunzips it and builds its own index.",
    responses: rateLimitedResponses({
      ...staticFileResponses("The index records, gzip", "application/gzip", { type: "string", format: "binary" }, { encoded: false }),
      404: NOT_PUBLISHED,
    }),
  },
);

export const publishedMetaRoute = get(
  `${PUBLICATION_PATH}/${META_FILE}`,
  API,
  servePublished((files) => files.meta),
  {
    operationId: "getPublishedIndexMeta",
    tags: ["Sources"],
    summary: "The live set's index.meta.json",
    description: "Format version, build time, engine and analysis, counts, and the size and sha256 of every other file of the set.",
    responses: rateLimitedResponses({ ...staticFileResponses("The set's meta", "application/json", indexMetaSchema), 404: NOT_PUBLISHED }),
  },
);

/** `/schemas/<name>.json`: one route per schema, so the route table and /openapi.json list each. */
const schemaRoute = (name: SchemaName): Route =>
  get(
    `/schemas/${name}.json`,
    OPEN,
    () => {
      const file = schemaFile(name);
      return async (event) => serveFile(event, await file, SCHEMA_CACHE);
    },
    {
      operationId: `getSchema${name}`,
      tags: ["Sources"],
      summary: `The JSON Schema of ${name}`,
      description: `The JSON Schema (draft 2020-12) a reader of the published files can validate a ${name} against; open to any client.`,
      security: [],
      responses: staticFileResponses(`The JSON Schema (draft 2020-12) of ${name}`, "application/schema+json", { type: "object" }),
    },
  );

export const SCHEMA_ROUTES: readonly Route[] = (Object.keys(PUBLISHED_SCHEMAS) as SchemaName[]).map(schemaRoute);
