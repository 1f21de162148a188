/**
 * The documentation pages: `/docs` (the API reference, drawn in the browser from /openapi.json)
 * and the guides written in docs/*.md, each also served as Markdown at `/docs/<page>.md` for
 * agents (/llms.txt links them). `{{base}}` in a guide is this server's public URL, and the
 * self-hosting guide's configuration table is written from core/config.ts's variables, so it
 * cannot drift from what the server reads.
 */
import { readFile } from "node:fs/promises";
import { CONFIG_VARS } from "../../core/config.ts";
import { packagePath } from "../../core/package-path.ts";
import type { PageMeta } from "./shell.ts";

const SITE = "asset-search";

export interface DocPage {
  /** `/docs/<slug>`, and its Markdown at `/docs/<slug>.md`. */
  slug: string;
  title: string;
  description: string;
}

/** The guides, in the order the docs' navigation and /llms.txt list them. */
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

export const REFERENCE: DocPage = {
  slug: "",
  title: "API reference",
  description: `The ${SITE} HTTP API: search, asset details, file selection and downloads, credits, sources and the census, drawn from /openapi.json, with requests you can try against this server.`,
};

export const guide = (slug: string): DocPage | undefined => GUIDES.find((g) => g.slug === slug);

/** A page's path: `/docs` or `/docs/<slug>`. */
export const docPath = (page: DocPage) => (page.slug ? `/docs/${page.slug}` : "/docs");

export function docMeta(base: string, page: DocPage): PageMeta {
  return { title: `${page.title} · ${SITE} docs`, description: page.description, url: `${base}${docPath(page)}` };
}

/** `|` would end a table cell. */
const cell = (text: string) => text.replaceAll("|", "\\|");

/** The configuration table, from the variables the server reads. */
export function configurationTable(): string {
  const rows = CONFIG_VARS.map((v) => `| \`${v.name}\` | ${v.default ? `\`${cell(v.default)}\`` : "(unset)"} | ${cell(v.why)} |`);
  return ["| variable | default | why |", "|---|---|---|", ...rows].join("\n");
}

const sources = new Map<string, Promise<string>>();

/** A guide's Markdown as served: read once per process, with this server's URL and the configuration table in place. */
export async function guideMarkdown(page: DocPage, base: string): Promise<string> {
  let source = sources.get(page.slug);
  if (!source) {
    source = readFile(packagePath("docs", `${page.slug}.md`), "utf8");
    sources.set(page.slug, source);
  }
  return (await source).replaceAll("{{base}}", base).replace("<!-- configuration -->", configurationTable());
}
