import { z } from "zod";

/** How a parameter is given on the command line: a switch, one value, or values repeated or comma-separated. */
export type CliKind = "switch" | "value" | "values";

/** A query-string boolean: true/false/1/0/yes/no; anything else is refused with the value named. */
export const booleanParam = (name: string) =>
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

/** A query-string whole number in bounds; `fallback` when absent (none: undefined). Documented as an integer. */
export function intParam(name: string, min: number, max: number | undefined, fallback: number): z.ZodType<number, string | undefined>;
export function intParam(name: string, min: number, max: number | undefined): z.ZodType<number | undefined, string | undefined>;
export function intParam(name: string, min: number, max: number | undefined, fallback?: number): z.ZodType<number | undefined, string | undefined> {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return fallback;
      const n = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      if (!Number.isSafeInteger(n) || n < min || (max !== undefined && n > max)) {
        ctx.addIssue({ code: "custom", message: `${name} must be a whole number ${range}, got '${raw}'` });
        return z.NEVER;
      }
      return n;
    })
    .meta({ type: "integer", minimum: min, ...(max !== undefined ? { maximum: max } : {}), ...(fallback !== undefined ? { default: fallback } : {}) } as Record<
      string,
      unknown
    >);
}

/** A comma list's items, trimmed and lower case, empty ones dropped. */
export const commaList = (raw: string | undefined): string[] =>
  (raw ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

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
    .meta({ default: "2k" } as Record<string, unknown>)
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

/** How the command line takes each of FileParams (`asset-search get`): one flag per parameter. */
export const FILE_CLI_KINDS = { format: "value", resolution: "value", maps: "values", all: "switch" } as const satisfies Record<
  keyof typeof FileParams.shape,
  CliKind
>;

/** The widths `/v1/assets/{id}/thumbnail` resizes to: a card in a grid, at 1× and 2× density, and a large preview. */
export const THUMBNAIL_WIDTHS = [160, 320, 640] as const;
export const DEFAULT_THUMBNAIL_WIDTH = 320;

/** `/v1/assets/{id}/thumbnail` query parameters. */
export const ThumbnailParams = z.object({
  w: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === "") return DEFAULT_THUMBNAIL_WIDTH;
      const width = THUMBNAIL_WIDTHS.find((w) => String(w) === raw.trim());
      if (width === undefined) {
        ctx.addIssue({ code: "custom", message: `w must be one of ${THUMBNAIL_WIDTHS.join(", ")}, got '${raw}'` });
        return z.NEVER;
      }
      return width;
    })
    .meta({ type: "integer", enum: [...THUMBNAIL_WIDTHS], default: DEFAULT_THUMBNAIL_WIDTH } as Record<string, unknown>)
    .describe(`width in pixels (${THUMBNAIL_WIDTHS.join(", ")}); the image fits inside a square of that side and is never enlarged`),
});
export type ThumbnailParams = z.output<typeof ThumbnailParams>;
