/**
 * The search's parameters, defined once for every surface: each one is a query-string schema
 * (`GET /v1/search`, and what every surface finally validates with), a typed schema (the MCP tool
 * `search_assets`) and a kind the command line turns into a flag; all three share the name, the
 * bounds and the description.
 */
import { z } from "zod";
import { ASSET_TYPES, type AssetType } from "../schemas/asset.ts";
import { booleanParam, type CliKind, commaList, intParam } from "../schemas/query.ts";
import { fold } from "../text/words.ts";
import { formatName, LICENSE_TOKENS, licenseToken, resolutionK, SORTS, type Sort } from "./filters.ts";

interface Param<Out, Typed extends z.ZodType> {
  query: z.ZodType<Out, string | undefined>;
  typed: z.ZodOptional<Typed>;
  cli: CliKind;
}

const param = <Out, Typed extends z.ZodType>(
  query: z.ZodType<Out, string | undefined>,
  typed: Typed,
  cli: CliKind,
  description: string,
): Param<Out, Typed> => ({
  query: query.describe(description),
  typed: typed.optional().describe(description),
  cli,
});

const flag = (name: string, description: string) => param(booleanParam(name), z.boolean(), "switch", description);

/** A comma list whose every item `check` turns into its value, or refuses (undefined) with `known` named. */
function listOf<T>(name: string, check: (item: string) => T | undefined, known: string) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const items = commaList(raw);
      const bad = items.filter((i) => check(i) === undefined);
      if (bad.length) {
        ctx.addIssue({ code: "custom", message: `unknown ${name} '${bad.join(",")}'; ${known}` });
        return z.NEVER;
      }
      return items.length ? [...new Set(items.map((i) => check(i)!))] : undefined;
    });
}

const list = <T, Item extends z.ZodType>(name: string, check: (item: string) => T | undefined, known: string, item: Item, description: string) =>
  param(listOf(name, check, known), z.array(item), "values", description);

const ids = (description: string) => param(z.string().optional().transform(commaList), z.array(z.string()), "values", description);

const isType = (t: string) => ((ASSET_TYPES as readonly string[]).includes(t) ? (t as AssetType) : undefined);
const isFormat = (f: string) => {
  const format = formatName(f);
  return /^[a-z0-9]{1,12}$/.test(format) ? format : undefined;
};

/** Every parameter of the search, in the order the documentation lists them. */
export const SEARCH_PARAMETERS = {
  q: param(
    z
      .string()
      .max(300, { message: "q must be at most 300 characters" })
      .optional()
      .transform((q) => (q ?? "").trim()),
    z.string().max(300),
    "value",
    "short, concrete free-text query, for example 'oak tree' or 'sunset'; empty = everything",
  ),
  type: param(
    listOf("type", isType, `known types: ${ASSET_TYPES.join(", ")}`).transform((types) => types ?? []),
    z.array(z.enum(ASSET_TYPES)),
    "values",
    "only these asset types; texture and material match each other",
  ),
  providers: ids("only these source ids (see /v1/providers); default every enabled source"),
  exclude: ids("leave out these source ids"),
  free: flag("free", "only free assets"),
  downloadable: flag("downloadable", "only assets this server can download directly"),
  license: list(
    "license",
    licenseToken,
    `known licences and families: ${LICENSE_TOKENS.join(", ")} (see /v1/licenses)`,
    z.string(),
    "only these licences: SPDX ids (CC-BY-4.0) or families (cc0, cc-by, cc-by-sa, ofl, mit …), any case",
  ),
  commercial: flag("commercial", "true: only licences that allow commercial use; false: only those that forbid it"),
  attribution: flag("attribution", "false: only licences that need no credit line; true: only those that do"),
  author: param(
    z
      .string()
      .max(100, { message: "author must be at most 100 characters" })
      .optional()
      .transform((a) => (a?.trim() ? fold(a.trim()) : undefined)),
    z.string().max(100),
    "value",
    "only this author or creator, the whole name, any case",
  ),
  category: list("category", (c) => fold(c), "", z.string(), "only assets in one of these categories (as the source names them)"),
  format: list(
    "format",
    isFormat,
    "a format is letters and digits, for example glb, fbx, exr, png, ttf",
    z.string(),
    "only assets offering one of these file formats (glb, fbx, blend, exr, png, mp3, ttf …)",
  ),
  resolution: param(
    z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined || raw.trim() === "") return undefined;
        const k = resolutionK(raw);
        if (k === undefined || k === 0) {
          ctx.addIssue({ code: "custom", message: `resolution must be a minimum such as 1k, 2k, 4k or 8k, got '${raw}'` });
          return z.NEVER;
        }
        return k;
      }),
    z.string().max(10),
    "value",
    "only textures and HDRIs offered at this resolution or more (1k, 2k, 4k, 8k)",
  ),
  maxPolys: param(intParam("maxPolys", 1, undefined), z.int().min(1), "value", "only models of at most this many polygons"),
  animated: flag("animated", "only animated models (false: only static ones)"),
  rigged: flag("rigged", "only rigged models (false: only unrigged ones)"),
  sort: param(
    z
      .string()
      .optional()
      .transform((raw, ctx): Sort => {
        const v = (raw ?? "").trim().toLowerCase();
        if (v === "") return "relevance";
        if ((SORTS as readonly string[]).includes(v)) return v as Sort;
        ctx.addIssue({ code: "custom", message: `sort must be one of ${SORTS.join(", ")}, got '${raw}'` });
        return z.NEVER;
      })
      .meta({ enum: [...SORTS], default: "relevance" } as Record<string, unknown>),
    z.enum(SORTS),
    "value",
    "relevance (default), newest, name, or popular (most downloaded, where sources publish counts)",
  ),
  facets: flag("facets", "also count the whole result set by type, licence family, source and format"),
  limit: param(intParam("limit", 1, 100, 24), z.int().min(1).max(100), "value", "results to return, 1 to 100, default 24"),
  offset: param(intParam("offset", 0, undefined, 0), z.int().min(0), "value", "per-source offset for paging: for page 2 pass the page size"),
};

type Params = typeof SEARCH_PARAMETERS;
export type SearchParamName = keyof Params;

const mapParams = <T>(pick: (p: Params[SearchParamName]) => T) =>
  Object.fromEntries(Object.entries(SEARCH_PARAMETERS).map(([name, p]) => [name, pick(p)])) as { [K in SearchParamName]: T };

/** `GET /v1/search` query parameters. Source ids are checked against the registry by the service. */
export const SearchParams = z.object(
  Object.fromEntries(Object.entries(SEARCH_PARAMETERS).map(([name, p]) => [name, p.query])) as { [K in SearchParamName]: Params[K]["query"] },
);
export type SearchParams = z.output<typeof SearchParams>;

/** The same parameters as typed values (the MCP tool's input shape); checked afterwards by SearchParams. */
export const searchArgumentShape = Object.fromEntries(Object.entries(SEARCH_PARAMETERS).map(([name, p]) => [name, p.typed])) as {
  [K in SearchParamName]: Params[K]["typed"];
};
/** Typed values by parameter name, loosely: SearchParams is what refuses a bad one, naming it, on every surface. */
export type SearchArguments = Partial<Record<SearchParamName, string | number | boolean | readonly string[]>>;

/** How the command line takes each parameter. */
export const SEARCH_CLI_KINDS = mapParams((p) => p.cli);
