/**
 * TextureCan (https://www.texturecan.com): CC0 PBR textures (map zips per resolution, Substance files) and a few 3D models,
 * with direct zip downloads. Live, its search pages scraped: no listing of the whole catalogue is known to us (the recordings
 * hold a search page and the first models page), so there is nothing a crawl could page through with confidence.
 * Search and listing pages hold `.article-box` cards and a pager (the page size is read from page 1); details pages, `og:*`
 * and `tex1:*` meta tags and `a.download` zip links. Native ids: `591` for `/details/591/`, `model-547` for `/models/details/547/`.
 */
import { licenseById, normalizeLicense } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, type AssetType, assetMaker, compact } from "./kit/asset.ts";
import { isoDay } from "./kit/dates.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { extensionOf, fileNameOf } from "./kit/files.ts";
import { type CheerioAPI, htmlText, loadHtml, metaContent } from "./kit/html.ts";
import { leadingPages, pageWindow } from "./kit/page-window.ts";
import { cc0Site, keepAsked, kResolution, pixelsToK, typeFilter } from "./kit/texture-sites.ts";
import { httpUrl } from "./kit/url.ts";

const ID = "texturecan";
const SITE = "https://www.texturecan.com";
const DESCRIPTION = "Best for CC0 PBR textures with direct 1K/2K/4K zip downloads (and Substance files), plus a few 3D models.";
const asset = assetMaker(ID);
export const searchPageUrl = (q: string, page: number) => `${SITE}/search/${encodeURIComponent(q.trim())}/${page}/`;

/** `591` → the texture page, `model-547` → the model page (else no TextureCan id), with what every asset here is: CC0, free, zips. */
function detailOf(nativeId: string) {
  const m = /^(model-)?(\d+)$/.exec(nativeId);
  const type: AssetType = m?.[1] ? "model" : "texture";
  const url = `${SITE}/${m?.[1] ? "models/" : ""}details/${m?.[2]}/`;
  return m ? { type, url, license: licenseById("CC0-1.0"), price: { free: true }, formats: ["zip"], downloadable: true } : undefined;
}

/** A details link as a native id: `/details/591/` → `591`; `/models/details/547/` → `model-547`. */
function idOfLink(href: string): string | undefined {
  const m = /^\/(models\/)?details\/(\d+)\/?$/.exec(new URL(href, SITE).pathname);
  return m ? `${m[1] ? "model-" : ""}${m[2]}` : undefined;
}

/** "(Wood 0066)" → "Wood"; "Finance 0002" → "Finance". */
const categoryOfCode = (code: string) => /^\(?\s*(.*?)\s+\d+\s*\)?$/.exec(code.trim())?.[1] || undefined;

/** "This model has 700 tris." / "The mesh consists of 3,560 tris." → 700 / 3560. */
function trisOf(text: string): number | undefined {
  const n = Number(/([\d,]+)\s*tris\b/i.exec(text)?.[1]?.replace(/,/g, ""));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/** The cards and the number of pages (from the pager, 1 when there is none) of a search or listing page. */
export function parseListing(html: string, url: string): { cards: Asset[]; pageCount: number } {
  const $ = loadHtml(html);
  const boxes = $(".article-box");
  if (boxes.length === 0 && $(".articles").length === 0) throw shapeError(ID, url, "listing page has no .articles");
  const cards = boxes.get().flatMap((el) => {
    const link = $(el).find(".texture-header a[href]").first();
    const img = $(el).find(".texture-img img");
    const nativeId = idOfLink(link.attr("href") ?? "");
    const target = nativeId && detailOf(nativeId);
    const [titleHtml = "", codeHtml = ""] = (link.html() ?? "").split(/<br\s*\/?>/i);
    const title = htmlText(titleHtml) || img.attr("alt")?.trim();
    if (!nativeId || !target || !title) return [];
    const description = $(el).find(".texture-desc").text().replace(/\s+/g, " ").trim();
    const category = categoryOfCode(htmlText(codeHtml));
    return asset(nativeId, {
      ...target,
      title,
      description,
      categories: category && [category],
      thumbnailUrl: httpUrl(img.attr("src"), SITE),
      polyCount: target.type === "model" ? trisOf(description) : undefined,
    });
  });
  if (boxes.length > 0 && cards.length === 0) throw shapeError(ID, url, "listing cards have no details links");
  const pages = [...$("#pageNumberDiv .pageNumber")].map((el) => Number($(el).text().trim())).filter((n) => Number.isInteger(n) && n > 0);
  return { cards, pageCount: Math.max(1, ...pages) };
}
const listingPage = async (url: string, io: SourceIo) => parseListing((await io.text(url)).text, url);

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  const q = query.q.trim();
  // TextureCan's search needs words; browsing without them is left to the site itself.
  if (!q || !["texture", "material", "model"].some(typeFilter(query.types))) return { assets: [], total: 0, searchUrl: searchUrl(query) };
  const first = await listingPage(searchPageUrl(q, 1), io);
  const pageSize = first.cards.length;
  if (pageSize === 0) return { assets: [], total: 0, searchUrl: searchUrl(query) };
  const { pages, skip } = pageWindow(query.offset, query.limit, pageSize);
  const asked = pages.filter((p) => p <= first.pageCount).map((p) => (p === 1 ? Promise.resolve(first) : listingPage(searchPageUrl(q, p), io)));
  // A later page that fails ends the window there: the pages before it still stand.
  const all = (await leadingPages(asked, io.signal)).flatMap((a) => a.cards).slice(skip, skip + query.limit);
  // An exact count only when one page holds every result.
  return { ...keepAsked(all, query, first.pageCount === 1 ? pageSize : undefined), searchUrl: searchUrl(query) };
}

