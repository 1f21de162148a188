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
import { licenseById } from "../core/model/license.ts";
import { mapRole } from "../core/model/selection.ts";
import { type Asset, type AssetDetails, type AssetFile, type AssetType, assetMaker, compact, round, uniqueWords } from "./kit/asset.ts";
import { addedLast30Days, countBy, highest, latest, sum } from "./kit/census.ts";
import { type CensusBody, defineSource, type SourceQuery } from "./kit/define.ts";
import { type SourceIo, shapeError, unlessAnyGone } from "./kit/fetch.ts";
import { extensionOf, fileNameOf } from "./kit/files.ts";
import { sole } from "./kit/filters.ts";
import { withWords } from "./kit/url.ts";

const API = "https://api.polyhaven.com";
const SITE = "https://polyhaven.com";
const ID = "polyhaven";
const asset = assetMaker(ID);

/** Poly Haven's numeric asset types, its `/assets?type=` names (also its site paths), our types and the formats offered (the site's download menus). */
const KINDS = [
  { code: 0, query: "hdris", type: "hdri", label: "HDRI", formats: ["hdr", "exr"] },
  { code: 1, query: "textures", type: "texture", label: "texture", formats: ["jpg", "png", "exr", "blend", "gltf", "mtlx"] },
  { code: 2, query: "models", type: "model", label: "model", formats: ["gltf", "blend", "fbx", "usd"] },
] as const satisfies ReadonlyArray<{ code: number; query: string; type: AssetType; label: string; formats: readonly string[] }>;
type Kind = (typeof KINDS)[number];

/** Top-level keys of `/files` that are packages or single files rather than texture maps. */
const PACKAGES = new Set(["gltf", "glb", "blend", "fbx", "usd", "mtlx", "obj", "hdri", "backplates", "tonemapped", "colorchart"]);

/** Leaf keys of `/files` that name a format; other leaves (e.g. backplate variants) take the URL's extension. */
const FORMAT_KEYS = new Set(["jpg", "png", "exr", "hdr", "tif", "gltf", "glb", "blend", "fbx", "usd", "mtlx", "obj", "zip"]);

const [str, num, strs, record] = [z.string().optional(), z.number().optional(), z.array(z.string()).optional(), z.record(z.string(), z.unknown()).optional()];
/** The fields of an asset we read; everything else is ignored. */
const AssetInfo = z
  .looseObject({ name: z.string(), type: z.number(), date_published: num, download_count: num, description: str, tags: strs, categories: strs, category: str })
  .extend({ attributes: record, authors: record, max_resolution: z.array(z.number()).optional(), polycount: num, thumbnail_url: str });
type AssetInfo = z.infer<typeof AssetInfo>;

type FileLeaf = { url: string; size?: number; include?: Record<string, { url: string; size?: number }> };

const assetsUrl = (kind: Kind) => `${API}/assets?type=${kind.query}`;
const pageUrl = (slug: string) => `${SITE}/a/${encodeURIComponent(slug)}`;

/** `1k` up to the largest power of two not above the longest side, in thousands: 8192 → 1k…8k, 16384×8192 → 1k…16k. */
export function resolutionsFor(maxResolution: number[] | undefined): string[] | undefined {
  const maxK = Math.round(Math.max(0, ...(maxResolution ?? [])) / 1024);
  return maxK < 1 ? undefined : Array.from({ length: Math.floor(Math.log2(maxK)) + 1 }, (_, i) => `${2 ** i}k`);
}

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
  return asset(slug, {
    title: info.name,
    description: info.description,
    type: kind.type,
    tags: uniqueWords([...(info.tags ?? []), ...attributeTags(info.attributes)]),
    // The category path's levels ("Chairs" under "Furniture/Seating") beside the flat categories.
    categories: uniqueWords([...(info.categories ?? []), ...(info.category ?? "").split("/").flatMap((c) => c.trim() || [])]),
    url: pageUrl(slug),
    thumbnailUrl: info.thumbnail_url,
    author: Object.keys(info.authors ?? {}).join(", "),
    license: licenseById("CC0-1.0"),
    price: { free: true },
    formats: [...kind.formats],
    resolutions: resolutionsFor(info.max_resolution),
    polyCount: round(info.polycount),
    downloadable: true,
    createdAt: info.date_published ? new Date(info.date_published * 1000).toISOString() : undefined,
    downloads: round(info.download_count),
  });
}

/** Every entry of one `/assets?type=` listing whose numeric type is the asked one (the API may answer with more). */
async function list(kind: Kind, io: SourceIo): Promise<Array<[string, AssetInfo]>> {
  const body = await io.get(assetsUrl(kind), z.record(z.string(), z.unknown()));
  return Object.entries(body).flatMap(([slug, raw]): Array<[string, AssetInfo]> => {
    const info = AssetInfo.safeParse(raw).data;
    return info?.type === kind.code ? [[slug, info]] : [];
  });
}

/** The three listings (HDRIs, textures, models), asked concurrently. */
const listAll = (io: SourceIo) => Promise.all(KINDS.map(async (kind) => ({ kind, entries: await list(kind, io) })));

