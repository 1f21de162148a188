/**
 * TextureCan (https://www.texturecan.com): CC0 PBR textures (map zips per resolution, Substance
 * files) and a few 3D models, with direct zip downloads. Live: its search pages are scraped.
 *
 * Why live: no listing of the whole catalogue is known to us (the recordings hold a search page and
 * the first models page), so there is nothing a crawl could page through with confidence.
 *
 * Upstream shapes used here (HTML):
 * - `/search/<q>/<page>/` → `.article-box` cards (`.texture-header a` = "Title<br />(Category 0066)"
 *   linking `/details/<n>/` or `/models/details/<n>/`, `.texture-img img`, `.texture-desc`) and a
 *   pager `#pageNumberDiv .pageNumber`. The page size is not documented: it is read from page 1.
 * - `/details/<n>/` and `/models/details/<n>/` → `og:*` and `tex1:*` meta tags (name, tags,
 *   resolution, release date, licence) and `a.download` links to `/downloads/…zip`.
 * - `/models/` → the models listing (same cards), used by the census.
 *
 * Native ids: `591` for the texture `/details/591/`, `model-547` for `/models/details/547/`.
 */
import * as cheerio from "cheerio";
import type { Source, SourceContext, SourceQuery, SourceSearchResult } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, AssetType, SourceCensus } from "../core/schemas/index.ts";
import { licenseById, normalizeLicense } from "../core/license.ts";
import { fetchText, shapeError, unlessGone } from "./kit/fetch.ts";
import { leadingPages, pageWindow } from "./kit/page-window.ts";
import { htmlText, kResolution, pixelsToK, typeFilter } from "./kit/texture-sites.ts";
import { httpUrl } from "./kit/url.ts";

const ID = "texturecan";
const NAME = "TextureCan";
const SITE = "https://www.texturecan.com";
const MODELS_URL = `${SITE}/models/`;

interface ListingPage {
  cards: Asset[];
  /** Pages of this listing, from the pager (1 when there is none). */
  pageCount: number;
}

export function searchPageUrl(q: string, page: number): string {
  return `${SITE}/search/${encodeURIComponent(q.trim())}/${page}/`;
}

/** `591` → the texture page; `model-547` → the model page; anything else is no TextureCan id. */
function detailUrl(nativeId: string): { url: string; type: AssetType } | undefined {
  if (/^\d+$/.test(nativeId)) return { url: `${SITE}/details/${nativeId}/`, type: "texture" };
  const model = /^model-(\d+)$/.exec(nativeId);
  return model ? { url: `${SITE}/models/details/${model[1]}/`, type: "model" } : undefined;
}

/** A details link as a native id and type: `/details/591/` → `591`; `/models/details/547/` → `model-547`. */
function idOfLink(href: string): { nativeId: string; type: AssetType; url: string } | undefined {
  const url = new URL(href, SITE);
  const model = /^\/models\/details\/(\d+)\/?$/.exec(url.pathname);
  if (model) return { nativeId: `model-${model[1]}`, type: "model", url: `${SITE}/models/details/${model[1]}/` };
  const texture = /^\/details\/(\d+)\/?$/.exec(url.pathname);
  if (texture) return { nativeId: texture[1]!, type: "texture", url: `${SITE}/details/${texture[1]}/` };
  return undefined;
}

/** "(Wood 0066)" → "Wood"; "Finance 0002" → "Finance". */
function categoryOfCode(code: string): string | undefined {
  const m = /^\(?\s*(.*?)\s+\d+\s*\)?$/.exec(code.trim());
  return m?.[1] || undefined;
}