/** The `a.download` links of a details page, as direct zip files (Substance archives without a resolution). */
function filesOf($: CheerioAPI, pageResolution: string | undefined): AssetFile[] {
  return [...$("a.download[href]")].flatMap((el) => {
    const url = new URL($(el).attr("href") ?? "", SITE);
    const label = $(el).text().trim();
    const filename = fileNameOf(url);
    const substance = /sbsar/i.test(label) || /_sbsar_/i.test(filename);
    const format = extensionOf(filename) ?? "zip";
    const resolution = substance ? undefined : (kResolution(label) ?? pageResolution);
    return filename ? [compact({ url: url.href, filename, format, resolution, group: substance ? "sbsar" : "archive" })] : [];
  });
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  const target = detailOf(nativeId);
  const page = target && (await unlessGone(io.text(target.url)));
  if (!target || !page) return null;
  const $ = loadHtml(page.text);
  const title = metaContent($, "og:title") ?? metaContent($, "tex1:name");
  if (!title) throw shapeError(ID, target.url, "details page has no og:title or tex1:name");
  const description = metaContent($, "og:description");
  const files = filesOf($, pixelsToK(Number(metaContent($, "tex1:resolution"))));
  const category = $("#rightDetails h3 a").first().text().trim() || categoryOfCode(/\(([^()]*)\)\s*$/.exec(metaContent($, "tex1:name") ?? "")?.[1] ?? "");
  const formats = [...files.map((f) => f.format), ...(files.some((f) => f.group === "sbsar") ? ["sbsar"] : [])];
  return {
    ...asset(nativeId, {
      ...target,
      title,
      description,
      tags: (metaContent($, "tex1:tags") ?? "").split(",").flatMap((t) => t.trim() || []),
      categories: category && [category],
      thumbnailUrl: httpUrl(metaContent($, "og:image") ?? metaContent($, "tex1:preview-image"), SITE),
      license: normalizeLicense(metaContent($, "tex1:license")) ?? licenseById("CC0-1.0"),
      formats: formats.length ? [...new Set(formats)] : ["zip"],
      resolutions: [...new Set(files.flatMap((f) => f.resolution ?? []))],
      polyCount: target.type === "model" && description ? trisOf(description) : undefined,
      downloadable: files.length > 0,
      createdAt: isoDay(metaContent($, "tex1:release-date")),
    }),
    files,
  };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const { cards, pageCount } = await listingPage(`${SITE}/models/`, io);
  const models = cards.filter((c) => c.type === "model");
  // Later pages hold at least one model each.
  const count = models.length + Math.max(0, pageCount - 1);
  return compact({
    total: count,
    atLeast: true,
    byType: { model: count },
    highlights: models[0] && [{ label: "Newest model", title: models[0].title, url: models[0].url }],
    method:
      "TextureCan /models/ listing (HTML): model cards counted, at least one more per further page; the textures (most of the site) are not " +
      "counted because no listing of the whole texture catalogue is known, so the total is a lower bound",
  });
}

/** The site's own search pages (TextureCan has no type or price filter in them). */
const searchUrl = ({ q }: SourceQuery) => (q.trim() ? searchPageUrl(q, 1) : SITE);

export const texturecan = defineSource(
  {
    ...cc0Site(ID, "TextureCan", SITE),
    description: DESCRIPTION,
    assetTypes: ["texture", "model"],
    access: "scrape",
    supportsDownload: true,
    // Cards carry the CC0 licence, the zip format, the category of their code and a model's triangle count; dates and resolutions only on the page.
    filtering: { upstream: [], listed: ["license", "commercial", "attribution", "category", "format", "maxPolys"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
