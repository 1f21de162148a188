/** `/llms.txt`, `/AGENTS.md`, `/robots.txt` and `/sitemap.xml` (server/web/agent-files.ts), each written for the public URL. */
import type { H3Event } from "h3";
import type { AppDeps } from "../context.ts";
import { publicBase } from "../context.ts";
import { DATA_CACHE, serveFile, staticFile } from "../static/file.ts";
import { agentsMd, llmsTxt, robotsTxt, sitemapXml } from "../web/agent-files.ts";
import { get, OPEN, type Route } from "./route.ts";

/** A text written from the registry and the configuration: the same for one base, so built once per base asked. */
function textRoute(path: string, type: string, write: (base: string, deps: AppDeps) => string): Route {
  return get(path, OPEN, (deps) => {
    let built: { base: string; file: ReturnType<typeof staticFile> } | undefined;
    return async (event: H3Event) => {
      const base = publicBase(deps, event);
      if (built?.base !== base) built = { base, file: staticFile(new TextEncoder().encode(write(base, deps)), { type, compress: true }) };
      return serveFile(event, await built.file, DATA_CACHE);
    };
  });
}

export const AGENT_ROUTES: readonly Route[] = [
  textRoute("/llms.txt", "text/plain; charset=utf-8", llmsTxt),
  textRoute("/AGENTS.md", "text/markdown; charset=utf-8", agentsMd),
  textRoute("/robots.txt", "text/plain; charset=utf-8", (base) => robotsTxt(base)),
  textRoute("/sitemap.xml", "application/xml; charset=utf-8", sitemapXml),
];
