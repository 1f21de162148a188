/**
 * Fontsource (https://fontsource.org): self-hostable open-source fonts (every Google Fonts family plus
 * other open fonts) with a public JSON API (https://api.fontsource.org) and font files on jsDelivr.
 * Indexed: `/v1/fonts` answers the whole catalogue in one response.
 *
 * Upstream shapes used here:
 * - `/v1/fonts` → `[{ id, family, subsets, weights, styles, defSubset, variable, lastModified,
 *   category, license, type }]` (no file URLs);
 * - `/v1/fonts/<id>` → the same fields plus `variants[weight][style][subset].url.{woff2,woff,ttf}`.
 *   Files are taken from those URLs as answered (the current API points at
 *   `cdn.jsdelivr.net/fontsource/fonts/<id>@latest/<subset>-<weight>-<style>.<ext>`; its first form
 *   pointed at `cdn.jsdelivr.net/npm/@fontsource/<id>/files/…`); nothing is guessed from the catalogue.
 *   The current form also carries `license` (a string or an object with an `id`), older answers none.
 */
import { licenseFromSpdx } from "../core/license.ts";
import { z } from "zod";
import type { Source, SourceContext, SourceQuery } from "../core/source.ts";
import type { Asset, AssetDetails, AssetFile, License, SourceCensus } from "../core/schemas/index.ts";
import { UpstreamError } from "../core/http/types.ts";
import { unlessGone } from "./kit/fetch.ts";
import { fontStyleTags } from "./kit/font-styles.ts";

const ID = "fontsource";
const NAME = "Fontsource";
const SITE = "https://fontsource.org";
const API = "https://api.fontsource.org/v1";
const CATALOGUE_URL = `${API}/fonts`;
const FORMATS = ["woff2", "woff", "ttf"] as const;

const FontMeta = z.looseObject({
  id: z.string().min(1),
  family: z.string().min(1),
  subsets: z.array(z.string()).default([]),
  weights: z.array(z.number()).default([]),
  styles: z.array(z.string()).default([]),
  defSubset: z.string().optional(),
  variable: z.unknown().optional(),
  lastModified: z.string().optional(),
  category: z.string().optional(),
  license: z.unknown().optional(),
  type: z.string().optional(),
});
type FontMeta = z.infer<typeof FontMeta>;

const UrlSet = z.looseObject({ url: z.record(z.string(), z.string()) });
const FontDetail = FontMeta.extend({
  variants: z.record(z.string(), z.record(z.string(), z.record(z.string(), UrlSet))),
});
type FontDetail = z.infer<typeof FontDetail>;

const pageUrl = (id: string) => `${SITE}/fonts/${encodeURIComponent(id)}`;

/** `license` is a string in the catalogue (`OFL-1.1`, `mit`) and may be an object (`{ id, url }`) in details. */
function licenseOf(raw: unknown): License | undefined {
  if (typeof raw === "string" && raw.trim()) return licenseFromSpdx(raw);
  if (raw && typeof raw === "object") {
    const o = raw as Record<string, unknown>;
    const id = [o.id, o.type, o.spdx].find((v): v is string => typeof v === "string" && v.trim() !== "");
    const url = typeof o.url === "string" ? o.url : undefined;
    if (id) return licenseFromSpdx(id, undefined, url);
  }
  return undefined;
}

function toAsset(font: FontMeta): Asset {
  const license = licenseOf(font.license);
  const styles = font.styles.join(" and ");
  const weights = font.weights.join(", ");
  const description =
    `${font.family}: ${font.category ? `${font.category} font` : "font"}, weights ${weights || "—"}, ${styles || "normal"}` +
    `${font.variable === true ? ", also as a variable font" : ""}; subsets ${font.subsets.join(", ") || "—"}.`;
  const tags = [
    ...new Set([
      font.category,
      ...fontStyleTags(font.family, font.category),
      font.type === "google" ? "google-fonts" : undefined,
      ...font.subsets,
      font.variable === true ? "variable" : undefined,
    ]),
  ].filter((t): t is string => Boolean(t));
  return {
    id: `${ID}:${font.id}`,
    provider: ID,
    nativeId: font.id,
    title: font.family,
    description,
    type: "font",
    tags,
    categories: font.category ? [font.category] : [],
    url: pageUrl(font.id),
    ...(license ? { license } : {}),
    price: { free: true },
    formats: [...FORMATS],
    downloadable: true,
  };
}

/** The whole catalogue; entries that do not parse are an error naming the source. */
async function catalogue(ctx: SourceContext): Promise<FontMeta[]> {
  const body = await ctx.http.getJson<unknown>(CATALOGUE_URL, { signal: ctx.signal });
  if (!Array.isArray(body)) throw new UpstreamError(`${ID}: ${CATALOGUE_URL} did not answer a list of fonts`, CATALOGUE_URL, "parse");
  return body.map((raw, i) => {
    const parsed = FontMeta.safeParse(raw);
    if (!parsed.success) throw new UpstreamError(`${ID}: font #${i} of ${CATALOGUE_URL} has an unexpected shape`, CATALOGUE_URL, "parse");
    return parsed.data;
  });
}

