/**
 * The credits of a set of assets (`GET /v1/credits`, `asset-search credits`, the MCP tool
 * `get_credits`) and the licence summary of a lock (`asset-search licenses`): their options and
 * their JSON answers. core/model/credits.ts writes them.
 */
import { z } from "zod";
import { License } from "./asset.ts";
import type { CliKind } from "./query.ts";

export const CREDIT_FORMATS = ["md", "html", "txt", "json"] as const;
export type CreditFormat = (typeof CREDIT_FORMATS)[number];

/** The licence categories `asset-search licenses --fail-on` can refuse. */
export const FAIL_ON = ["noncommercial", "unknown", "attribution"] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** Most ids one credits or kit request may name. */
export const MAX_IDS = 50;

/**
 * A comma list of asset ids, case kept (ids are case-sensitive, unlike the search's lists), each
 * at most 300 characters, at most `MAX_IDS` of them.
 */
export const idList = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const ids = [
        ...new Set(
          (raw ?? "")
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        ),
      ];
      const long = ids.find((id) => id.length > 300);
      if (long) ctx.addIssue({ code: "custom", message: `${name}: '${long.slice(0, 40)}…' is longer than 300 characters` });
      if (ids.length > MAX_IDS) ctx.addIssue({ code: "custom", message: `${name} may name at most ${MAX_IDS} assets, got ${ids.length}` });
      return ids;
    });

/** A `format` of the credits: md (default), html, txt or json; anything else refused with the value named. */
const creditFormat = z
  .string()
  .optional()
  .transform((raw, ctx): CreditFormat => {
    const v = (raw ?? "").trim().toLowerCase();
    if (v === "") return "md";
    if ((CREDIT_FORMATS as readonly string[]).includes(v)) return v as CreditFormat;
    ctx.addIssue({ code: "custom", message: `format must be one of ${CREDIT_FORMATS.join(", ")}, got '${raw}'` });
    return z.NEVER;
  })
  .meta({ enum: [...CREDIT_FORMATS], default: "md" } as Record<string, unknown>);

/** The options of the credits on every surface, as query-string values. */
export const CreditsOptions = z.object({
  format: creditFormat.describe("md (default), html, txt, or json"),
  modified: idList("modified").describe("comma-separated ids of the assets you changed: their credit says so, as Creative Commons licences ask"),
});
export type CreditsOptions = z.output<typeof CreditsOptions>;

/** How the command line takes each of CreditsOptions (`asset-search credits`). */
export const CREDITS_CLI_KINDS = { format: "value", modified: "values" } as const satisfies Record<keyof typeof CreditsOptions.shape, CliKind>;

/** `GET /v1/credits` query parameters. */
export const CreditsQuery = CreditsOptions.extend({
  ids: idList("ids").describe(`comma-separated asset ids (\`<provider>:<nativeId>\`), 1 to ${MAX_IDS}`),
});
export type CreditsQuery = z.output<typeof CreditsQuery>;

/** Whether a licence asks for credit: required, not required, or unknown (no licence, or its terms unknown). */
export const CreditNeed = z.enum(["required", "unknown", "not-required"]);
export type CreditNeed = z.infer<typeof CreditNeed>;

export const CreditedAsset = z
  .object({
    id: z.string(),
    title: z.string(),
    url: z.url().describe("the asset's page on the source site"),
    author: z.string().optional(),
    modified: z.boolean(),
    line: z.string().describe("the credit as plain text, in the form the licence asks for"),
    markdown: z.string().describe("additive: the same credit as one line of Markdown, with links"),
    html: z.string().describe("additive: the same credit as an HTML fragment, with links"),
  })
  .meta({ id: "CreditedAsset" });
export type CreditedAsset = z.infer<typeof CreditedAsset>;

export const CreditGroup = z
  .object({
    heading: z.string().describe("the licence and whether it asks for credit"),
    need: CreditNeed,
    license: License.optional(),
    assets: z.array(CreditedAsset),
  })
  .meta({ id: "CreditGroup" });
export type CreditGroup = z.infer<typeof CreditGroup>;

export const CreditsResponse = z
  .object({
    groups: z.array(CreditGroup).describe("one per licence: those that require credit first, then unknown terms, then those that need none"),
    text: z.string().describe("the same credits as Markdown"),
  })
  .meta({ id: "CreditsResponse" });
export type CreditsResponse = z.infer<typeof CreditsResponse>;

export const LicenseSummary = z
  .object({
    assets: z.int().min(0),
    byLicense: z.array(z.object({ license: z.string(), count: z.int().min(1) })).describe("counts per licence, most used first"),
    attribution: z.array(z.string()).describe("ids of the assets whose licence requires credit"),
    noncommercial: z.array(z.string()).describe("ids of the assets whose licence forbids commercial use"),
    unknown: z.array(z.string()).describe("ids of the assets with no licence, or one whose terms are unknown"),
  })
  .meta({ id: "LicenseSummary" });
export type LicenseSummary = z.infer<typeof LicenseSummary>;
