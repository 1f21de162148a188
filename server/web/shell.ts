/**
 * The HTML every page of the app starts from: its title, description and the Open Graph and
 * Twitter tags a shared link is previewed with, then the bundle's stylesheet and script, which
 * render the page in #app. No inline script or style, so the policy of server/web/headers.ts
 * needs no hash or nonce.
 */
import type { WebManifest } from "./bundle.ts";

export interface PageMeta {
  title: string;
  description: string;
  /** Absolute: the page's own address, as shared. */
  url: string;
  /** Absolute: the preview image of a shared link. */
  image?: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** A small icon drawn in SVG, inline, so browsers ask for no /favicon.ico. */
const ICON =
  "data:image/svg+xml," +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2457c5"/><circle cx="14" cy="14" r="7" fill="none" stroke="#fff" stroke-width="3"/><path d="M19 19l6 6" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>',
  );

export function renderShell(meta: PageMeta, bundle: WebManifest): string {
  const title = escapeHtml(meta.title);
  const description = escapeHtml(meta.description);
  const url = escapeHtml(meta.url);
  const image = meta.image ? escapeHtml(meta.image) : undefined;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="canonical" href="${url}">
<meta name="color-scheme" content="light dark">
<meta property="og:site_name" content="asset-search">
<meta property="og:type" content="website">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:url" content="${url}">
${image ? `<meta property="og:image" content="${image}">\n` : ""}<meta name="twitter:card" content="${image ? "summary_large_image" : "summary"}">
<meta name="twitter:title" content="${title}">
<meta name="twitter:description" content="${description}">
${image ? `<meta name="twitter:image" content="${image}">\n` : ""}<link rel="icon" href="${ICON}">
<link rel="stylesheet" href="/static/${escapeHtml(bundle.style)}">
<script type="module" src="/static/${escapeHtml(bundle.script)}"></script>
</head>
<body>
<div id="app"><noscript><p>asset-search needs JavaScript for its search page; the API answers without it: <a href="/openapi.json">/openapi.json</a>.</p></noscript></div>
</body>
</html>
`;
}
