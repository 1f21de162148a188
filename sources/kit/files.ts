/** What a file's link and name say of it: its name and its format. */

/** The last segment of a URL's path, decoded: the name of the file a link serves. */
export const fileNameOf = (url: string | URL) => decodeURIComponent(new URL(url).pathname.split("/").pop() ?? "");

/** A file name's (or path's) extension, lower case; undefined when it has none. */
export const extensionOf = (name: string | null | undefined) => /\.([a-z0-9]+)$/i.exec(name ?? "")?.[1]?.toLowerCase();
