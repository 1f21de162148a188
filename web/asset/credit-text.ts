/**
 * An asset's credit line in the forms people paste: plain text (every address written out), HTML
 * and Markdown. It follows the TASL order Creative Commons recommends: Title (linked to the asset's
 * page), Author, Source (linked to the site), Licence (linked to its deed or text).
 */
import type { Asset, License } from "../../core/schemas/index.ts";

export type CreditForm = "text" | "html" | "markdown";

export const CREDIT_FORMS: readonly { form: CreditForm; label: string }[] = [
  { form: "text", label: "Plain text" },
  { form: "html", label: "HTML" },
  { form: "markdown", label: "Markdown" },
];

export interface CreditSource {
  name: string;
  homepage?: string | undefined;
}

/** "CC BY-SA 4.0" for CC-BY-SA-4.0 and "CC0 1.0" for CC0-1.0, as the deeds name themselves; other licences by their name. */
export function licenceName(l: License): string {
  if (l.spdx === "CC0-1.0") return "CC0 1.0";
  const cc = /^CC-([A-Z-]+)-(\d\.\d)$/.exec(l.spdx ?? "");
  return cc ? `CC ${cc[1]} ${cc[2]}` : l.name;
}

/** A public-domain dedication is "marked with", not "licensed under": nothing is licensed. */
const isPublicDomain = (l: License) => l.spdx === "CC0-1.0" || /public domain/i.test(l.name);

const httpUrl = (url: string | undefined) => (url && /^https?:\/\//i.test(url) ? url : undefined);

interface Part {
  role: "title" | "author" | "source" | "licence";
  text: string;
  url?: string | undefined;
}

/** Every form writes the same words; only how a part (and its link) is written differs. */
function compose(asset: Asset, source: CreditSource, write: (part: Part) => string): string {
  const title = write({ role: "title", text: asset.title, url: httpUrl(asset.url) });
  const by = asset.author ? ` by ${write({ role: "author", text: asset.author })}` : "";
  const on = ` on ${write({ role: "source", text: source.name, url: httpUrl(source.homepage) })}`;
  const l = asset.license;
  if (!l) return `${title}${by}${on}. The source states no licence.`;
  const verb = isPublicDomain(l) ? "is marked with" : "is licensed under";
  return `${title}${by}${on} ${verb} ${write({ role: "licence", text: licenceName(l), url: httpUrl(l.url) })}.`;
}

const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => HTML_ESCAPES[c] ?? c);
const escapeMarkdown = (text: string) => text.replace(/[\\[\]()*_`<>]/g, "\\$&");
/** Parentheses and spaces would end a Markdown link's address: percent-encoded, they mean the same URL. */
const markdownUrl = (url: string) => url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);

export function creditLine(asset: Asset, source: CreditSource, form: CreditForm): string {
  switch (form) {
    case "text":
      // Addresses written out: the asset's after its site's name (where it is), the licence's after its name.
      return compose(asset, source, ({ role, text, url }) => {
        if (role === "title") return `"${text}"`;
        const address = role === "source" ? httpUrl(asset.url) : url;
        return address ? `${text} (${address})` : text;
      });
    case "html":
      return compose(asset, source, ({ text, url }) => (url ? `<a href="${escapeHtml(url)}">${escapeHtml(text)}</a>` : escapeHtml(text)));
    case "markdown":
      return compose(asset, source, ({ text, url }) => (url ? `[${escapeMarkdown(text)}](${markdownUrl(url)})` : escapeMarkdown(text)));
  }
}
