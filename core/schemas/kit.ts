/**
 * `GET /v1/download` (several assets in one zip): which assets, each with its own selection or
 * the request's defaults.
 */
import { z } from "zod";
import { MAX_IDS } from "./credits.ts";
import { FileParams } from "./query.ts";

/** One asset of a kit: its id and the `/files` parameters given for it alone, as query-string values. */
export interface KitItem {
  id: string;
  params: Record<string, string>;
}

const OPTION_NAMES = Object.keys(FileParams.shape);

/**
 * `ids`: comma-separated items, each an asset id optionally followed by `;name=value` options of
 * `/files` (`polyhaven:ArmChair_01;format=gltf;resolution=1k`); an item's `maps` are separated by
 * `+` or spaces, since commas separate the items.
 */
export const kitIds = z
  .string()
  .optional()
  .transform((raw, ctx): KitItem[] => {
    const items = (raw ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    if (!items.length) {
      ctx.addIssue({
        code: "custom",
        message: "ids is required: comma-separated asset ids (<provider>:<nativeId>), each optionally with ;format=…;resolution=…",
      });
      return z.NEVER;
    }
    if (items.length > MAX_IDS) {
      ctx.addIssue({ code: "custom", message: `ids may name at most ${MAX_IDS} assets, got ${items.length}` });
      return z.NEVER;
    }
    const out: KitItem[] = [];
    for (const item of items) {
      const [id = "", ...options] = item.split(";");
      const params: Record<string, string> = {};
      for (const option of options) {
        const eq = option.indexOf("=");
        const name = eq < 0 ? option.trim() : option.slice(0, eq).trim();
        if (!OPTION_NAMES.includes(name)) {
          ctx.addIssue({ code: "custom", message: `unknown option '${name}' of '${id}' in ids; known: ${OPTION_NAMES.join(", ")}` });
          return z.NEVER;
        }
        const value = eq < 0 ? "true" : option.slice(eq + 1).trim();
        params[name] = name === "maps" ? value.split(/[+\s]+/).join(",") : value;
      }
      out.push({ id: id.trim(), params });
    }
    return out;
  });

/** `GET /v1/download` query parameters: the items, and the `/files` parameters every item without its own takes. */
export const KitQuery = FileParams.extend({
  ids: kitIds.describe(
    `comma-separated asset ids, 1 to ${MAX_IDS}, each optionally followed by its own options: ` +
      "`polyhaven:ArmChair_01;format=gltf;resolution=1k,polyhaven:rock_wall_08;maps=diff+nor_gl`",
  ),
});
