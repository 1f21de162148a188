/**
 * cgbookcase (https://www.cgbookcase.com): CC0 PBR texture sets. Indexed: `GET /api/textures`
 * answers the whole catalogue in one JSON array.
 *
 * Upstream shapes used here:
 * - `/api/textures` → `[{ id, title, tags, colors, categories, releasedate, resolution (max, in K),
 *   files (map names), oneType }]`; `oneType` says how the texture was made (`pbr-scanned`,
 *   `pbr-procedural`, `pbr-approximated`, `plain-photo`). There is no slug: the page of "Brick Wall 29" is
 *   `/textures/brick-wall-29`.
 * - `/textures/<slug>` (HTML) → a `<select id="resolution">` of the offered sizes and, in
 *   `#download-container`, one link `/textures/thanks?t=<File>_<n>K.zip&r=<n>&u=<Name>` for the
 *   selected size (the page's script swaps it for the others).
 *
 * Files sit on a hotlink-protected CDN behind that "thanks" page, so they are listed as
 * `requiresAuth` links and the assets are not `downloadable`.
 */
import { z } from "zod";
import * as cheerio from "cheerio";
import type { Source, SourceContext, SourceQuery } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, SourceCensus } from "../core/schemas/index.ts";
import { licenseById } from "../core/license.ts";
import { fetchJson, fetchText, isGone, shapeError } from "./kit/fetch.ts";
import { DAY_MS, kResolution } from "./kit/texture-sites.ts";

const ID = "cgbookcase";
const NAME = "cgbookcase";
const SITE = "https://www.cgbookcase.com";
const CATALOGUE_URL = `${SITE}/api/textures`;

const Entry = z.looseObject({
  id: z.number().optional(),
  title: z.string().min(1),
  tags: z.array(z.string()).optional(),
  colors: z.array(z.string()).optional(),
  categories: z.array(z.string()).optional(),
  releasedate: z.string().optional(),
  resolution: z.number().optional(),
  files: z.array(z.string()).optional(),
  oneType: z.string().optional(),
});
type Entry = z.infer<typeof Entry>;

/** "Brick Wall 29" → "brick-wall-29", the texture's path on the site. */
export function slugOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

const pageUrl = (slug: string) => `${SITE}/textures/${encodeURIComponent(slug)}`;

