/** `GET /v1/credits`: the credits of assets by id, the same text `asset-search credits` writes from a lock. */
import { CREDIT_MEDIA_TYPES, writeCredits } from "../../core/model/credits.ts";
import { CreditsQuery } from "../../core/schemas/index.ts";
import { publicBase } from "../context.ts";
import { errorResponse, queryParameters, rateLimitedResponses } from "../openapi.ts";
import { parseQuery } from "../query.ts";
import { creditablesOf } from "../service/credits.ts";
import { NOT_CONFIGURED, SOURCE_FAILED, SOURCE_SLOW } from "./assets.ts";
import { API, get } from "./route.ts";

const text = (example: string) => ({ schema: { type: "string" }, example });

export const creditsRoute = get(
  "/v1/credits",
  API,
  (deps) => async (event) => {
    const { ids, format, modified } = parseQuery(event, CreditsQuery);
    const assets = await creditablesOf(ids, deps, { signal: event.req.signal, baseUrl: publicBase(deps, event) });
    const credits = writeCredits(assets, format, modified);
    if (typeof credits !== "string") return credits;
    return new Response(credits, { headers: { "content-type": CREDIT_MEDIA_TYPES[format] } });
  },
  {
    operationId: "getCredits",
    tags: ["Assets"],
    summary: "Credits of a set of assets",
    description:
      "The credits of the assets named, grouped by licence (those that require credit first, then unknown terms, then those that need none), " +
      "each in the form its licence asks for: title, author, source and licence, with links in Markdown and HTML. " +
      "The same text `asset-search credits` writes from a project's lock file.",
    parameters: queryParameters(CreditsQuery),
    responses: rateLimitedResponses({
      200: {
        description:
          "The credits in the format asked for: `md` (default) as Markdown, `html` as a `<section>` to paste into a page, `txt` as plain text, `json` as groups",
        content: {
          "application/json": { schema: { $ref: "#/components/schemas/CreditsResponse" } },
          "text/markdown": text("# Credits\n"),
          "text/html": text('<section class="credits">'),
          "text/plain": text("Credits\n"),
        },
      },
      400: errorResponse("No ids, too many, a bad format, or malformed ids (every one named)"),
      404: errorResponse("Unknown assets: every unknown id is named"),
      502: SOURCE_FAILED,
      503: NOT_CONFIGURED,
      504: SOURCE_SLOW,
    }),
  },
);