/** "This model has 700 tris." / "The mesh consists of 3,560 tris." → 700 / 3560. */
function trisOf(text: string): number | undefined {
  const m = /([\d,]+)\s*tris\b/i.exec(text);
  const n = m ? Number(m[1]!.replace(/,/g, "")) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

function baseAsset(nativeId: string, type: AssetType, url: string): Omit<Asset, "title" | "tags"> {
  return {
    id: `${ID}:${nativeId}`,
    provider: ID,
    nativeId,
    type,
    url,
    license: licenseById("CC0-1.0"),
    price: { free: true },
    formats: ["zip"],
    downloadable: true,
  };
}

/** The cards and the pager of a search or listing page. */
export function parseListing(html: string, url: string): ListingPage {
  const $ = cheerio.load(html);
  const boxes = $(".article-box");
  if (boxes.length === 0 && $(".articles").length === 0) throw shapeError(NAME, url, "listing page has no .articles");
  const cards: Asset[] = [];
  boxes.each((_, el) => {
    const box = $(el);
    const link = box.find(".texture-header a[href]").first();
    const ref = idOfLink(link.attr("href") ?? "");
    if (!ref) return;
    const [titleHtml = "", codeHtml = ""] = (link.html() ?? "").split(/<br\s*\/?>/i);
    const title = htmlText(titleHtml) || box.find(".texture-img img").attr("alt")?.trim() || "";
    if (!title) return;
    const category = categoryOfCode(htmlText(codeHtml));
    const thumbnailUrl = httpUrl(box.find(".texture-img img").attr("src"), SITE);
    const description = box.find(".texture-desc").text().replace(/\s+/g, " ").trim();
    const tris = ref.type === "model" ? trisOf(description) : undefined;
    cards.push({
      ...baseAsset(ref.nativeId, ref.type, ref.url),
      title,
      ...(description ? { description } : {}),
      tags: [],
      ...(category ? { categories: [category] } : {}),
      ...(thumbnailUrl ? { thumbnailUrl } : {}),
      ...(tris ? { polyCount: tris } : {}),
    });
  });
  if (boxes.length > 0 && cards.length === 0) throw shapeError(NAME, url, "listing cards have no details links");
  const pages = $("#pageNumberDiv .pageNumber")
    .map((_, el) => Number($(el).text().trim()))
    .get()
    .filter((n) => Number.isInteger(n) && n > 0);
  return { cards, pageCount: Math.max(1, ...pages) };
}

async function listingPage(url: string, ctx: SourceContext): Promise<ListingPage> {
  return parseListing((await fetchText(url, ctx)).text, url);
}

const fits = (types: readonly AssetType[]) => types.length === 0 || types.some((t) => ["texture", "material", "model"].includes(t));

async function search(query: SourceQuery, ctx: SourceContext): Promise<SourceSearchResult> {
  const link = searchUrl(query);
  const q = query.q.trim();
  // TextureCan's search needs words; browsing without them is left to the site itself.
  if (!q || !fits(query.types)) return { assets: [], total: 0, searchUrl: link };
  const first = await listingPage(searchPageUrl(q, 1), ctx);
  const pageSize = first.cards.length;
  if (pageSize === 0) return { assets: [], total: 0, searchUrl: link };
  const { pages, skip } = pageWindow(query.offset, query.limit, pageSize);
  const wantedPages = pages.filter((p) => p <= first.pageCount);
  // A later page that fails ends the window there: the pages before it still stand.
  const answers = await leadingPages(
    wantedPages.map((p) => (p === 1 ? Promise.resolve(first) : listingPage(searchPageUrl(q, p), ctx))),
    ctx.signal,
  );
  const wanted = typeFilter(query.types);
  const all = answers.flatMap((a) => a.cards).slice(skip, skip + query.limit);
  const assets = all.filter((a) => wanted(a.type));
  // An exact count only when one page holds every result.
  const exact = first.pageCount === 1 && assets.length === all.length;
  return { assets, ...(exact ? { total: pageSize } : {}), searchUrl: link };
}

function meta($: cheerio.CheerioAPI, key: string): string | undefined {
  const value = $(`meta[property="${key}"], meta[name="${key}"]`).first().attr("content")?.trim();
  return value || undefined;
}

/** The `a.download` links of a details page, as direct zip files. */
function filesOf($: cheerio.CheerioAPI, pageRes: string | undefined): AssetFile[] {
  const files: AssetFile[] = [];
  $("a.download[href]").each((_, el) => {
    const url = new URL($(el).attr("href")!, SITE);
    const label = $(el).text().trim();
    const filename = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    if (!filename) return;
    const substance = /sbsar/i.test(label) || /_sbsar_/i.test(filename);
    const resolution = substance ? undefined : (kResolution(label) ?? pageRes);
    files.push({
      url: url.href,
      filename,
      format: (/\.([a-z0-9]+)$/i.exec(filename)?.[1] ?? "zip").toLowerCase(),
      ...(resolution ? { resolution } : {}),
      group: substance ? "sbsar" : "archive",
    });
  });
  return files;
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const target = detailUrl(nativeId);
  if (!target) return null;
  const res = await unlessGone(fetchText(target.url, ctx));
  if (!res) return null;
  const html = res.text;
  const $ = cheerio.load(html);
  const title = meta($, "og:title") ?? meta($, "tex1:name");
  if (!title) throw shapeError(NAME, target.url, "details page has no og:title or tex1:name");
  const description = meta($, "og:description");
  const thumbnail = meta($, "og:image") ?? meta($, "tex1:preview-image");
  const tags = (meta($, "tex1:tags") ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  const category = $("#rightDetails h3 a").first().text().trim() || categoryOfCode(/\(([^()]*)\)\s*$/.exec(meta($, "tex1:name") ?? "")?.[1] ?? "");
  const resolution = pixelsToK(Number(meta($, "tex1:resolution")));
  const release = meta($, "tex1:release-date");
  const releaseDate = release && /^\d{4}-\d{2}-\d{2}$/.test(release) ? new Date(`${release}T00:00:00Z`) : undefined;
  const license = normalizeLicense(meta($, "tex1:license")) ?? licenseById("CC0-1.0");
  const files = filesOf($, resolution);
  const resolutions = [...new Set(files.flatMap((f) => f.resolution ?? []))];
  const tris = target.type === "model" && description ? trisOf(description) : undefined;
  const formats = [...new Set([...files.map((f) => f.format), ...files.filter((f) => f.group === "sbsar").map(() => "sbsar")])];
  return {
    ...baseAsset(nativeId, target.type, target.url),
    title,
    ...(description ? { description } : {}),
    tags,
    ...(category ? { categories: [category] } : {}),
    ...(thumbnail ? { thumbnailUrl: new URL(thumbnail, SITE).href } : {}),
    license,
    ...(formats.length ? { formats } : {}),
    ...(resolutions.length ? { resolutions } : {}),
    ...(tris ? { polyCount: tris } : {}),
    downloadable: files.length > 0,
    ...(releaseDate && !Number.isNaN(releaseDate.getTime()) ? { createdAt: releaseDate.toISOString() } : {}),
    files,
  };
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const { cards, pageCount } = await listingPage(MODELS_URL, ctx);
  const models = cards.filter((c) => c.type === "model");
  // Later pages hold at least one model each.
  const count = models.length + Math.max(0, pageCount - 1);
  const newest = models[0];
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: count,
    atLeast: true,
    byType: { model: count },
    byLicense: { "CC0-1.0": count },
    unit: "assets",
    ...(newest ? { highlights: [{ label: "Newest model", title: newest.title, url: newest.url }] } : {}),
    method:
      "TextureCan /models/ listing (HTML): model cards counted, at least one more per further page; the textures (most of the site) are not " +
      "counted because no listing of the whole texture catalogue is known, so the total is a lower bound",
    countedAt: ctx.now().toISOString(),
  };
}

/** The site's own search pages (TextureCan has no type or price filter in them). */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  return q ? searchPageUrl(q, 1) : SITE;
}

export const texturecan: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for CC0 PBR textures with direct 1K/2K/4K zip downloads (and Substance files), plus a few 3D models.",
  assetTypes: ["texture", "model"],
  access: "scrape",
  pricing: "free",
  license: licenseById("CC0-1.0"),
  supportsDownload: true,
  mode: "live",
  unit: "assets",
  searchUrl,
  search,
  getAsset,
  census,
};
