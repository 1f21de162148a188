/**
 * Google Fonts (https://fonts.google.com) through its Developer API, which needs a key. Indexed: one request answers every
 * family with direct TTF URLs per variant; details are the same list (cached by the client), so they cost no request. No
 * licence is claimed: the API gives none (a family is under OFL, Apache 2.0 or the Ubuntu Font Licence, as its page says).
 */
import { z } from "zod";
import { SourceError, toSourceError } from "../core/model/source-error.ts";
import { type Asset, type AssetDetails, type AssetFile, assetMaker } from "./kit/asset.ts";
import { countBy, highest, sum } from "./kit/census.ts";
import { type CensusBody, defineSource, type SourceQuery } from "./kit/define.ts";
import { requiredKey, type SourceIo } from "./kit/fetch.ts";
import { extensionOf } from "./kit/files.ts";
import { fontStyleTags } from "./kit/font-styles.ts";
import { isHttpUrl, slugify } from "./kit/url.ts";

const ID = "googlefonts";
const SITE = "https://fonts.google.com";
const API = "https://www.googleapis.com/webfonts/v1/webfonts";
const KEY_ENV = "GOOGLE_FONTS_API_KEY";
const asset = assetMaker(ID);

const [str, strs] = [z.string().optional(), z.array(z.string()).default([])];
const WebFont = z
  .looseObject({ family: z.string().min(1), variants: strs, subsets: strs, lastModified: str, category: str })
  .extend({ files: z.record(z.string(), z.string()).default({}) });
type WebFont = z.infer<typeof WebFont>;
/** `Press Start 2P` → `press-start-2p` (the nativeId). */
export const slugOf = slugify;
const searchUrl = ({ q }: SourceQuery) => (q.trim() ? `${SITE}/?query=${encodeURIComponent(q.trim())}` : SITE);
const pageUrl = (family: string) => `${SITE}/specimen/${family.trim().split(/\s+/).map(encodeURIComponent).join("+")}`;
/** gstatic answers https as well; the API still lists http URLs. */
const httpsUrl = (url: string) => url.replace(/^http:\/\/fonts\.gstatic\.com\//, "https://fonts.gstatic.com/");

/** Every family; the key is blanked out of any failure's message and URL (errors end up in published census data). */
async function list(io: SourceIo): Promise<WebFont[]> {
  const key = requiredKey(io, KEY_ENV, "the Google Fonts API needs a key");
  const hide = (s: string) => s.split(encodeURIComponent(key)).join("<key>");
  const { items } = await io.get(`${API}?key=${encodeURIComponent(key)}`, z.looseObject({ items: z.array(WebFont) })).catch((err: unknown) => {
    const { kind, message, url, status } = toSourceError(ID, err);
    throw new SourceError(ID, kind, hide(message.slice(ID.length + 2)), url && hide(url), { status });
  });
  return items;
}

function toAsset(font: WebFont): Asset {
  const styles = `${font.variants.length} style${font.variants.length === 1 ? "" : "s"} (${font.variants.join(", ")})`;
  return asset(slugOf(font.family), {
    title: font.family,
    description:
      `${font.family}: ${font.category ? `${font.category} font` : "font"}, ${styles}; subsets ${font.subsets.join(", ") || "—"}. ` +
      "Licence: see the family page (Google Fonts families are OFL-1.1, Apache-2.0 or UFL-1.0).",
    type: "font",
    tags: [...new Set([font.category, ...fontStyleTags(font.family, font.category), ...font.subsets].filter((t): t is string => Boolean(t)))],
    categories: font.category ? [font.category] : [],
    url: pageUrl(font.family),
    price: { free: true },
    formats: ["ttf"],
    downloadable: Object.keys(font.files).length > 0,
  });
}

/** One TTF per variant, `regular` first so "one file" picks the regular face: weights nearest 400 first, normal before italic. */
export function googleFontFiles(font: WebFont): AssetFile[] {
  // `regular` is 400 normal, `700italic` 700 italic.
  const order = (v: string) => Math.abs(Number(/^(\d+)?(regular|italic)?$/.exec(v)?.[1] ?? 400) - 400) * 2 + (v.endsWith("italic") ? 1 : 0);
  const ext = (url: string) => extensionOf(new URL(url).pathname) ?? "ttf";
  return Object.entries(font.files)
    .filter(([, url]) => isHttpUrl(url))
    .sort(([a], [b]) => order(a) - order(b))
    .map(([variant, url]) => ({ url: httpsUrl(url), filename: `${slugOf(font.family)}-${variant}.${ext(url)}`, format: ext(url), group: "font" }));
}

async function getAsset(nativeId: string, io: SourceIo): Promise<AssetDetails | null> {
  const font = (await list(io)).find((f) => slugOf(f.family) === nativeId);
  return font ? { ...toAsset(font), files: googleFontFiles(font) } : null;
}

async function census(io: SourceIo): Promise<CensusBody> {
  const fonts = await list(io);
  const [newest, widest] = [highest(fonts, (f) => Date.parse(f.lastModified ?? "") || 0), highest(fonts, (f) => f.variants.length)];
  return {
    total: fonts.length,
    free: fonts.length,
    categories: countBy(fonts, (f) => f.category),
    highlights: [
      newest && { label: "Most recently updated family", title: newest.family, url: pageUrl(newest.family) },
      widest && { label: "Most styles", title: widest.family, url: pageUrl(widest.family), value: widest.variants.length },
      { label: "Font files (one per style)", title: "TTF files listed by the API", url: SITE, value: sum(fonts, (f) => Object.keys(f.files).length) },
    ].filter((h) => h !== undefined),
    method:
      "Google Fonts Developer API: one /webfonts/v1/webfonts list, every family counted; " +
      "the API gives neither licences nor dates added, so no licence breakdown or 30-day count",
  };
}

export const googlefonts = defineSource(
  {
    id: ID,
    name: "Google Fonts",
    homepage: SITE,
    description: "Best for the Google Fonts library: every family with direct TTF files per style (licence stated on each family's page).",
    assetTypes: ["font"],
    access: "api",
    pricing: "free",
    supportsDownload: true,
    key: { env: KEY_ENV, required: true },
    unit: "assets",
  },
  { mode: "indexed", searchUrl, crawl: async (io) => (await list(io)).map(toAsset), getAsset, census },
);
