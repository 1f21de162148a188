/**
 * Poly Haven (https://polyhaven.com): CC0 HDRIs, PBR textures and 3D models, with a public JSON API
 * (https://api.polyhaven.com) and direct file links. Indexed: the whole catalogue is three requests.
 *
 * Upstream shapes used here:
 * - `/assets?type=hdris|textures|models` → `{ [slug]: AssetInfo }`; newer answers add a `category`
 *   path ("Furniture/Seating/Chairs") and `attributes` (`condition: ["worn"]`, `material: [...]`,
 *   `weather: "clear"`, `aerial: true` …)
 * - `/info/<slug>` → `AssetInfo` (no slug inside)
 * - `/files/<slug>` → a tree whose leaves are `{ url, size, md5, include? }`, keyed by
 *   map name or package (`Diffuse`, `nor_gl`, `gltf`, `hdri` …), then resolution (`2k`), then format.
 *   A package's `include` maps relative paths (`textures/x_2k.jpg`, `x.bin`) to more leaves.
 */
import { z } from "zod";
import type { Source, SourceContext, SourceQuery } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, AssetType, SourceCensus } from "../core/schemas/index.ts";
import { licenseById } from "../core/license.ts";
import { UpstreamError } from "../core/http/types.ts";
import { mapRole } from "../core/selection.ts";
import { isGone } from "./internal/fetch.ts";

const API = "https://api.polyhaven.com";
const SITE = "https://polyhaven.com";
const ID = "polyhaven";
const NAME = "Poly Haven";
const DAY_MS = 86_400_000;

/** Poly Haven's numeric asset types, its `/assets?type=` names, its site paths and our types. */
const KINDS = [
  { code: 0, query: "hdris", type: "hdri", label: "HDRI" },
  { code: 1, query: "textures", type: "texture", label: "texture" },
  { code: 2, query: "models", type: "model", label: "model" },
] as const satisfies ReadonlyArray<{ code: number; query: string; type: AssetType; label: string }>;
type Kind = (typeof KINDS)[number];

/** Formats offered per type (the site's download menus). */
const FORMATS: Record<Kind["type"], string[]> = {
  model: ["gltf", "blend", "fbx", "usd"],
  texture: ["jpg", "png", "exr", "blend", "gltf", "mtlx"],
  hdri: ["hdr", "exr"],
};

/** Top-level keys of `/files` that are packages or single files rather than texture maps. */
const PACKAGES = new Set(["gltf", "glb", "blend", "fbx", "usd", "mtlx", "obj", "hdri", "backplates", "tonemapped", "colorchart"]);

/** Leaf keys of `/files` that name a format; other leaves (e.g. backplate variants) take the URL's extension. */
const FORMAT_KEYS = new Set(["jpg", "png", "exr", "hdr", "tif", "gltf", "glb", "blend", "fbx", "usd", "mtlx", "obj", "zip"]);

/** The fields of an asset we read; everything else is ignored. */
const AssetInfo = z.looseObject({
  name: z.string(),
  type: z.number(),
  date_published: z.number().optional(),
  download_count: z.number().optional(),
  description: z.string().optional(),
  tags: z.array(z.string()).optional(),
  categories: z.array(z.string()).optional(),
  category: z.string().optional(),
  attributes: z.record(z.string(), z.unknown()).optional(),
  authors: z.record(z.string(), z.unknown()).optional(),
  max_resolution: z.array(z.number()).optional(),
  polycount: z.number().optional(),
  thumbnail_url: z.string().optional(),
});
type AssetInfo = z.infer<typeof AssetInfo>;

interface FileLeaf {
  url: string;
  size?: number;
  include?: Record<string, { url: string; size?: number }>;
}

const assetsUrl = (kind: Kind) => `${API}/assets?type=${kind.query}`;
const pageUrl = (slug: string) => `${SITE}/a/${encodeURIComponent(slug)}`;

/** `1k` up to the largest power of two not above the longest side, in thousands: 8192 → 1k…8k, 16384×8192 → 1k…16k. */
export function resolutionsFor(maxResolution: number[] | undefined): string[] | undefined {
  const longest = Math.max(0, ...(maxResolution ?? []));
  const maxK = Math.round(longest / 1024);
  if (maxK < 1) return undefined;
  const out: string[] = [];
  for (let k = 1; k <= maxK; k *= 2) out.push(`${k}k`);
  return out;
}

/** Words in order, each once whatever its case (the first spelling kept). */
const unique = (words: string[]) => words.filter((w, i) => words.findIndex((x) => x.toLowerCase() === w.toLowerCase()) === i);

