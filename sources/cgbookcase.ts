/**
 * cgbookcase (https://www.cgbookcase.com): CC0 PBR texture sets. Indexed: `GET /api/textures`
 * answers the whole catalogue in one JSON array. Its entries have no slug: the page of "Brick Wall 29"
 * is `/textures/brick-wall-29`. `oneType` says how a texture was made (`pbr-scanned`, `plain-photo` …).
 *
 * A texture page has a `<select id="resolution">` of the offered sizes and, in `#download-container`,
 * one link `/textures/thanks?t=<File>_<n>K.zip&r=<n>&u=<Name>` for the selected size (the page's
 * script swaps it for the others). Files sit on a hotlink-protected CDN behind that "thanks" page, so
 * they are listed as `requiresAuth` links and the assets are not `downloadable`.
 */

import { z } from "zod";
import { licenseById } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, assetMaker, compact } from "./kit/asset.ts";
import { addedLast30Days, countBy, latest } from "./kit/census.ts";
import { isoDay } from "./kit/dates.ts";
import { type CensusBody, defineSource, type SourceQuery } from "./kit/define.ts";
import { type SourceIo, shapeError, unlessAnyGone } from "./kit/fetch.ts";
import { loadHtml } from "./kit/html.ts";
import { parseList } from "./kit/list.ts";
import { cc0Site, kResolution } from "./kit/texture-sites.ts";
import { slugify, withWords } from "./kit/url.ts";

const ID = "cgbookcase";
const SITE = "https://www.cgbookcase.com";
const CATALOGUE_URL = `${SITE}/api/textures`;
const DESCRIPTION = "Best for CC0 PBR texture sets up to 8K (scanned and procedural); files are downloaded on the site.";
const asset = assetMaker(ID);
const pageUrl = (slug: string) => `${SITE}/textures/${encodeURIComponent(slug)}`;

/** "Brick Wall 29" → "brick-wall-29", the texture's path on the site. */
export const slugOf = slugify;

const [str, strs] = [z.string().optional(), z.array(z.string()).optional()];
const Entry = z.looseObject({ title: z.string().refine((t) => slugOf(t) !== ""), tags: strs, colors: strs, categories: strs, releasedate: str, oneType: str });
type Entry = z.infer<typeof Entry>;

function toAsset(entry: Entry, files?: AssetFile[]): Asset {
  const slug = slugOf(entry.title);
  return asset(slug, {
    title: entry.title,
    type: "texture",
    tags: [...new Set([...(entry.tags ?? []), ...(entry.colors ?? []), ...(entry.oneType ? [entry.oneType] : [])])],
    categories: entry.categories,
    url: pageUrl(slug),
    license: licenseById("CC0-1.0"),
    price: { free: true },
    formats: ["zip"],
    resolutions: files?.flatMap((f) => f.resolution ?? []),
    downloadable: false,
    createdAt: isoDay(entry.releasedate),
  });
}

/** The whole catalogue; entries without a title that makes a slug are skipped. */
async function catalogue(io: SourceIo): Promise<Entry[]> {
  const body = await io.json(CATALOGUE_URL);
  if (!Array.isArray(body)) throw shapeError(ID, CATALOGUE_URL, "/api/textures did not answer an array");
  return parseList(ID, CATALOGUE_URL, Entry, body).items;
}

async function crawl(io: SourceIo): Promise<Asset[]> {
  const seen = new Set<string>();
  return (await catalogue(io)).map((e) => toAsset(e)).filter((a) => !seen.has(a.nativeId) && Boolean(seen.add(a.nativeId)));
}

/** A texture page's download link, and the same link for every other size of its menu (its script only changes `<n>K` in `t` and `r`). */
export function filesOfPage(html: string, url: string): AssetFile[] {
  const $ = loadHtml(html);
  const href = $("#download-container a[href]").first().attr("href");
  if (!href) throw shapeError(ID, url, "texture page has no download link");
  const link = new URL(href, SITE);
  const [t = "", r = "", u = ""] = ["t", "r", "u"].map((key) => link.searchParams.get(key) ?? "");
  if (!t || !r) throw shapeError(ID, url, "texture page download link has no file");
  const thanks = (file: string, n: string) => `${SITE}/textures/thanks?t=${encodeURIComponent(file)}&r=${encodeURIComponent(n)}&u=${encodeURIComponent(u)}`;
  const file = (filename: string, n: string, fileUrl = thanks(filename, n)): AssetFile =>
    compact({ url: fileUrl, filename, format: "zip", resolution: kResolution(`${n}K`), group: "archive", requiresAuth: true });
  const sizes = [...$("select#resolution option")].map((el) => $(el).attr("value") ?? "").filter((v) => /^\d+$/.test(v));
  const sizeInName = new RegExp(`_${r}K\\.zip$`, "i");
  if (!sizes.includes(r) || !sizeInName.test(t)) return [file(t, r, link.href)];
  return sizes.map((n) => (n === r ? file(t, r) : file(t.replace(sizeInName, `_${n}K.zip`), n)));
}

async function getAsset(slug: string, io: SourceIo): Promise<AssetDetails | null> {
  const url = pageUrl(slug);
  const answers = await unlessAnyGone(catalogue(io), io.text(url));
  const entry = answers?.[0].find((e) => slugOf(e.title) === slug);
  if (!answers || !entry) return null;
  const files = filesOfPage(answers[1].text, url);
  return { ...toAsset(entry, files), files };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const entries = await catalogue(io);
  const now = io.now();
  const released = (e: Entry) => Date.parse(isoDay(e.releasedate) ?? "");
  const newest = latest(entries, released, now);
  const total = entries.length;
  return compact({
    total,
    free: total,
    categories: countBy(entries, (e) => e.categories),
    addedLast30Days: addedLast30Days(now, entries.map(released)),
    highlights: newest && [{ label: "Newest texture", title: newest.title, url: pageUrl(slugOf(newest.title)) }],
    method: "cgbookcase /api/textures (the whole catalogue in one array): every texture counted, release dates for the last 30 days",
  });
}

/** The site's texture list with its search box filled in. */
const searchUrl = ({ q }: SourceQuery) => withWords(`${SITE}/textures`, "search", q);

export const cgbookcase = defineSource(
  { ...cc0Site(ID, "cgbookcase", SITE), description: DESCRIPTION, assetTypes: ["texture"], access: "api", supportsDownload: false },
  { mode: "indexed", searchUrl, crawl, getAsset, census },
);
