/**
 * Fontsource (https://fontsource.org): open-source fonts (every Google Fonts family plus other open fonts) with a public
 * JSON API (https://api.fontsource.org). Indexed: `/v1/fonts` answers the whole catalogue at once, without file URLs;
 * `/v1/fonts/<id>` adds `variants[weight][style][subset].url.{woff2,woff,ttf}`, taken as answered (today on
 * `cdn.jsdelivr.net/fontsource/fonts/<id>@latest/`, at first `cdn.jsdelivr.net/npm/@fontsource/<id>/files/`), never guessed.
 */
import { z } from "zod";
import { licenseFromSpdx } from "../core/model/license.ts";
import { type Asset, type AssetDetails, type AssetFile, assetMaker, type License } from "./kit/asset.ts";
import { countBy, highest } from "./kit/census.ts";
import { type CensusBody, defineSource, type SourceQuery } from "./kit/define.ts";
import { type SourceIo, unlessGone } from "./kit/fetch.ts";
import { extensionOf } from "./kit/files.ts";
import { fontStyleTags } from "./kit/font-styles.ts";
import { isHttpUrl } from "./kit/url.ts";

const ID = "fontsource";
const SITE = "https://fontsource.org";
const API = "https://api.fontsource.org/v1/fonts";
const FORMATS = ["woff2", "woff", "ttf"];
const asset = assetMaker(ID);
const pageUrl = (id: string) => `${SITE}/fonts/${encodeURIComponent(id)}`;

const [str, strs] = [z.string().optional(), z.array(z.string()).default([])];
const FontMeta = z
  .looseObject({ id: z.string().min(1), family: z.string().min(1), subsets: strs, weights: z.array(z.number()).default([]), styles: strs })
  .extend({ lastModified: str, category: str, type: str });
type FontMeta = z.infer<typeof FontMeta>;
const Variant = z.looseObject({ url: z.record(z.string(), z.string()) });
const FontDetail = FontMeta.extend({ defSubset: z.string().optional(), variants: z.record(z.string(), z.record(z.string(), z.record(z.string(), Variant))) });

/** `license` is a string in the catalogue (`OFL-1.1`, `mit`) and may be an object (`{ id, url }`) in details. */
function licenseOf(raw: unknown): License | undefined {
  const o = (raw && typeof raw === "object" ? raw : { id: raw }) as Record<string, unknown>;
  const id = [o.id, o.type, o.spdx].find((v): v is string => typeof v === "string" && v.trim() !== "");
  return id ? licenseFromSpdx(id, undefined, typeof o.url === "string" ? o.url : undefined) : undefined;
}

function toAsset(font: FontMeta): Asset {
  const variable = font.variable === true;
  const tags = [font.category, ...fontStyleTags(font.family, font.category), font.type === "google" && "google-fonts", ...font.subsets, variable && "variable"];
  return asset(font.id, {
    title: font.family,
    description:
      `${font.family}: ${font.category ? `${font.category} font` : "font"}, weights ${font.weights.join(", ") || "—"}, ` +
      `${font.styles.join(" and ") || "normal"}${variable ? ", also as a variable font" : ""}; subsets ${font.subsets.join(", ") || "—"}.`,
    type: "font",
    tags: [...new Set(tags.filter((t): t is string => Boolean(t)))],
    categories: font.category ? [font.category] : [],
    url: pageUrl(font.id),
    license: licenseOf(font.license),
    price: { free: true },
    formats: [...FORMATS],
    downloadable: true,
  });
}

/** The whole catalogue; a font of another shape fails it (the API changed), none is left out silently. */
const catalogue = (io: SourceIo) => io.get(API, z.array(FontMeta));

/**
 * One file per variant and format, the default variant first (the default subset, weight 400 or
 * the closest, normal style), so "one file" picks the regular face. Extensions follow the URL.
 */
export function fontsourceFiles(detail: z.infer<typeof FontDetail>): AssetFile[] {
  const faces = Object.entries(detail.variants).flatMap(([weight, byStyle]) =>
    Object.entries(byStyle).flatMap(([style, bySubset]) => Object.entries(bySubset).map(([subset, { url }]) => ({ weight, style, subset, urls: url }))),
  );
  // A weight is at most 1000 from 400: the subset outweighs any weight, and the weight the style.
  const rank = (f: (typeof faces)[number]) =>
    (f.subset === (detail.defSubset ?? "latin") ? 0 : 1e4) + 2 * (Math.abs(Number(f.weight) - 400) || 0) + (f.style === "normal" ? 0 : 1);
  faces.sort((a, b) => rank(a) - rank(b));
  return faces.flatMap((face) =>
    // The known formats first, then any other the API names.
    [...new Set([...FORMATS, ...Object.keys(face.urls)])].flatMap((key) => {
      const url = face.urls[key];
      if (!isHttpUrl(url)) return [];
      const ext = extensionOf(new URL(url).pathname) ?? (key === "truetype" ? "ttf" : key);
      return [{ url, filename: `${detail.id}-${face.subset}-${face.weight}-${face.style}.${ext}`, format: ext, group: "font" }];
    }),
  );
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  if (!/^[a-z0-9][a-z0-9-]*$/i.test(nativeId)) return null;
  const font = await unlessGone(io.get(`${API}/${encodeURIComponent(nativeId)}`, FontDetail));
  if (!font) return null;
  const files = fontsourceFiles(font);
  return { ...toAsset(font), formats: files.length ? [...new Set(files.map((f) => f.format))] : [...FORMATS], files };
}

async function census(io: SourceIo): Promise<CensusBody> {
  const fonts = await catalogue(io);
  const faces = (f: FontMeta) => f.weights.length * f.styles.length;
  const [newest, widest] = [highest(fonts, (f) => Date.parse(f.lastModified ?? "") || 0), highest(fonts, faces)];
  return {
    total: fonts.length,
    free: fonts.length,
    byLicense: countBy(fonts, (f) => licenseOf(f.license)?.spdx ?? licenseOf(f.license)?.name ?? "unknown"),
    categories: countBy(fonts, (f) => f.category),
    highlights: [
      newest && { label: "Most recently updated font", title: newest.family, url: pageUrl(newest.id) },
      widest && { label: "Most weights and styles", title: widest.family, url: pageUrl(widest.id), value: faces(widest) },
      { label: "Variable fonts", title: "Fonts with a variable version", url: SITE, value: fonts.filter((f) => f.variable === true).length },
      { label: "Google Fonts families", title: "Families also on Google Fonts", url: SITE, value: fonts.filter((f) => f.type === "google").length },
    ].filter((h) => h !== undefined),
    method:
      "Fontsource API: /v1/fonts lists the whole catalogue in one response; every font family counted " +
      "(the API gives no publication dates, so no 30-day count)",
  };
}

const searchUrl = ({ q }: SourceQuery) => (q.trim() ? `${SITE}/?query=${encodeURIComponent(q.trim())}` : SITE);

export const fontsource = defineSource(
  {
    id: ID,
    name: "Fontsource",
    homepage: SITE,
    description: "Best for open-source web and game fonts: every Google Fonts family plus other open fonts, with direct WOFF2/WOFF/TTF files.",
    assetTypes: ["font"],
    access: "api",
    pricing: "free",
    supportsDownload: true,
    unit: "assets",
  },
  { mode: "indexed", searchUrl, crawl: async (io) => (await catalogue(io)).map(toAsset), getAsset, census },
);