/**
 * Tags from `attributes`: the values of its lists (condition, material) and the names of its flags
 * set to true (aerial, backplates). Its single values grade what the categories mostly say already
 * (contrast "medium" beside the category "medium contrast", origin "natural" beside "natural") and
 * are left out: alone, words such as "medium" or "open" would match unrelated searches.
 */
function attributeTags(attributes: Record<string, unknown> = {}): string[] {
  return Object.entries(attributes).flatMap(([key, value]) =>
    Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : value === true ? [key.replace(/_/g, " ")] : [],
  );
}

/** One `/assets` or `/info` entry as an Asset. */
function toAsset(slug: string, info: AssetInfo, kind: Kind): Asset {
  const authors = Object.keys(info.authors ?? {});
  const resolutions = resolutionsFor(info.max_resolution);
  return {
    id: `${ID}:${slug}`,
    provider: ID,
    nativeId: slug,
    title: info.name,
    ...(info.description ? { description: info.description } : {}),
    type: kind.type,
    tags: unique([...(info.tags ?? []), ...attributeTags(info.attributes)]),
    // The category path's levels ("Chairs" under "Furniture/Seating") beside the flat categories.
    categories: unique([...(info.categories ?? []), ...(info.category?.split("/").map((c) => c.trim()).filter(Boolean) ?? [])]),
    url: pageUrl(slug),
    ...(info.thumbnail_url ? { thumbnailUrl: info.thumbnail_url } : {}),
    ...(authors.length ? { author: authors.join(", ") } : {}),
    license: licenseById("CC0-1.0"),
    price: { free: true },
    formats: [...FORMATS[kind.type]],
    ...(resolutions ? { resolutions } : {}),
    ...(typeof info.polycount === "number" ? { polyCount: Math.round(info.polycount) } : {}),
    downloadable: true,
    ...(info.date_published ? { createdAt: new Date(info.date_published * 1000).toISOString() } : {}),
  };
}

/** Every entry of one `/assets?type=` listing whose numeric type is the asked one (the API may answer with more). */
async function list(kind: Kind, ctx: SourceContext): Promise<Array<[string, AssetInfo]>> {
  const body = await ctx.http.getJson<Record<string, unknown>>(assetsUrl(kind), { signal: ctx.signal });
  if (!body || typeof body !== "object") {
    throw new UpstreamError("Poly Haven /assets did not answer an object", assetsUrl(kind), "parse");
  }
  const out: Array<[string, AssetInfo]> = [];
  for (const [slug, raw] of Object.entries(body)) {
    const parsed = AssetInfo.safeParse(raw);
    if (parsed.success && parsed.data.type === kind.code) out.push([slug, parsed.data]);
  }
  return out;
}

/** The three listings (HDRIs, textures, models), asked concurrently. */
function listAll(ctx: SourceContext) {
  return Promise.all(KINDS.map(async (kind) => ({ kind, entries: await list(kind, ctx) })));
}

const isLeaf = (node: unknown): node is FileLeaf =>
  Boolean(node) && typeof node === "object" && typeof (node as FileLeaf).url === "string";

const lastSegment = (url: string) => decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");

const extension = (url: string) => /\.([a-z0-9]+)$/i.exec(lastSegment(url))?.[1]?.toLowerCase() ?? "bin";

/** Flattens the `/files` tree into AssetFiles: texture maps (group `textures`) and packages (group = key). */
export function filesOf(tree: unknown): AssetFile[] {
  const out: AssetFile[] = [];
  const walk = (node: unknown, path: string[]) => {
    if (isLeaf(node)) {
      out.push(toFile(node, path));
      return;
    }
    if (!node || typeof node !== "object") return;
    for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
  };
  walk(tree, []);
  return out;
}

function toFile(leaf: FileLeaf, path: string[]): AssetFile {
  const top = path[0] ?? "";
  const leafKey = (path[path.length - 1] ?? "").toLowerCase();
  const resolution = path.find((p) => /^\d+k$/i.test(p))?.toLowerCase();
  const format = path.length > 1 && FORMAT_KEYS.has(leafKey) ? leafKey : extension(leaf.url);
  const size = typeof leaf.size === "number" ? { sizeBytes: Math.round(leaf.size) } : {};
  const base = { url: leaf.url, filename: lastSegment(leaf.url), format, ...(resolution ? { resolution } : {}) };
  if (!PACKAGES.has(top.toLowerCase())) {
    return { ...base, mapType: mapRole(top), ...size, group: "textures" };
  }
  const includes = Object.entries(leaf.include ?? {})
    .filter(([, inc]) => inc && typeof inc.url === "string")
    .map(([p, inc]) => ({ path: p, url: inc.url, ...(typeof inc.size === "number" ? { sizeBytes: Math.round(inc.size) } : {}) }));
  return { ...base, ...size, group: top.toLowerCase(), ...(includes.length ? { includes } : {}) };
}

