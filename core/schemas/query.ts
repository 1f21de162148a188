import { z } from "zod";
import { ASSET_TYPES, type AssetType } from "./asset.ts";

/** A query-string boolean: true/false/1/0/yes/no; anything else is refused with the value named. */
const booleanParam = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return undefined;
      const v = raw.toLowerCase();
      if (["true", "1", "yes"].includes(v)) return true;
      if (["false", "0", "no"].includes(v)) return false;
      ctx.addIssue({ code: "custom", message: `${name} must be true or false, got '${raw}'` });
      return z.NEVER;
    })
    .meta({ type: "boolean" } as Record<string, unknown>);

const intParam = (name: string, min: number, max: number | undefined, fallback: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return fallback;
      const n = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
      if (!Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) {
        ctx.addIssue({ code: "custom", message: `${name} must be a whole number ${range}, got '${raw}'` });
        return z.NEVER;
      }
      return n;
    });

const commaList = (raw: string | undefined): string[] =>
  (raw ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

const typesParam = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const types = commaList(raw);
    const unknown = types.filter((t) => !(ASSET_TYPES as readonly string[]).includes(t));
    if (unknown.length) {
      ctx.addIssue({
        code: "custom",
        message: `unknown type '${unknown.join(",")}'; known types: ${ASSET_TYPES.join(", ")}`,
      });
      return z.NEVER;
    }
    return [...new Set(types)] as AssetType[];
  });

/** `GET /v1/search` query parameters. Source ids are checked against the registry by the route. */
export const SearchParams = z.object({
  q: z
    .string()
    .max(300, { message: "q must be at most 300 characters" })
    .optional()
    .transform((q) => (q ?? "").trim())
    .describe("short, concrete free-text query"),
  type: typesParam.describe("comma-separated AssetType values"),
  providers: z.string().optional().transform(commaList).describe("comma-separated source ids (from /v1/providers)"),
  free: booleanParam("free").describe("only free assets"),
  downloadable: booleanParam("downloadable").describe("only assets this server can download directly"),
  limit: intParam("limit", 1, 100, 24).describe("1 to 100, default 24"),
  offset: intParam("offset", 0, undefined, 0).describe("minimum 0; per-source offset for paging"),
});
export type SearchParams = z.output<typeof SearchParams>;

/** `/v1/assets/{id}/files` and `/download` query parameters. */
export const FileParams = z.object({
  format: z
    .string()
    .max(20)
    .optional()
    .transform((f) => f?.trim().toLowerCase().replace(/^\./, "") || undefined)
    .describe("preferred format or package (glb, gltf, fbx, blend, obj, usd, hdr, exr, jpg, png, zip)"),
  resolution: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === "") return undefined;
      const m = /^(\d+)\s*k$/i.exec(raw.trim());
      if (!m) {
        ctx.addIssue({ code: "custom", message: `resolution must look like 1k, 2k, 4k or 8k, got '${raw}'` });
        return z.NEVER;
      }
      return `${Number(m[1])}k`;
    })
    .describe("texture/HDRI resolution (1k, 2k, 4k, 8k); the closest available is used; default 2k"),
  maps: z
    .string()
    .optional()
    .transform((raw) => {
      const maps = commaList(raw);
      return maps.length ? maps : undefined;
    })
    .describe("comma-separated texture map types (diff, nor_gl, rough, ao … or role names)"),
  all: booleanParam("all").describe("return every file instead of the smart selection"),
});
export type FileParams = z.output<typeof FileParams>;
