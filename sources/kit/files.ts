/** What a file's link and name say of it: its name and its format. */

/** The last segment of a URL's path, decoded: the name of the file a link serves. */
export const fileNameOf = (url: string | URL) => decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");

/** A file name's (or path's) extension, lower case; undefined when it has none. */
export const extensionOf = (name: string | null | undefined) => /\.([a-z0-9]+)$/i.exec(name ?? "")?.[1]?.toLowerCase();

/** A size as a page prints it ("6.1 MB", "577 kB", "120 bytes") in bytes, each unit `base` times the one before; approximate by nature. */
export function parseSize(text: string | undefined, base: 1000 | 1024 = 1000): number | undefined {
  const m = /([\d.]+)\s*(bytes?|B|kB|KB|MB|GB|TB)\b/i.exec(text ?? "");
  if (!m?.[2]) return undefined;
  const power = { byte: 0, b: 0, kb: 1, mb: 2, gb: 3, tb: 4 }[m[2].toLowerCase().replace(/s$/, "")] ?? 0;
  return Math.round(Number(m[1]) * base ** power);
}
