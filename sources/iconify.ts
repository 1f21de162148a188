/**
 * Iconify (https://iconify.design): over 200 open-source icon sets (Material Design Icons, Game
 * Icons, Pixelarticons …) served by a public API (https://api.iconify.design) as SVG.
 * Indexed: `/collections` lists every icon set in one response. Each icon SET is one asset of type
 * `ui` (unit: packs), with its own licence (MIT, Apache-2.0, CC-BY-4.0, CC-BY-3.0 …); its files are
 * the whole set as one IconifyJSON file plus one SVG per icon (`https://api.iconify.design/<prefix>/<name>.svg`).
 *
 * Upstream shapes used here:
 * - `/collections` → `{ [prefix]: IconifyInfo }` with `name, total, version, author{name,url},
 *   license{title,spdx,url}, samples, height, category, tags, palette, hidden?` (the API leaves
 *   hidden, i.e. deprecated, sets out; they are skipped here too);
 * - the set's IconifyJSON, `https://cdn.jsdelivr.net/npm/@iconify-json/<prefix>/icons.json`
 *   (the per-set npm package built from the Iconify icon-set repository) →
 *   `{ prefix, info?, icons: { [name]: { body, hidden? } }, aliases?, width?, height? }`.
 */
import { licenseFromSpdx } from "../core/license.ts";
import { z } from "zod";
import type { Source, SourceContext, SourceQuery } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, License, SourceCensus } from "../core/schemas/index.ts";
import { UpstreamError } from "../core/http/types.ts";
import { unlessGone } from "./kit/fetch.ts";

const ID = "iconify";
const NAME = "Iconify";
const SITE = "https://icon-sets.iconify.design";
const API = "https://api.iconify.design";
const COLLECTIONS_URL = `${API}/collections`;
const PREFIX = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

const Info = z.looseObject({
  name: z.string().min(1),
  total: z.number().optional(),
  version: z.string().optional(),
  author: z.looseObject({ name: z.string(), url: z.string().optional() }).optional(),
  license: z.looseObject({ title: z.string(), spdx: z.string().optional(), url: z.string().optional() }).optional(),
  samples: z.array(z.string()).optional(),
  height: z.union([z.number(), z.array(z.number())]).optional(),
  category: z.string().optional(),
  tags: z.array(z.string()).optional(),
  palette: z.boolean().optional(),
  hidden: z.boolean().optional(),
});
type Info = z.infer<typeof Info>;

const IconSet = z.looseObject({
  prefix: z.string(),
  icons: z.record(z.string(), z.looseObject({ body: z.string(), hidden: z.boolean().optional() })),
});

const pageUrl = (prefix: string) => `${SITE}/${encodeURIComponent(prefix)}/`;
const svgUrl = (prefix: string, name: string) => `${API}/${encodeURIComponent(prefix)}/${encodeURIComponent(name)}.svg`;
/** The whole set as one IconifyJSON file (the per-set npm package, on jsDelivr). */
export const setJsonUrl = (prefix: string) => `https://cdn.jsdelivr.net/npm/@iconify-json/${encodeURIComponent(prefix)}/icons.json`;

