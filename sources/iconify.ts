/**
 * Iconify (https://iconify.design): 200+ open-source icon sets (Material Design Icons, Game Icons, Pixelarticons …) as SVG from
 * a public API. Indexed: `/collections` lists every set (hidden, deprecated ones left out). Each SET is one `ui` asset (a pack)
 * with its own licence; its files: the set's IconifyJSON (npm `@iconify-json/<prefix>` on jsDelivr) and an SVG per visible icon.
 */
import { z } from "zod";
import { licenseFromSpdx } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, assetMaker, compact, type License } from "./kit/asset.ts";
import { countBy, highest, sum } from "./kit/census.ts";
import { type CensusBody, defineSource, type SourceQuery } from "./kit/define.ts";
import { type SourceIo, shapeError, unlessGone } from "./kit/fetch.ts";
import { isHttpUrl, withWords } from "./kit/url.ts";

const ID = "iconify";
const SITE = "https://icon-sets.iconify.design";
const API = "https://api.iconify.design";
const asset = assetMaker(ID);

const [str, strs, flag] = [z.string().optional(), z.array(z.string()).optional(), z.boolean().optional()];
const Info = z
  .looseObject({ name: z.string().min(1), total: z.number().optional(), version: str, category: str, tags: strs, samples: strs, palette: flag, hidden: flag })
  .extend({ author: z.looseObject({ name: z.string(), url: str }).optional(), license: z.looseObject({ title: z.string(), spdx: str, url: str }).optional() })
  .extend({ height: z.union([z.number(), z.array(z.number())]).optional() });
type Info = z.infer<typeof Info>;
const IconSet = z.looseObject({ prefix: z.string(), icons: z.record(z.string(), z.looseObject({ body: z.string(), hidden: z.boolean().optional() })) });

const searchUrl = ({ q }: SourceQuery) => withWords(`${SITE}/`, "query", q);
const pageUrl = (prefix: string) => `${SITE}/${encodeURIComponent(prefix)}/`;
const svgUrl = (prefix: string, name: string) => `${API}/${encodeURIComponent(prefix)}/${encodeURIComponent(name)}.svg`;
export const setJsonUrl = (prefix: string) => `https://cdn.jsdelivr.net/npm/@iconify-json/${encodeURIComponent(prefix)}/icons.json`;
const licenseOf = ({ license: l }: Info): License | undefined =>
  l && (l.spdx ? licenseFromSpdx(l.spdx, l.title, l.url) : compact({ name: l.title, url: isHttpUrl(l.url) ? l.url : undefined }));

function toAsset(prefix: string, info: Info): Asset {
  const height = Array.isArray(info.height) ? info.height.join("/") : info.height;
  return asset(prefix, {
    title: info.name,
    description:
      `${Math.round(info.total ?? 0)} ${info.palette ? "multicolour" : "monochrome"} SVG icons${height ? ` on a ${height}px grid` : ""}` +
      `${info.category ? ` (${info.category})` : ""}${info.version ? `, version ${info.version}` : ""}. Icon set prefix: ${prefix}.`,
    type: "ui",
    tags: [...new Set(["icons", prefix, ...(info.tags ?? []), ...(info.samples ?? [])])],
    categories: info.category ? [info.category] : [],
    url: pageUrl(prefix),
    thumbnailUrl: info.samples?.[0] && svgUrl(prefix, info.samples[0]),
    author: info.author?.name,
    license: licenseOf(info),
    price: { free: true },
    formats: ["svg", "json"],
    downloadable: true,
  });
}

/** Every visible icon set, in the API's order; a set of another shape fails the list (the API changed). */
async function collections(io: SourceIo): Promise<Array<[string, Info]>> {
  const url = `${API}/collections`;
  const sets = Object.entries(await io.get(url, z.record(z.string(), Info))).filter(([, info]) => !info.hidden);
  if (!sets.length) throw shapeError(ID, url, `${url} lists no icon sets`);
  return sets;
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(nativeId)) return null;
  const info = (await collections(io)).find(([prefix]) => prefix === nativeId)?.[1];
  const url = setJsonUrl(nativeId);
  const set = info && (await unlessGone(io.get(url, IconSet)));
  if (!info || !set) return null;
  if (set.prefix !== nativeId) throw shapeError(ID, url, `${url} is not the IconifyJSON of '${nativeId}'`);
  const names = Object.entries(set.icons).flatMap(([name, icon]) => (icon.hidden ? [] : [name]));
  const files: AssetFile[] = [
    { url, filename: `${nativeId}.json`, format: "json", group: "iconify-json" },
    ...names.map((name) => ({ url: svgUrl(nativeId, name), filename: `${name}.svg`, format: "svg", group: "svg" })),
  ];
  return { ...toAsset(nativeId, info), files };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const sets = await collections(io);
  const [bigPrefix, big] = highest(sets, ([, info]) => info.total ?? 0)!; // collections() has at least one set
  return {
    total: sets.length,
    free: sets.length,
    byLicense: countBy(sets, ([, info]) => licenseOf(info)?.spdx ?? licenseOf(info)?.name ?? "unknown"),
    categories: countBy(sets, ([, info]) => info.category ?? "Uncategorised"),
    highlights: [
      { label: "Icons in all sets", title: "Every icon of the listed sets", url: SITE, value: sum(sets, ([, info]) => Math.round(info.total ?? 0)) },
      { label: "Largest icon set", title: big.name, url: pageUrl(bigPrefix), value: Math.round(big.total ?? 0) },
    ],
    method: "Iconify API /collections: every visible icon set counted as one pack (hidden, deprecated sets left out); icons summed from each set's total",
  };
}

export const iconify = defineSource(
  {
    id: ID,
    name: "Iconify",
    homepage: SITE,
    description: "Best for UI and game icons: 200+ open-source icon sets (Material, Game Icons, pixel-art …) as SVG, each with its own licence.",
    assetTypes: ["ui"],
    access: "api",
    pricing: "free",
    supportsDownload: true,
    unit: "packs",
  },
  { mode: "indexed", searchUrl, crawl: async (io) => (await collections(io)).map(([prefix, info]) => toAsset(prefix, info)), getAsset, census },
);
