/**
 * The documentation's pages: the API reference at `/docs` and the guides at `/docs/<slug>`, whose
 * Markdown is docs/<slug>.md, served at `/docs/<slug>.md`. The server lists the same pages in the
 * sitemap and /llms.txt (server/web/docs.ts).
 */
export interface DocPage {
  slug: string;
  title: string;
  description: string;
}

const SITE = "asset-search";

export const REFERENCE: DocPage = {
  slug: "",
  title: "API reference",
  description: `The ${SITE} HTTP API: search, asset details, file selection and downloads, credits, sources and the census, drawn from /openapi.json, with requests you can try against this server.`,
};

/** In the order the docs' navigation and /llms.txt list them. */
export const GUIDES: readonly DocPage[] = [
  {
    slug: "mcp",
    title: "MCP",
    description: `Connect ${SITE} to Claude Desktop, Claude Code, Cursor, VS Code or any MCP client, over HTTP or stdio: search assets, read their licences and files, get credits.`,
  },
  {
    slug: "cli",
    title: "Command line",
    description: `The ${SITE} command line: search every source from a terminal, put assets into a project with a lock file, write their credits and check their licences in CI.`,
  },
  {
    slug: "self-hosting",
    title: "Self-hosting",
    description: `Run your own ${SITE} server: the public URL, an API key, several replicas sharing Redis, your own data, and every configuration variable with its default.`,
  },
  {
    slug: "census",
    title: "Run your own census",
    description: `Count and crawl the sources every day in your own fork with GitHub Actions, publish the census on GitHub Pages and serve it with ${SITE}.`,
  },
];

/** A page's path: `/docs` or `/docs/<slug>`. */
export const docPath = (page: DocPage) => (page.slug ? `/docs/${page.slug}` : "/docs");

/** The page's title, in the tab and in a shared link. */
export const docTitle = (page: DocPage) => `${page.title} · ${SITE} docs`;
