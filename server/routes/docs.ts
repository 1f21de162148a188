/**
 * The documentation: `/docs` (the API reference), `/docs/<guide>` (a guide's page, which the web
 * app renders from its Markdown), `/docs/<guide>.md` (the Markdown itself) and
 * `/docs/swagger-ui.css` (the reference's stylesheet, from the renderer's own package).
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { H3Event } from "h3";
import { REFERENCE } from "../../web/docs/guides.ts";
import type { AppDeps } from "../context.ts";
import { publicBase } from "../context.ts";
import { ApiError } from "../errors.ts";
import { serveFile, staticFile } from "../static/file.ts";
import { counted } from "../stats/hooks.ts";
import { docMeta, guide, guideMarkdown } from "../web/docs.ts";
import { PAGE_CACHE } from "../web/headers.ts";
import { missingPage, sendPage, slashRedirect } from "./pages.ts";
import { get, PAGE } from "./route.ts";

const MARKDOWN = ".md";
export const SWAGGER_CSS = "swagger-ui.css";
/** As the web app titles a docs address it does not know (web/docs/page.tsx). */
const NOT_FOUND_TITLE = "Page not found · asset-search docs";

let stylesheet: ReturnType<typeof staticFile> | undefined;
/** Read once, on the first request: the stylesheet of the version the bundle holds. */
function swaggerStylesheet() {
  const path = createRequire(import.meta.url).resolve(`swagger-ui-dist/${SWAGGER_CSS}`);
  stylesheet ??= readFile(path).then((bytes) => staticFile(bytes, { type: "text/css; charset=utf-8", compress: true }));
  return stylesheet;
}

async function docsFile(event: H3Event, deps: AppDeps, name: string): Promise<unknown> {
  if (name === SWAGGER_CSS) return serveFile(event, await swaggerStylesheet(), PAGE_CACHE);
  const markdown = name.endsWith(MARKDOWN);
  const page = guide(markdown ? name.slice(0, -MARKDOWN.length) : name);
  const base = publicBase(deps, event);
  const missing = `no page /docs/${name}: /llms.txt lists them`;
  if (!page) {
    if (markdown) throw new ApiError(404, missing);
    return missingPage(event, { ...docMeta(base, REFERENCE), title: NOT_FOUND_TITLE }, missing);
  }
  if (!markdown) return counted(event, sendPage(event, docMeta(base, page)), () => deps.usage.pageView());
  const file = await staticFile(new TextEncoder().encode(await guideMarkdown(page, base)), { type: "text/markdown; charset=utf-8", compress: true });
  return serveFile(event, file, PAGE_CACHE);
}

export const docsRoute = get(
  "/docs",
  PAGE,
  (deps) => (event) => slashRedirect(event) ?? counted(event, sendPage(event, docMeta(publicBase(deps, event), REFERENCE)), () => deps.usage.pageView()),
);

export const docsFileRoute = get("/docs/{id}", PAGE, (deps) => (event, id) => slashRedirect(event) ?? docsFile(event, deps, id));
