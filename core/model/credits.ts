/**
 * The credits of a set of assets, written once for every surface: `asset-search credits` (from
 * the lock), the MCP tool `get_credits` and `GET /v1/credits` (from ids) all call `writeCredits`,
 * so the same assets give the same text everywhere. And the licence summary of
 * `asset-search licenses`.
 *
 * Each credit names title, author, source and licence (Creative Commons' TASL), with links in
 * Markdown and HTML; grouped by licence, the licences that require credit first, then those whose
 * terms are unknown (to be checked by hand), then those that need none (credited all the same:
 * it costs nothing and tells players where the work came from).
 */
import type { CreditedAsset, CreditFormat, CreditGroup, CreditNeed, CreditsResponse, FailOn, License, LicenseSummary } from "../schemas/index.ts";

/** What a credit is written from: a lock entry, or an asset's details. */
export interface Creditable {
  id: string;
  title: string;
  url: string;
  author?: string | undefined;
  license?: License | undefined;
}

const NEED_ORDER: readonly CreditNeed[] = ["required", "unknown", "not-required"];

const needOf = (license: License | undefined): CreditNeed =>
  license?.attributionRequired === true ? "required" : license?.attributionRequired === false ? "not-required" : "unknown";

/** How the licence is named in a credit: its SPDX id where it has one, else its name. */
const shortName = (license: License) => license.spdx ?? license.name;

function heading(license: License | undefined, need: CreditNeed): string {
  if (!license) return "Unknown licence: check each source page before use";
  const name = license.spdx && license.spdx !== license.name ? `${license.name} (${license.spdx})` : license.name;
  const note = need === "required" ? "credit required" : need === "not-required" ? "no credit required" : "terms unknown: check each source page before use";
  return `${name}: ${note}`;
}

/** The plain credit: `"Title" by Author (source), licensed under SPDX (licence URL).`, the form core/model/license.ts's attributionLine uses. */
function plainLine(asset: Creditable, modified: boolean): string {
  const { license } = asset;
  const by = asset.author ? ` by ${asset.author}` : "";
  const terms = license ? `, licensed under ${shortName(license)}${license.url ? ` (${license.url})` : ""}` : ", licence unknown";
  return `"${asset.title}"${by} (${asset.url})${terms}.${modified ? " Modified from the original." : ""}`;
}

/** The credits as groups: the JSON answer, and what every text format is written from. */
export function creditGroups(assets: readonly Creditable[], modified: readonly string[] = []): CreditGroup[] {
  const changed = new Set(modified);
  const groups = new Map<string, CreditGroup>();
  for (const asset of [...assets].sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id))) {
    const need = needOf(asset.license);
    const key = `${need}\u0000${asset.license ? shortName(asset.license) : ""}`;
    let group = groups.get(key);
    if (!group) {
      group = { heading: heading(asset.license, need), need, ...(asset.license ? { license: asset.license } : {}), assets: [] };
      groups.set(key, group);
    }
    const isModified = changed.has(asset.id);
    const credited: CreditedAsset = {
      id: asset.id,
      title: asset.title,
      url: asset.url,
      ...(asset.author ? { author: asset.author } : {}),
      modified: isModified,
      line: plainLine(asset, isModified),
      markdown: markdownLine(asset, asset.license, isModified),
      html: htmlLine(asset, asset.license, isModified),
    };
    group.assets.push(credited);
  }
  return [...groups.values()].sort((a, b) => NEED_ORDER.indexOf(a.need) - NEED_ORDER.indexOf(b.need) || a.heading.localeCompare(b.heading));
}

// ---------------------------------------------------------------------------------------------
// Text formats

