/**
 * Google Fonts (https://fonts.google.com) through the Google Fonts Developer API
 * (https://www.googleapis.com/webfonts/v1/webfonts?key=<key>), which needs an API key.
 * Indexed: one request answers every family, with direct TTF URLs per variant (`files`).
 *
 * Licences: the API gives none. Google Fonts families are under the SIL Open Font License, the
 * Apache License 2.0 or the Ubuntu Font Licence, stated on each family's page; the API does not say
 * which, so no licence is claimed here (the description points at the family page).
 *
 * Upstream shape: `{ kind: "webfonts#webfontList", items: [{ family, variants, subsets, version,
 * lastModified, files: { [variant]: url }, category, kind, menu? }] }`.
 * Details are the same list (cached by the client), so `getAsset` costs no extra request.
 */
import { z } from "zod";
import type { Source, SourceContext, SourceQuery } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, SourceCensus } from "../core/schemas/index.ts";
import { UpstreamError } from "../core/http/types.ts";
import { fontStyleTags } from "./kit/font-styles.ts";

const ID = "googlefonts";
const NAME = "Google Fonts";
const SITE = "https://fonts.google.com";
const API = "https://www.googleapis.com/webfonts/v1/webfonts";
const KEY_ENV = "GOOGLE_FONTS_API_KEY";

const WebFont = z.looseObject({
  family: z.string().min(1),
  variants: z.array(z.string()).default([]),
  subsets: z.array(z.string()).default([]),
  version: z.string().optional(),
  lastModified: z.string().optional(),
  files: z.record(z.string(), z.string()).default({}),
  category: z.string().optional(),
});
type WebFont = z.infer<typeof WebFont>;
const WebFontList = z.looseObject({ items: z.array(z.unknown()) });

/** `Press Start 2P` → `press-start-2p` (the nativeId). */
export const slugOf = (family: string) =>
  family.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");

const pageUrl = (family: string) => `${SITE}/specimen/${family.trim().split(/\s+/).map(encodeURIComponent).join("+")}`;

