/**
 * TurboSquid (https://www.turbosquid.com): a large stock 3D model marketplace, mostly paid, with
 * free models. The site blocks bots, so this is a link-only source: never fetched; a search
 * answers with the same search on the site (`/Search/3D-Models[/free]/<keywords-joined-by-hyphens>`).
 */
import { linkSource, type SourceQuery } from "./kit/define.ts";

const SITE = "https://www.turbosquid.com";

/** TurboSquid writes search keywords into the path, lower case and joined by hyphens. */
function searchUrl(query: SourceQuery): string {
  const words = query.q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return `${SITE}/Search/3D-Models${query.free ? "/free" : ""}${words.length ? `/${encodeURIComponent(words.join("-"))}` : ""}`;
}

export const turbosquid = linkSource(
  {
    id: "turbosquid",
    name: "TurboSquid",
    homepage: SITE,
    description: "Large stock 3D model marketplace, mostly paid, with free models: best for realistic, production-ready models. Link only.",
    assetTypes: ["model"],
    pricing: "freemium",
  },
  searchUrl,
);