function licenseOf(info: Info): License | undefined {
  const l = info.license;
  if (!l) return undefined;
  return l.spdx ? licenseFromSpdx(l.spdx, l.title, l.url) : { name: l.title, ...(l.url && /^https?:\/\//.test(l.url) ? { url: l.url } : {}) };
}

function toAsset(prefix: string, info: Info): Asset {
  const license = licenseOf(info);
  const height = Array.isArray(info.height) ? info.height.join("/") : info.height;
  const total = Math.round(info.total ?? 0);
  const description =
    `${total} ${info.palette ? "multicolour" : "monochrome"} SVG icons${height ? ` on a ${height}px grid` : ""}` +
    `${info.category ? ` (${info.category})` : ""}${info.version ? `, version ${info.version}` : ""}. Icon set prefix: ${prefix}.`;
  const sample = info.samples?.[0];
  return {
    id: `${ID}:${prefix}`,
    provider: ID,
    nativeId: prefix,
    title: info.name,
    description,
    type: "ui",
    tags: [...new Set(["icons", prefix, ...(info.tags ?? []), ...(info.samples ?? [])])],
    categories: info.category ? [info.category] : [],
    url: pageUrl(prefix),
    ...(sample ? { thumbnailUrl: svgUrl(prefix, sample) } : {}),
    ...(info.author?.name ? { author: info.author.name } : {}),
    ...(license ? { license } : {}),
    price: { free: true },
    formats: ["svg", "json"],
    downloadable: true,
  };
}

/** Every visible icon set, in the API's order. */
async function collections(ctx: SourceContext): Promise<Array<[string, Info]>> {
  const body = await ctx.http.getJson<unknown>(COLLECTIONS_URL, { signal: ctx.signal });
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new UpstreamError(`${ID}: ${COLLECTIONS_URL} did not answer a map of icon sets`, COLLECTIONS_URL, "parse");
  }
  const out: Array<[string, Info]> = [];
  for (const [prefix, raw] of Object.entries(body)) {
    const parsed = Info.safeParse(raw);
    if (!parsed.success) throw new UpstreamError(`${ID}: icon set '${prefix}' of ${COLLECTIONS_URL} has an unexpected shape`, COLLECTIONS_URL, "parse");
    if (!parsed.data.hidden) out.push([prefix, parsed.data]);
  }
  if (!out.length) throw new UpstreamError(`${ID}: ${COLLECTIONS_URL} lists no icon sets`, COLLECTIONS_URL, "parse");
  return out;
}

async function crawl(ctx: SourceContext): Promise<Asset[]> {
  return (await collections(ctx)).map(([prefix, info]) => toAsset(prefix, info));
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!PREFIX.test(nativeId)) return null;
  const info = (await collections(ctx)).find(([prefix]) => prefix === nativeId)?.[1];
  if (!info) return null;
  const url = setJsonUrl(nativeId);
  const body = await unlessGone(ctx.http.getJson(url, { signal: ctx.signal }));
  if (body === undefined) return null;
  const parsed = IconSet.safeParse(body);
  if (!parsed.success || parsed.data.prefix !== nativeId) {
    throw new UpstreamError(`${ID}: ${url} is not the IconifyJSON of '${nativeId}'`, url, "parse");
  }
  const names = Object.entries(parsed.data.icons).filter(([, icon]) => !icon.hidden).map(([name]) => name);
  const files: AssetFile[] = [
    { url, filename: `${nativeId}.json`, format: "json", group: "iconify-json" },
    ...names.map((name) => ({ url: svgUrl(nativeId, name), filename: `${name}.svg`, format: "svg", group: "svg" })),
  ];
  return { ...toAsset(nativeId, info), files };
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const sets = await collections(ctx);
  const byLicense: Record<string, number> = {};
  const categories: Record<string, number> = {};
  let icons = 0;
  for (const [, info] of sets) {
    const license = licenseOf(info);
    const key = license?.spdx ?? license?.name ?? "unknown";
    byLicense[key] = (byLicense[key] ?? 0) + 1;
    const category = info.category ?? "Uncategorised";
    categories[category] = (categories[category] ?? 0) + 1;
    icons += Math.round(info.total ?? 0);
  }
  const [bigPrefix, big] = [...sets].sort((a, b) => (b[1].total ?? 0) - (a[1].total ?? 0))[0]!;
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: sets.length,
    free: sets.length,
    byType: { ui: sets.length },
    byLicense,
    categories,
    unit: "packs",
    highlights: [
      { label: "Icons in all sets", title: "Every icon of the listed sets", url: SITE, value: icons },
      { label: "Largest icon set", title: big.name, url: pageUrl(bigPrefix), value: Math.round(big.total ?? 0) },
    ],
    method: "Iconify API /collections: every visible icon set counted as one pack (hidden, deprecated sets left out); icons summed from each set's total",
    countedAt: ctx.now().toISOString(),
  };
}

function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  return q ? `${SITE}/?query=${encodeURIComponent(q)}` : `${SITE}/`;
}

export const iconify: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for UI and game icons: 200+ open-source icon sets (Material, Game Icons, pixel-art …) as SVG, each with its own licence.",
  assetTypes: ["ui"],
  access: "api",
  pricing: "free",
  supportsDownload: true,
  mode: "indexed",
  unit: "packs",
  searchUrl,
  crawl,
  getAsset,
  census,
};