async function getAsset(slug: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const id = encodeURIComponent(slug);
  const infoUrl = `${API}/info/${id}`;
  // Both asked at once; settled together so a 404 on either means "unknown asset" whatever finishes first.
  const [info, tree] = await Promise.allSettled([
    ctx.http.getJson(infoUrl, { signal: ctx.signal }),
    ctx.http.getJson(`${API}/files/${id}`, { signal: ctx.signal }),
  ]);
  const failures = [info, tree].flatMap((r) => (r.status === "rejected" ? [r.reason as unknown] : []));
  if (failures.some(isGone)) return null;
  if (failures.length) throw failures[0];
  const infoBody = (info as PromiseFulfilledResult<unknown>).value;
  const parsed = AssetInfo.safeParse(infoBody);
  if (!parsed.success) {
    // Defensive: an error object answered with 200 is an unknown asset, anything else a broken answer.
    if (infoBody && typeof infoBody === "object" && "error" in infoBody) return null;
    throw new UpstreamError(`Poly Haven /info/${slug} has an unexpected shape`, infoUrl, "parse");
  }
  const kind = KINDS.find((k) => k.code === parsed.data.type);
  if (!kind) return null;
  return { ...toAsset(slug, parsed.data, kind), files: filesOf((tree as PromiseFulfilledResult<unknown>).value) };
}

async function crawl(ctx: SourceContext): Promise<Asset[]> {
  const lists = await listAll(ctx);
  return lists.flatMap(({ kind, entries }) => entries.map(([slug, info]) => toAsset(slug, info, kind)));
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const lists = await listAll(ctx);
  const now = ctx.now();
  const since = now.getTime() - 30 * DAY_MS;
  const byType: Record<string, number> = {};
  const categories: Record<string, number> = {};
  const highlights: NonNullable<SourceCensus["highlights"]> = [];
  let total = 0;
  let downloads = 0;
  let added = 0;
  let newest: { slug: string; info: AssetInfo } | undefined;

  for (const { kind, entries } of lists) {
    byType[kind.type] = entries.length;
    total += entries.length;
    let top: { slug: string; info: AssetInfo } | undefined;
    for (const [slug, info] of entries) {
      downloads += info.download_count ?? 0;
      for (const c of new Set(info.categories ?? [])) categories[c] = (categories[c] ?? 0) + 1;
      const published = (info.date_published ?? 0) * 1000;
      if (published > since && published <= now.getTime()) added++;
      if (!top || (info.download_count ?? 0) > (top.info.download_count ?? 0)) top = { slug, info };
      if (published <= now.getTime() && (!newest || (info.date_published ?? 0) > (newest.info.date_published ?? 0))) {
        newest = { slug, info };
      }
    }
    if (top) {
      highlights.push({
        label: `Most downloaded ${kind.label}`,
        title: top.info.name,
        url: pageUrl(top.slug),
        value: Math.round(top.info.download_count ?? 0),
      });
    }
  }
  if (newest) highlights.push({ label: "Newest asset", title: newest.info.name, url: pageUrl(newest.slug) });

  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total,
    free: total,
    byType,
    byLicense: { "CC0-1.0": total },
    categories,
    unit: "assets",
    addedLast30Days: added,
    downloads: Math.round(downloads),
    highlights,
    method: "Poly Haven public API: /assets per type, every asset counted",
    countedAt: now.toISOString(),
  };
}

/** The site's own search: `/all?s=…`, or `/hdris`, `/textures`, `/models` when exactly one of them is asked. */
function searchUrl(query: SourceQuery): string {
  const paths = new Set(
    query.types.flatMap((t) => (t === "hdri" ? ["hdris"] : t === "texture" || t === "material" ? ["textures"] : t === "model" ? ["models"] : [])),
  );
  const path = paths.size === 1 ? [...paths][0] : "all";
  const q = query.q.trim();
  return `${SITE}/${path}${q ? `?s=${encodeURIComponent(q)}` : ""}`;
}

export const polyhaven: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "CC0 HDRIs, PBR textures and 3D models with a public API and direct file links.",
  assetTypes: ["model", "texture", "hdri"],
  access: "api",
  pricing: "free",
  license: licenseById("CC0-1.0"),
  supportsDownload: true,
  mode: "indexed",
  unit: "assets",
  searchUrl,
  crawl,
  getAsset,
  census,
};