function released(entry: Entry): Date | undefined {
  if (!entry.releasedate || !/^\d{4}-\d{2}-\d{2}/.test(entry.releasedate)) return undefined;
  const d = new Date(`${entry.releasedate.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function toAsset(entry: Entry): Asset {
  const slug = slugOf(entry.title);
  const date = released(entry);
  const tags = [...new Set([...(entry.tags ?? []), ...(entry.colors ?? []), ...(entry.oneType ? [entry.oneType] : [])])];
  return {
    id: `${ID}:${slug}`,
    provider: ID,
    nativeId: slug,
    title: entry.title,
    type: "texture",
    tags,
    categories: entry.categories ?? [],
    url: pageUrl(slug),
    license: licenseById("CC0-1.0"),
    price: { free: true },
    formats: ["zip"],
    downloadable: false,
    ...(date ? { createdAt: date.toISOString() } : {}),
  };
}

/** The whole catalogue; entries without a title are skipped, a body that is no array is an error. */
async function catalogue(ctx: SourceContext): Promise<Entry[]> {
  const body = await fetchJson(NAME, CATALOGUE_URL, ctx);
  if (!Array.isArray(body)) throw shapeError(NAME, CATALOGUE_URL, "/api/textures did not answer an array");
  const entries = body.flatMap((raw) => {
    const parsed = Entry.safeParse(raw);
    return parsed.success && slugOf(parsed.data.title) ? [parsed.data] : [];
  });
  if (body.length > 0 && entries.length === 0) throw shapeError(NAME, CATALOGUE_URL, "/api/textures entries have an unexpected shape");
  return entries;
}

async function crawl(ctx: SourceContext): Promise<Asset[]> {
  const seen = new Set<string>();
  return (await catalogue(ctx)).map(toAsset).filter((a) => !seen.has(a.nativeId) && Boolean(seen.add(a.nativeId)));
}

/**
 * The download links of a texture page: the one the page shows, and the same link for every other
 * size of the resolution menu (the page's script only changes `<n>K` in `t` and `r`).
 */
export function filesOfPage(html: string, url: string): AssetFile[] {
  const $ = cheerio.load(html);
  const href = $("#download-container a[href]").first().attr("href");
  if (!href) throw shapeError(NAME, url, "texture page has no download link");
  const link = new URL(href, SITE);
  const t = link.searchParams.get("t");
  const r = link.searchParams.get("r");
  const u = link.searchParams.get("u") ?? "";
  if (!t || !r) throw shapeError(NAME, url, "texture page download link has no file");
  const build = (file: string, n: string) =>
    `${SITE}/textures/thanks?t=${encodeURIComponent(file)}&r=${encodeURIComponent(n)}&u=${encodeURIComponent(u)}`;
  const file = (filename: string, n: string, fileUrl: string): AssetFile => ({
    url: fileUrl,
    filename,
    format: "zip",
    ...(kResolution(`${n}K`) ? { resolution: kResolution(`${n}K`) } : {}),
    group: "archive",
    requiresAuth: true,
  });

  const sizes = $("select#resolution option")
    .map((_, el) => $(el).attr("value") ?? "")
    .get()
    .filter((v) => /^\d+$/.test(v));
  const sizeInName = new RegExp(`_${r}K\\.zip$`, "i");
  if (!sizes.includes(r) || !sizeInName.test(t)) return [file(t, r, link.href)];
  return sizes.map((n) => {
    if (n === r) return file(t, r, build(t, r));
    const other = t.replace(sizeInName, `_${n}K.zip`);
    return file(other, n, build(other, n));
  });
}

async function getAsset(slug: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const url = pageUrl(slug);
  const [entries, page] = await Promise.allSettled([catalogue(ctx), fetchText(url, ctx)]);
  if (page.status === "rejected") {
    if (isGone(page.reason)) return null;
    throw page.reason;
  }
  if (entries.status === "rejected") throw entries.reason;
  const entry = entries.value.find((e) => slugOf(e.title) === slug);
  if (!entry) return null;
  const files = filesOfPage(page.value.text, url);
  const resolutions = files.flatMap((f) => f.resolution ?? []);
  return { ...toAsset(entry), ...(resolutions.length ? { resolutions } : {}), files };
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const entries = await catalogue(ctx);
  const now = ctx.now();
  const since = now.getTime() - 30 * DAY_MS;
  const categories: Record<string, number> = {};
  let added = 0;
  let newest: { entry: Entry; date: Date } | undefined;
  for (const entry of entries) {
    for (const c of new Set(entry.categories ?? [])) categories[c] = (categories[c] ?? 0) + 1;
    const date = released(entry);
    if (!date || date.getTime() > now.getTime()) continue;
    if (date.getTime() > since) added++;
    if (!newest || date > newest.date) newest = { entry, date };
  }
  const total = entries.length;
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    free: total,
    byType: { texture: total },
    byLicense: { "CC0-1.0": total },
    categories,
    unit: "assets",
    addedLast30Days: added,
    ...(newest
      ? { highlights: [{ label: "Newest texture", title: newest.entry.title, url: pageUrl(slugOf(newest.entry.title)) }] }
      : {}),
    method: "cgbookcase /api/textures (the whole catalogue in one array): every texture counted, release dates for the last 30 days",
    countedAt: now.toISOString(),
  };
}

/** The site's texture list with its search box filled in. */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  return `${SITE}/textures${q ? `?search=${encodeURIComponent(q)}` : ""}`;
}

export const cgbookcase: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for CC0 PBR texture sets up to 8K (scanned and procedural); files are downloaded on the site.",
  assetTypes: ["texture"],
  access: "api",
  pricing: "free",
  license: licenseById("CC0-1.0"),
  supportsDownload: false,
  mode: "indexed",
  unit: "assets",
  searchUrl,
  crawl,
  getAsset,
  census,
};
