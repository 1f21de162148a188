/**
 * The web app's pages and files: `/` (the search; `?asset=<id>` opens an asset over it, which is
 * every asset's shareUrl), `/assets/<id>` (an asset's own page) and `/static/<file>` (the bundle,
 * server/web/bundle.ts). Each page is the same shell with its own title, description and preview
 * tags (server/web/meta.ts); the script renders the rest.
 */
import type { H3Event } from "h3";
import type { AppDeps } from "../context.ts";
import { publicBase } from "../context.ts";
import { ApiError } from "../errors.ts";
import { type StaticFile, serveFile, staticFile } from "../static/file.ts";
import { counted } from "../stats/hooks.ts";
import { bundleFile, readManifest, type WebManifest } from "../web/bundle.ts";
import { BUNDLE_CACHE, PAGE_CACHE, pageHeaders } from "../web/headers.ts";
import { assetMeta, searchMeta } from "../web/meta.ts";
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

async function sendPage(event: H3Event, meta: PageMeta, status = 200): Promise<unknown> {
  const built = bundle();
  for (const [name, value] of Object.entries(pageHeaders(built))) event.res.headers.set(name, value);
  const html = renderShell(meta, built);
  if (status !== 200) return new Response(html, { status, headers: { "content-type": HTML, "cache-control": PAGE_CACHE } });
  const file: StaticFile = await staticFile(new TextEncoder().encode(html), { type: HTML, compress: true });
  return serveFile(event, file, PAGE_CACHE);
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

export const staticRoute = get("/static/**", PAGE, () => async (event) => {
  const file = await bundleFile(decodeURIComponent(event.url.pathname.slice(STATIC.length)));
  if (!file) throw new ApiError(404, `no file ${event.url.pathname}`);
  return serveFile(event, file, BUNDLE_CACHE);
});
