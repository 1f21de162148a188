/**
 * The web app's pages and files: `/` (the search; `?asset=<id>` opens an asset over it, which is
 * every asset's shareUrl), `/assets/<id>` (an asset's own page), `/sources`, `/sources/<id>` and
 * `/stats` (the pages around the search) and `/static/<file>` (the bundle, server/web/bundle.ts).
 * Each page is the same shell with its own title, description and preview tags
 * (server/web/meta.ts); the script renders the rest.
 */
import { type H3Event, HTTPResponse } from "h3";
import type { AppDeps } from "../context.ts";
import { publicBase } from "../context.ts";
import { ApiError } from "../errors.ts";
import { type StaticFile, serveFile, staticFile } from "../static/file.ts";
import { counted } from "../stats/hooks.ts";
import { bundleFile, readManifest, type WebManifest } from "../web/bundle.ts";
import { BUNDLE_CACHE, PAGE_CACHE, pageHeaders } from "../web/headers.ts";
import { assetMeta, searchMeta, sourceMeta, sourcesMeta, statsMeta } from "../web/meta.ts";
import { type PageMeta, renderShell } from "../web/shell.ts";
import { get, PAGE } from "./route.ts";

const HTML = "text/html; charset=utf-8";
const STATIC = "/static/";

let manifest: WebManifest | undefined;
/** Read on the first page asked for, so an app that serves no page needs no build. */
function bundle(): WebManifest {
  try {
    manifest ??= readManifest();
  } catch (err) {
    throw new ApiError(503, (err as Error).message);
  }
  return manifest;
}

/** A page of the app: the shell with `meta`, under the pages' headers. */
export async function sendPage(event: H3Event, meta: PageMeta, status = 200): Promise<unknown> {
  const built = bundle();
  for (const [name, value] of Object.entries(pageHeaders(built))) event.res.headers.set(name, value);
  const html = renderShell(meta, built);
  if (status !== 200) {
    // Staged with the page's own headers, which h3 writes with an HTTPResponse (a plain Response would drop them).
    event.res.headers.set("content-type", HTML);
    event.res.headers.set("cache-control", PAGE_CACHE);
    return new HTTPResponse(html, { status });
  }
  const file: StaticFile = await staticFile(new TextEncoder().encode(html), { type: HTML, compress: true });
  return serveFile(event, file, PAGE_CACHE);
}

/**
 * A page's address with a trailing slash (or doubled slashes): a redirect to its one address, the
 * one its canonical link names. The path always starts with the page's own segment, so the
 * address it sends to stays on this server.
 */
export function slashRedirect(event: H3Event): HTTPResponse | undefined {
  const { pathname, search } = event.url;
  const canonical = `/${pathname.split("/").filter(Boolean).join("/")}`;
  if (canonical === pathname) return undefined;
  return new HTTPResponse(null, { status: 301, headers: { location: `${canonical}${search}`, "cache-control": PAGE_CACHE } });
}

/** A page for what this server does not hold: the 404 page for a browser, the API's JSON error (`message`, naming it) for any other client. */
export function missingPage(event: H3Event, meta: PageMeta, message: string): Promise<unknown> {
  event.res.headers.set("vary", "accept");
  if (!event.req.headers.get("accept")?.includes("text/html")) throw new ApiError(404, message);
  return sendPage(event, meta, 404);
}

async function page(event: H3Event, deps: AppDeps, assetId: string | undefined): Promise<unknown> {
  const base = publicBase(deps, event);
  if (assetId === undefined) return sendPage(event, searchMeta(base, event.url.searchParams));
  const meta = await assetMeta(base, assetId, deps, event.req.signal);
  if (meta) return sendPage(event, meta);
  return sendPage(event, { ...searchMeta(base, new URLSearchParams()), title: "Asset not found · asset-search" }, 404);
}

export const searchPageRoute = get("/", PAGE, (deps) => (event) => {
  const asset = event.url.searchParams.get("asset") ?? undefined;
  return counted(event, page(event, deps, asset), () => deps.usage.pageView());
});

export const assetPageRoute = get("/assets/{id}", PAGE, (deps) => (event, id) => counted(event, page(event, deps, id), () => deps.usage.pageView()));

export const sourcesPageRoute = get(
  "/sources",
  PAGE,
  (deps) => (event) => slashRedirect(event) ?? counted(event, sendPage(event, sourcesMeta(publicBase(deps, event), deps)), () => deps.usage.pageView()),
);

/** A source the registry does not hold, a malformed id included: the page saying so for a browser, the API's JSON error for any other client. */
async function sourcePage(event: H3Event, deps: AppDeps, rawId: string): Promise<unknown> {
  const base = publicBase(deps, event);
  const id = decodedOrRaw(rawId);
  const meta = sourceMeta(base, id, deps);
  if (meta) return sendPage(event, meta);
  return missingPage(event, { ...sourcesMeta(base, deps), title: "Source not found · asset-search" }, `no source "${id}": /v1/providers lists them`);
}

/** An id that is not valid percent-encoding is said as it came. */
const decodedOrRaw = (id: string): string => {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
};

export const sourcePageRoute = get(
  "/sources/{id}",
  PAGE,
  (deps) => (event, id) => slashRedirect(event) ?? counted(event, sourcePage(event, deps, id), () => deps.usage.pageView()),
);

export const statsPageRoute = get(
  "/stats",
  PAGE,
  (deps) => (event) => slashRedirect(event) ?? counted(event, sendPage(event, statsMeta(publicBase(deps, event))), () => deps.usage.pageView()),
);

export const staticRoute = get("/static/**", PAGE, () => async (event) => {
  // A name that is not valid percent-encoding is no file of the bundle either.
  const file = await bundleFile(decodedOrRaw(event.url.pathname.slice(STATIC.length)));
  if (!file) throw new ApiError(404, `no file ${event.url.pathname}`);
  return serveFile(event, file, BUNDLE_CACHE);
});
