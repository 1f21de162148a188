/**
 * Thingiverse (https://www.thingiverse.com): free 3D-printable models, searched live through its REST API with an app token
 * sent as `Authorization: Bearer <token>` (never in a URL). Files download through `download_url`, which needs the token too.
 */
import { z } from "zod";
import { licenseById, licenseFamily } from "../core/model/license.ts";
import { type AssetDetails, assetMaker, compact, type License, round } from "./kit/asset.ts";
import { type CensusBody, defineSource, type SourceQuery, type SourceSearchResult } from "./kit/define.ts";
import { expectShape, requiredKey, type SourceIo, shapeError, unlessAnyGone } from "./kit/fetch.ts";
import { extensionOf } from "./kit/files.ts";
import { mapOne, type SearchFilters } from "./kit/filters.ts";
import { collectWindow } from "./kit/page-window.ts";
import { isHttpUrl } from "./kit/url.ts";

const ID = "thingiverse";
const SITE = "https://www.thingiverse.com";
const API = "https://api.thingiverse.com";
const KEY_ENV = "THINGIVERSE_TOKEN";
const PAGE_SIZE = 30;
const asset = assetMaker(ID);

const [str, flag] = [z.string().nullish(), z.union([z.boolean(), z.number()]).optional()];
const Summary = z
  .looseObject({ id: z.number().int(), name: z.string(), public_url: z.string().optional(), thumbnail: str, is_private: flag, is_published: flag })
  .extend({ creator: z.looseObject({ name: z.string().optional() }).nullish() });
type Summary = z.infer<typeof Summary>;
const Image = z.looseObject({ sizes: z.array(z.looseObject({ type: z.string(), size: z.string(), url: z.string() })).optional() });
const Thing = Summary.extend({ description: str, added: str, license: str, default_image: Image.nullish() });
const FileEntry = z.looseObject({ id: z.number().int(), name: z.string(), size: z.number().nullish(), download_url: z.string() });
const List = z.union([z.array(z.unknown()), z.looseObject({ hits: z.array(z.unknown()) })]);

const get = (url: string, io: SourceIo) => io.json(url, { authorization: `Bearer ${requiredKey(io, KEY_ENV, "the Thingiverse API needs an app token")}` });

/** Thingiverse's licence names: it does not say which CC version it means, so no SPDX id is claimed (but for CC0, which has one). */
export function thingLicense(raw: string | null | undefined): License | undefined {
  const name = raw?.trim();
  if (!name) return undefined;
  if (/public domain dedication|cc0/i.test(name)) return licenseById("CC0-1.0");
  if (/attribution.*non.?commercial/i.test(name)) return { name, commercialUse: false, attributionRequired: true };
  if (/attribution.*(share.?alike|no.?deriv)|creative commons.*attribution/i.test(name)) return { name, commercialUse: true, attributionRequired: true };
  return { name };
}

/** The things of a listing, every one of them: `/newest` answers an array, a search `{ total, hits }` (an array in older API versions). */
async function readList(url: string, io: SourceIo): Promise<{ items: Summary[]; total?: number }> {
  const list = expectShape(ID, url, List, await get(url, io), `${url} did not answer a list of things`);
  const [things, total] = Array.isArray(list) ? [list, undefined] : [list.hits, list.total];
  const items = things.map((raw, i) => expectShape(ID, url, Summary, raw, `thing #${i} of ${url} has an unexpected shape`));
  return { items, total: typeof total === "number" ? Math.round(total) : undefined };
}

const thingUrl = (t: Summary) => (isHttpUrl(t.public_url) ? t.public_url : `${SITE}/thing:${t.id}`);
const visible = (t: Summary) => t.is_private !== true && t.is_private !== 1 && t.is_published !== false && t.is_published !== 0;

function toAsset(t: Summary & Partial<z.infer<typeof Thing>>, tags?: string[], formats?: string[]) {
  const large = t.default_image?.sizes?.find((s) => s.type === "preview" && s.size === "large")?.url;
  return asset(String(t.id), {
    title: t.name,
    description: t.description?.trim(),
    type: "model",
    tags,
    url: thingUrl(t),
    // Some summaries carry a model file as "thumbnail" (…/medium_thumb_x.stl): only images are kept.
    thumbnailUrl: [large, t.thumbnail].find((u) => isHttpUrl(u) && /\.(jpe?g|png|gif|webp)$/i.test(u)),
    author: t.creator?.name,
    license: thingLicense(t.license),
    price: { free: true },
    formats,
    downloadable: false,
    createdAt: t.added,
  });
}