const isLeaf = (node: unknown): node is FileLeaf => Boolean(node) && typeof node === "object" && typeof (node as FileLeaf).url === "string";

/** Flattens the `/files` tree (or its branch at `path`) into AssetFiles: texture maps (group `textures`) and packages (group = key). */
export function filesOf(tree: unknown, path: string[] = []): AssetFile[] {
  if (isLeaf(tree)) return [toFile(tree, path)];
  if (!tree || typeof tree !== "object") return [];
  return Object.entries(tree).flatMap(([key, child]) => filesOf(child, [...path, key]));
}

function toFile(leaf: FileLeaf, path: string[]): AssetFile {
  const top = path[0] ?? "";
  const leafKey = (path[path.length - 1] ?? "").toLowerCase();
  const resolution = path.find((p) => /^\d+k$/i.test(p))?.toLowerCase();
  const format = path.length > 1 && FORMAT_KEYS.has(leafKey) ? leafKey : (extensionOf(fileNameOf(leaf.url)) ?? "bin");
  const sizeBytes = typeof leaf.size === "number" ? Math.round(leaf.size) : undefined;
  const base = { url: leaf.url, filename: fileNameOf(leaf.url), format, resolution };
  if (!PACKAGES.has(top.toLowerCase())) return compact({ ...base, mapType: mapRole(top), sizeBytes, group: "textures" });
  const includes = Object.entries(leaf.include ?? {})
    .filter(([, inc]) => inc && typeof inc.url === "string")
    .map(([path, inc]) => compact({ path, url: inc.url, sizeBytes: typeof inc.size === "number" ? Math.round(inc.size) : undefined }));
  return compact({ ...base, sizeBytes, group: top.toLowerCase(), includes });
}

async function getAsset(slug: string, io: SourceIo): Promise<AssetDetails | null> {
  const id = encodeURIComponent(slug);
  const infoUrl = `${API}/info/${id}`;
  const answers = await unlessAnyGone(io.json(infoUrl), io.json(`${API}/files/${id}`));
  if (!answers) return null;
  const [infoBody, tree] = answers;
  const parsed = AssetInfo.safeParse(infoBody);
  if (!parsed.success) {
    // Defensive: an error object answered with 200 is an unknown asset, anything else a broken answer.
    if (infoBody && typeof infoBody === "object" && "error" in infoBody) return null;
    throw shapeError(ID, infoUrl, `/info/${slug} has an unexpected shape`);
  }
  const kind = KINDS.find((k) => k.code === parsed.data.type);
  if (!kind) return null;
  return { ...toAsset(slug, parsed.data, kind), files: filesOf(tree) };
}

async function crawl(io: SourceIo): Promise<Asset[]> {
  const lists = await listAll(io);
  return lists.flatMap(({ kind, entries }) => entries.map(([slug, info]) => toAsset(slug, info, kind)));
}

async function census(io: SourceIo): Promise<CensusBody> {
  const lists = await listAll(io);
  const now = io.now();
  const all = lists.flatMap(({ entries }) => entries);
  const published = ([, info]: [string, AssetInfo]) => (info.date_published ?? 0) * 1000;
  const downloads = ([, info]: [string, AssetInfo]) => info.download_count ?? 0;
  const highlights: NonNullable<CensusBody["highlights"]> = lists.flatMap(({ kind, entries }) => {
    const top = highest(entries, downloads);
    return top ? [{ label: `Most downloaded ${kind.label}`, title: top[1].name, url: pageUrl(top[0]), value: Math.round(downloads(top)) }] : [];
  });
  const newest = latest(all, published, now);
  if (newest) highlights.push({ label: "Newest asset", title: newest[1].name, url: pageUrl(newest[0]) });
  return {
    total: all.length,
    free: all.length,
    byType: Object.fromEntries(lists.map(({ kind, entries }) => [kind.type, entries.length])),
    categories: countBy(all, ([, info]) => info.categories),
    addedLast30Days: addedLast30Days(now, all.map(published)),
    downloads: Math.round(sum(all, downloads)),
    highlights,
    method: "Poly Haven public API: /assets per type, every asset counted",
  };
}

/** The site's own search: `/all?s=…`, or `/hdris`, `/textures`, `/models` when exactly one of them is asked (materials are textures). */
function searchUrl(query: SourceQuery): string {
  const paths = query.types.flatMap((t) => KINDS.find((k) => k.type === (t === "material" ? "texture" : t))?.query ?? []);
  return withWords(`${SITE}/${sole(paths) ?? "all"}`, "s", query.q);
}

export const polyhaven = defineSource(
  {
    id: ID,
    name: "Poly Haven",
    homepage: SITE,
    description: "CC0 HDRIs, PBR textures and 3D models with a public API and direct file links.",
    assetTypes: ["model", "texture", "hdri"],
    access: "api",
    pricing: "free",
    license: licenseById("CC0-1.0"),
    supportsDownload: true,
    unit: "assets",
  },
  { mode: "indexed", searchUrl, crawl, getAsset, census },
);
