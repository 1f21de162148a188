import { z } from "zod";
import { License } from "./asset.ts";

/** One licence the service knows, with the family a search filter names it by. */
export const KnownLicense = License.extend({
  id: z.string().describe("SPDX id, or our own id where SPDX has none (OGA-BY-3.0)"),
  family: z.string().describe("the licence without its version, lower case: cc0, cc-by, cc-by-sa, ofl, mit …"),
  indexedAssets: z.int().min(0).describe("assets of the index that carry this licence"),
}).meta({ id: "KnownLicense" });
export type KnownLicense = z.infer<typeof KnownLicense>;

export const LicensesResponse = z.object({ licenses: z.array(KnownLicense) }).meta({ id: "LicensesResponse" });
export type LicensesResponse = z.infer<typeof LicensesResponse>;