/** gstatic answers https as well; the API still lists http URLs. */
const httpsUrl = (url: string) => url.replace(/^http:\/\/fonts\.gstatic\.com\//, "https://fonts.gstatic.com/");

function keyOf(ctx: SourceContext): string {
  const key = ctx.config.keys[KEY_ENV];
  if (!key) throw new Error(`${ID}: ${KEY_ENV} is not set (the Google Fonts API needs a key)`);
  return key;
}

/** The same error with the key blanked out of its URL and message (errors end up in published census data). */
function redacted(err: unknown, key: string): unknown {
  if (!(err instanceof UpstreamError)) return err;
  const hide = (s: string) => s.split(key).join("<key>");
  return new UpstreamError(hide(err.message), hide(err.url), err.kind, err.status, err.retryAfterSeconds, err.code);
}

async function list(ctx: SourceContext): Promise<WebFont[]> {
  const key = keyOf(ctx);
  const url = `${API}?key=${encodeURIComponent(key)}`;
  let body: unknown;
  try {
    body = await ctx.http.getJson(url, { signal: ctx.signal });
  } catch (err) {
    throw redacted(err, encodeURIComponent(key));
  }
  const parsed = WebFontList.safeParse(body);
  if (!parsed.success) throw new UpstreamError(`${ID}: the webfonts list has no items array`, `${API}?key=<key>`, "parse");
  return parsed.data.items.map((raw, i) => {
    const font = WebFont.safeParse(raw);
    if (!font.success) throw new UpstreamError(`${ID}: item #${i} of the webfonts list has an unexpected shape`, `${API}?key=<key>`, "parse");
    return font.data;
  });
}

/** `regular` → 400 normal, `700italic` → 700 italic. */
function variantParts(variant: string): { weight: number; style: string } {
  const m = /^(\d+)?(regular|italic)?$/.exec(variant);
  const weight = m?.[1] ? Number(m[1]) : 400;
  return { weight, style: variant.endsWith("italic") ? "italic" : "normal" };
}

function toAsset(font: WebFont): Asset {
  const slug = slugOf(font.family);
  const description =
    `${font.family}: ${font.category ? `${font.category} font` : "font"}, ${font.variants.length} style${font.variants.length === 1 ? "" : "s"} (${font.variants.join(", ")}); ` +
    `subsets ${font.subsets.join(", ") || "—"}. Licence: see the family page (Google Fonts families are OFL-1.1, Apache-2.0 or UFL-1.0).`;
  return {
    id: `${ID}:${slug}`,
    provider: ID,
    nativeId: slug,
    title: font.family,
    description,
    type: "font",
    tags: [...new Set([font.category, ...fontStyleTags(font.family, font.category), ...font.subsets].filter((t): t is string => Boolean(t)))],
    categories: font.category ? [font.category] : [],
    url: pageUrl(font.family),
    price: { free: true },
    formats: ["ttf"],
    downloadable: Object.keys(font.files).length > 0,
  };
}

/** One TTF per variant, `regular` first so "one file" picks the regular face. */
export function googleFontFiles(font: WebFont): AssetFile[] {
  const slug = slugOf(font.family);
  const order = (v: string) => {
    const { weight, style } = variantParts(v);
    return Math.abs(weight - 400) * 2 + (style === "italic" ? 1 : 0);
  };
  return Object.entries(font.files)
    .filter(([, url]) => /^https?:\/\//.test(url))
    .sort(([a], [b]) => order(a) - order(b))
    .map(([variant, url]) => {
      const ext = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? "ttf";
      return { url: httpsUrl(url), filename: `${slug}-${variant}.${ext}`, format: ext, group: "font" };
    });
}

async function crawl(ctx: SourceContext): Promise<Asset[]> {
  return (await list(ctx)).map(toAsset);
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  const font = (await list(ctx)).find((f) => slugOf(f.family) === nativeId);
  if (!font) return null;
  return { ...toAsset(font), files: googleFontFiles(font) };
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const fonts = await list(ctx);
  const categories: Record<string, number> = {};
  for (const font of fonts) if (font.category) categories[font.category] = (categories[font.category] ?? 0) + 1;
  const highlights: NonNullable<SourceCensus["highlights"]> = [];
  const newest = [...fonts].sort((a, b) => (b.lastModified ?? "").localeCompare(a.lastModified ?? ""))[0];
  if (newest) highlights.push({ label: "Most recently updated family", title: newest.family, url: pageUrl(newest.family) });
  const widest = [...fonts].sort((a, b) => b.variants.length - a.variants.length)[0];
  if (widest) highlights.push({ label: "Most styles", title: widest.family, url: pageUrl(widest.family), value: widest.variants.length });
  const styles = fonts.reduce((n, f) => n + Object.keys(f.files).length, 0);
  highlights.push({ label: "Font files (one per style)", title: "TTF files listed by the API", url: SITE, value: styles });
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: fonts.length,
    free: fonts.length,
    byType: { font: fonts.length },
    categories,
    unit: "assets",
    highlights,
    method:
      "Google Fonts Developer API: one /webfonts/v1/webfonts list, every family counted; the API gives neither licences nor dates added, so no licence breakdown or 30-day count",
    countedAt: ctx.now().toISOString(),
  };
}

function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  return q ? `${SITE}/?query=${encodeURIComponent(q)}` : SITE;
}

export const googlefonts: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for the Google Fonts library: every family with direct TTF files per style (licence stated on each family's page).",
  assetTypes: ["font"],
  access: "api",
  pricing: "free",
  supportsDownload: true,
  mode: "indexed",
  key: { env: KEY_ENV, required: true },
  unit: "assets",
  searchUrl,
  crawl,
  getAsset,
  census,
};
