/**
 * The files written for crawlers and agents rather than people: `/llms.txt` (the llms.txt
 * convention: what the service is, then links to its docs as Markdown), `/AGENTS.md` (how an agent
 * uses the service over HTTP and MCP), `/robots.txt` and `/sitemap.xml`. Each is written from the
 * registry and the server's configuration, with this server's public URL in its links.
 */

import { docPath, GUIDES, REFERENCE } from "../../web/docs/guides.ts";
import type { AppDeps } from "../context.ts";

const SUMMARY =
  "Search 3D models, PBR materials, textures, HDRIs, sprites, UI, audio and fonts from many free and paid asset sites at once, with the licence of every result, its file list and downloads, over HTTP, MCP and a command line.";

export function llmsTxt(base: string, deps: AppDeps): string {
  return [
    "# asset-search",
    "",
    `> ${SUMMARY}`,
    "",
    `It searches ${deps.sources.length} sources (${deps.sources.map((s) => s.name).join(", ")}); a slow or failing source never fails a search. Licences are stated per asset with their SPDX id where one exists; the service never hides a source's terms.`,
    "",
    "Search with `GET /v1/search?q=…` (JSON, or server-sent events as each source answers); agents can also use the MCP endpoint, `POST /mcp` (Streamable HTTP), or `asset-search mcp` over stdio.",
    "",
    "## Docs",
    "",
    `- [AGENTS.md](${base}/AGENTS.md): how an agent searches, reads details, picks files and downloads, over HTTP and MCP, with the rate limit and the licence rules`,
    `- [OpenAPI 3.1](${base}/openapi.json): every endpoint of the HTTP API, \`/v1/search\` first`,
    ...GUIDES.map((g) => `- [${g.title}](${base}${docPath(g)}.md): ${g.description}`),
    "",
    "## Optional",
    "",
    `- [${REFERENCE.title}](${base}${docPath(REFERENCE)}): the same OpenAPI document as a page, with requests to try`,
    `- [Sources](${base}/sources): every source with its census, licence and access`,
    `- [Catalog](${base}/catalog.json): the daily census as JSON`,
    "",
  ].join("\n");
}

export function agentsMd(base: string, deps: AppDeps): string {
  const { rateLimitPerMinute, apiKey } = deps.runtime.config;
  const limit = rateLimitPerMinute > 0 ? `${rateLimitPerMinute} requests per minute per client` : "no rate limit on this server";
  return `# AGENTS.md: asset-search for agents

${SUMMARY}

Base URL: ${base}; the paths below are under it. Every answer is JSON; an error is \`{ "error": "…" }\` naming what to fix. The whole API: ${base}/openapi.json.

## Over HTTP

1. **Search**: \`GET ${base}/v1/search?q=wooden+chair&type=model&free=true&license=cc0&limit=10\`.
   Filters: \`type\`, \`providers\`, \`free\`, \`downloadable\`, \`license\` (SPDX ids or families: \`cc0\`, \`cc-by\` …), \`commercial\`, \`attribution\`, \`format\`, \`resolution\`, \`sort\`, \`limit\`, \`offset\`.
   Each result has an \`id\` (\`<provider>:<nativeId>\`), \`license\`, \`downloadable\` and a \`url\` on its source; \`providers\` says how each source answered.
2. **Read the details**: \`GET /v1/assets/{id}\`: licence, author, every file with its size.
3. **Pick files**: \`GET /v1/assets/{id}/files?format=gltf&resolution=2k&maps=diff,nor_gl,rough\` answers the selection a download would hold.
4. **Download**: \`GET /v1/assets/{id}/download\` with the same parameters (one file, or a zip with its \`LICENSE.txt\`); several assets in one zip: \`GET /v1/download?ids=a,b\`.
   A 409 means the source offers no direct download: send the user to the \`url\` it gives.
5. **Credit**: \`GET /v1/credits?ids=a,b&format=md\` writes the credits of what you used.

## Over MCP

Endpoint: \`POST /mcp\` on the base URL (Streamable HTTP). Tools: \`search_assets\` (the search's parameters), \`get_asset\` (details, selected files, \`downloadUrl\`, an \`attribution\` line), \`similar_assets\` (related assets of the indexed sources, each with its \`reasons\`), \`get_credits\`, \`list_providers\`. Over stdio, \`asset-search mcp --root <folder>\` adds \`download_asset\`, which writes files into the project with a lock file. Client set-up: ${base}/docs/mcp.md.

## Rate limit

${limit} on \`/v1/*\` and \`/mcp\`${apiKey ? "; this server also requires an API key (`Authorization: Bearer <key>`)" : ""}. Every answer carries \`RateLimit-*\` headers; a 429 carries \`Retry-After\` (seconds): wait that long, do not retry at once. Thumbnails count in a bucket ten times as large.

## Licence rules

- Read \`license\` on every asset before using it: \`spdx\` (for example \`CC0-1.0\`, \`CC-BY-4.0\`), \`commercialUse\`, \`attributionRequired\`.
- When \`attributionRequired\` is true, ship the credit line (\`attribution\` from \`get_asset\`, or \`/v1/credits\`) with the work.
- Do not ship an asset whose licence forbids the intended use (\`commercialUse: false\` in a commercial project) or is unknown (no \`license\`): ask the user.
- Paid assets and link-only sources are listed, not downloaded: the user gets them on the source's page, under its terms.
- Downloads come from the sources' own files, under the sources' terms; say where an asset came from.
`;
}

export function robotsTxt(base: string): string {
  return [
    "User-agent: *",
    // The pages are for everyone; the API's answers are no pages, but the thumbnails are the pages' previews.
    "Allow: /",
    "Disallow: /v1/",
    "Allow: /v1/assets/*/thumbnail",
    "Disallow: /mcp",
    "",
    `Sitemap: ${base}/sitemap.xml`,
    "",
  ].join("\n");
}

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c] ?? c);

/** The site's pages: the search, the sources and each source, the stats and the docs. */
export function sitePaths(deps: AppDeps): string[] {
  return ["/", "/sources", ...deps.sources.map((s) => `/sources/${encodeURIComponent(s.id)}`), "/stats", docPath(REFERENCE), ...GUIDES.map(docPath)];
}

export function sitemapXml(base: string, deps: AppDeps): string {
  const urls = sitePaths(deps).map((path) => `  <url><loc>${escapeXml(`${base}${path}`)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join("\n")}\n</urlset>\n`;
}
