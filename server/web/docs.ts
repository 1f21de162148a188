/**
 * The documentation pages (web/docs/guides.ts lists them): `/docs` (the API reference, drawn in
 * the browser from /openapi.json) and the guides written in docs/*.md, each also served as Markdown at `/docs/<page>.md` for
 * agents (/llms.txt links them). `{{base}}` in a guide is this server's public URL, and the
 * self-hosting guide's configuration table is written from core/config.ts's variables, so it
 * cannot drift from what the server reads.
 */
import { readFile } from "node:fs/promises";
import { CONFIG_VARS } from "../../core/config.ts";
import { packagePath } from "../../core/package-path.ts";
import { type DocPage, docPath, docTitle, GUIDES } from "../../web/docs/guides.ts";
import type { PageMeta } from "./shell.ts";

export const guide = (slug: string): DocPage | undefined => GUIDES.find((g) => g.slug === slug);

export function docMeta(base: string, page: DocPage): PageMeta {
  return { title: docTitle(page), description: page.description, url: `${base}${docPath(page)}` };
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
