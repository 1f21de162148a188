/**
 * `href` resolved against `base` (for relative links in pages), when the result is an http(s) URL;
 * undefined for empty values, other schemes (javascript:, mailto:, data:) and unparsable text.
 */
export function httpUrl(href: string | undefined | null, base?: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** True for an absolute http(s) URL: upstream JSON sometimes holds relative paths, empty strings or other schemes. */
export function isHttpUrl(u: string | undefined | null): u is string {
  return httpUrl(u) !== undefined;
}

/** `base` with the query's words as its `param` (`?param=words`), or `base` alone when the query has none: a site's own search for people. */
export const withWords = (base: string, param: string, q: string) => (q.trim() ? `${base}?${param}=${encodeURIComponent(q.trim())}` : base);

/** The ASCII letters and digits of a text, lower case, each run joined to the next by a hyphen: `Brick Wall 29` → `brick-wall-29`. */
export const slugify = (text: string) => (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).join("-");
