/** True for an absolute http(s) URL: upstream JSON sometimes holds relative paths, empty strings or other schemes. */
export function isHttpUrl(u: string | undefined | null): u is string {
  if (!u) return false;
  try {
    const { protocol } = new URL(u);
    return protocol === "https:" || protocol === "http:";
  } catch {
    return false;
  }
}