/** Thingiverse's `license` codes (as its API clients send them) per licence family; it names no version, so a versioned id (cc-by-4.0) has none. */
const LICENSE_CODES: Record<string, string> = {
  cc0: "pd0",
  "cc0-1.0": "pd0",
  "cc-by": "cc",
  "cc-by-sa": "cc-sa",
  "cc-by-nd": "cc-nd",
  "cc-by-nc-sa": "cc-nc-sa",
  "cc-by-nc-nd": "cc-nc-nd",
  gpl: "gpl",
  lgpl: "lgpl",
  bsd: "bsd",
};

/** The one `license` code wanted; undefined when no licence is asked, null when the wanted ones have no single code. */
function licenseCode({ license }: SearchFilters): string | null | undefined {
  if (!license?.length) return undefined;
  return mapOne(license, (t) => (licenseFamily(t) === t || t === "cc0-1.0" ? LICENSE_CODES[t] : undefined)) ?? null;
}

/** A page of things: `/newest` for a plain empty query, else `/search/` with `sort` (relevant, newest or popular: the site's own orders) and `license`. */
function listUrl(query: SourceQuery, license: string | undefined, page: number): string {
  const q = query.q.trim();
  const paging = `per_page=${PAGE_SIZE}&page=${page}`;
  const sort = query.sort === "newest" || query.sort === "popular" ? query.sort : q ? "relevant" : "newest";
  if (!q && sort === "newest" && !license) return `${API}/newest?${paging}`;
  return `${API}/search/${q ? `${encodeURIComponent(q)}/` : ""}?type=things&${paging}&sort=${sort}${license ? `&license=${license}` : ""}`;
}

async function search(query: SourceQuery, io: SourceIo): Promise<SourceSearchResult> {
  // Nothing here is downloadable without the user's own Thingiverse access.
  if ((query.types.length && !query.types.includes("model")) || query.downloadable) return { assets: [], searchUrl: searchUrl(query) };
  // Listings carry no licence: a licence with no upstream code cannot be checked, so it answers nothing rather than everything.
  const license = licenseCode(query.filters);
  if (license === null) return { assets: [], searchUrl: searchUrl(query) };
  const { items, ...total } = await collectWindow(query, PAGE_SIZE, io, (n) => readList(listUrl(query, license, n), io));
  return { assets: items.filter(visible).map((t) => toAsset(t)), ...total, searchUrl: searchUrl(query) };
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!/^\d+$/.test(nativeId)) return null;
  const base = `${API}/things/${nativeId}`;
  const answers = await unlessAnyGone(get(base, io), get(`${base}/files`, io), get(`${base}/tags`, io));
  if (!answers) return null;
  const thing = expectShape(ID, base, Thing, answers[0], `${base} is not a thing`);
  const files = expectShape(ID, `${base}/files`, z.array(FileEntry), answers[1], `${base}/files is not a list of files`)
    .filter((f) => isHttpUrl(f.download_url))
    .map((f) => {
      const format = extensionOf(f.name) ?? "bin";
      return compact({ url: f.download_url, filename: f.name, format, sizeBytes: round(f.size), group: format, requiresAuth: true });
    });
  const tags = expectShape(ID, `${base}/tags`, z.array(z.looseObject({ name: z.string() })), answers[2], `${base}/tags is not a list of tags`);
  return { ...toAsset(thing, [...new Set(tags.map((t) => t.name))], [...new Set(files.map((f) => f.format))]), files };
}

/** One search over every thing: its `total` counts the public catalogue. */
async function census(io: SourceIo): Promise<CensusBody> {
  const url = `${API}/search/?type=things&per_page=1&page=1&sort=newest`;
  const { items, total } = await readList(url, io);
  if (total === undefined) throw shapeError(ID, url, `${url} answered no total`);
  const highlights = items.slice(0, 1).map((newest) => ({ label: "Newest thing", title: newest.name, url: thingUrl(newest) }));
  const method = "Thingiverse API: the total of one empty /search/ for things (every public thing); licences are per thing and not counted";
  return compact({ total, free: total, highlights, method });
}

const searchUrl = (query: SourceQuery) =>
  query.q.trim() ? `${SITE}/search?q=${encodeURIComponent(query.q.trim())}&type=things&sort=relevant` : `${SITE}/newest`;

export const thingiverse = defineSource(
  {
    id: ID,
    name: "Thingiverse",
    homepage: SITE,
    description: "Best for 3D-printable models (STL, OBJ, 3MF) shared by makers; files need a Thingiverse login to download.",
    assetTypes: ["model"],
    access: "api",
    pricing: "free",
    supportsDownload: false,
    key: { env: KEY_ENV, required: true },
    unit: "assets",
    // Listings carry the creator only: no licence, date or download count ("popular" is the site's own order).
    filtering: { upstream: ["license", "newest", "popular"], listed: ["author"] },
  },
  { mode: "live", searchUrl, search, getAsset, census },
);