const escapeMarkdown = (text: string) => text.replace(/([\\`*_[\]<>])/g, "\\$1");
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** Parentheses and spaces would end a Markdown link's address early: percent-encoded, they name the same URL. */
const markdownUrl = (url: string) => url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

function markdownLine(asset: Creditable, license: License | undefined, modified: boolean): string {
  const by = asset.author ? ` by ${escapeMarkdown(asset.author)}` : "";
  const name = license ? escapeMarkdown(shortName(license)) : "";
  const terms = license ? `, licensed under ${license.url ? `[${name}](${markdownUrl(license.url)})` : name}` : ", licence unknown";
  return `[${escapeMarkdown(asset.title)}](${markdownUrl(asset.url)})${by}${terms}.${modified ? " Modified from the original." : ""}`;
}

function htmlLine(asset: Creditable, license: License | undefined, modified: boolean): string {
  const by = asset.author ? ` by ${escapeHtml(asset.author)}` : "";
  const name = license ? escapeHtml(shortName(license)) : "";
  const terms = license ? `, licensed under ${license.url ? `<a href="${escapeHtml(license.url)}">${name}</a>` : name}` : ", licence unknown";
  const link = `<a href="${escapeHtml(asset.url)}">${escapeHtml(asset.title)}</a>`;
  return `${link}${by}${terms}.${modified ? " Modified from the original." : ""}`;
}

function render(groups: CreditGroup[], format: Exclude<CreditFormat, "json">): string {
  const lines: string[] = [];
  if (format === "md") {
    lines.push("# Credits", "");
    if (!groups.length) lines.push("No assets.", "");
    for (const g of groups) lines.push(`## ${escapeMarkdown(g.heading)}`, "", ...g.assets.map((a) => `- ${a.markdown}`), "");
  } else if (format === "html") {
    lines.push('<section class="credits">', "<h2>Credits</h2>");
    if (!groups.length) lines.push("<p>No assets.</p>");
    for (const g of groups) lines.push(`<h3>${escapeHtml(g.heading)}</h3>`, "<ul>", ...g.assets.map((a) => `<li>${a.html}</li>`), "</ul>");
    lines.push("</section>", "");
  } else {
    lines.push("Credits", "=======", "");
    if (!groups.length) lines.push("No assets.", "");
    for (const g of groups) lines.push(g.heading, ...g.assets.map((a) => `  ${a.line}`), "");
  }
  return lines.join("\n");
}

/** The credits in `format`: the text for md, html and txt; for json the groups with the Markdown text. */
export function writeCredits(assets: readonly Creditable[], format: CreditFormat, modified: readonly string[] = []): string | CreditsResponse {
  const groups = creditGroups(assets, modified);
  return format === "json" ? { groups, text: render(groups, "md") } : render(groups, format);
}

/** The media type each credits format is served as. */
export const CREDIT_MEDIA_TYPES: Record<CreditFormat, string> = {
  md: "text/markdown; charset=utf-8",
  html: "text/html; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  json: "application/json",
};

// ---------------------------------------------------------------------------------------------
// The licence summary

/** No licence, or one whose commercial use or attribution is not known: never treated as free. */
const unknownTerms = (license: License | undefined) => !license || license.commercialUse === undefined || license.attributionRequired === undefined;

export function summarizeLicenses(assets: readonly Creditable[]): LicenseSummary {
  const counts = new Map<string, number>();
  for (const a of assets) {
    const name = a.license ? shortName(a.license) : "unknown";
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const ids = (keep: (l: License | undefined) => boolean) => assets.filter((a) => keep(a.license)).map((a) => a.id);
  return {
    assets: assets.length,
    byLicense: [...counts].map(([license, count]) => ({ license, count })).sort((a, b) => b.count - a.count || a.license.localeCompare(b.license)),
    attribution: ids((l) => l?.attributionRequired === true),
    noncommercial: ids((l) => l?.commercialUse === false),
    unknown: ids(unknownTerms),
  };
}

/** The ids a `--fail-on` list refuses, by category; empty when the lock passes. */
export function failures(summary: LicenseSummary, failOn: readonly FailOn[]): Partial<Record<FailOn, string[]>> {
  return Object.fromEntries(failOn.filter((c) => summary[c].length > 0).map((c) => [c, summary[c]]));
}