async function crawl(ctx: SourceContext): Promise<Asset[]> {
  return (await catalogue(ctx)).map(toAsset);
}

/**
 * One file per variant and format, the default variant first (the default subset, weight 400 or
 * the closest, normal style), so "one file" picks the regular face. Extensions follow the URL.
 */
export function fontsourceFiles(detail: FontDetail): AssetFile[] {
  type Face = { weight: string; style: string; subset: string; urls: Record<string, string> };
  const faces: Face[] = [];
  for (const [weight, byStyle] of Object.entries(detail.variants)) {
    for (const [style, bySubset] of Object.entries(byStyle)) {
      for (const [subset, entry] of Object.entries(bySubset)) faces.push({ weight, style, subset, urls: entry.url });
    }
  }
  const rank = (f: Face) => [
    f.subset === (detail.defSubset ?? "latin") ? 0 : 1,
    Math.abs(Number(f.weight) - 400) || 0,
    f.style === "normal" ? 0 : 1,
  ];
  faces.sort((a, b) => {
    const [ra, rb] = [rank(a), rank(b)];
    for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
    return 0;
  });
  const out: AssetFile[] = [];
  for (const face of faces) {
    const formats = [...FORMATS, ...Object.keys(face.urls).filter((k) => !(FORMATS as readonly string[]).includes(k))];
    for (const key of formats) {
      const url = face.urls[key];
      if (typeof url !== "string" || !/^https?:\/\//.test(url)) continue;
      const ext = /\.([a-z0-9]+)$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? (key === "truetype" ? "ttf" : key);
      out.push({
        url,
        filename: `${detail.id}-${face.subset}-${face.weight}-${face.style}.${ext}`,
        format: ext,
        group: "font",
      });
    }
  }
  return out;
}

async function getAsset(nativeId: string, ctx: SourceContext): Promise<AssetDetails | null> {
  if (!/^[a-z0-9][a-z0-9-]*$/i.test(nativeId)) return null;
  const url = `${API}/fonts/${encodeURIComponent(nativeId)}`;
  const body = await unlessGone(ctx.http.getJson(url, { signal: ctx.signal }));
  if (body === undefined) return null;
  const parsed = FontDetail.safeParse(body);
  if (!parsed.success) throw new UpstreamError(`${ID}: ${url} has an unexpected shape (no variants)`, url, "parse");
  const files = fontsourceFiles(parsed.data);
  const asset = toAsset(parsed.data);
  const formats = [...new Set(files.map((f) => f.format))];
  return { ...asset, formats: formats.length ? formats : asset.formats ?? [], files };
}

async function census(ctx: SourceContext): Promise<SourceCensus> {
  const fonts = await catalogue(ctx);
  const byLicense: Record<string, number> = {};
  const categories: Record<string, number> = {};
  for (const font of fonts) {
    const license = licenseOf(font.license);
    const key = license?.spdx ?? license?.name ?? "unknown";
    byLicense[key] = (byLicense[key] ?? 0) + 1;
    if (font.category) categories[font.category] = (categories[font.category] ?? 0) + 1;
  }
  const highlights: NonNullable<SourceCensus["highlights"]> = [];
  const newest = [...fonts].sort((a, b) => (b.lastModified ?? "").localeCompare(a.lastModified ?? ""))[0];
  if (newest) highlights.push({ label: "Most recently updated font", title: newest.family, url: pageUrl(newest.id) });
  const widest = [...fonts].sort((a, b) => b.weights.length * b.styles.length - a.weights.length * a.styles.length)[0];
  if (widest) {
    highlights.push({ label: "Most weights and styles", title: widest.family, url: pageUrl(widest.id), value: widest.weights.length * widest.styles.length });
  }
  const variable = fonts.filter((f) => f.variable === true).length;
  highlights.push({ label: "Variable fonts", title: "Fonts with a variable version", url: SITE, value: variable });
  const google = fonts.filter((f) => f.type === "google").length;
  highlights.push({ label: "Google Fonts families", title: "Families also on Google Fonts", url: SITE, value: google });
  return {
    id: ID,
    name: NAME,
    homepage: SITE,
    total: fonts.length,
    free: fonts.length,
    byType: { font: fonts.length },
    byLicense,
    categories,
    unit: "assets",
    highlights,
    method: "Fontsource API: /v1/fonts lists the whole catalogue in one response; every font family counted (the API gives no publication dates, so no 30-day count)",
    countedAt: ctx.now().toISOString(),
  };
}

/** The site's font directory with the query. */
function searchUrl(query: SourceQuery): string {
  const q = query.q.trim();
  return q ? `${SITE}/?query=${encodeURIComponent(q)}` : SITE;
}

export const fontsource: Source = {
  id: ID,
  name: NAME,
  homepage: SITE,
  description: "Best for open-source web and game fonts: every Google Fonts family plus other open fonts, with direct WOFF2/WOFF/TTF files.",
  assetTypes: ["font"],
  access: "api",
  pricing: "free",
  supportsDownload: true,
  mode: "indexed",
  unit: "assets",
  searchUrl,
  crawl,
  getAsset,
  census,
};
