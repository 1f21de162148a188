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
