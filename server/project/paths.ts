/**
 * Paths under a project folder that can only land inside it. Every path `get` and
 * `download_asset` write is a relative path checked here, whether a person, an agent or an
 * upstream site named it: `..`, an absolute path, a drive letter, a backslash path or a control
 * character is refused (never cleaned up into something else), and a symbolic link on the way that
 * leads out of the folder is refused too.
 */
import { lstat, realpath } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { ApiError } from "../errors.ts";

/** Why `raw` cannot be a path inside a folder, or undefined when it can. */
function unsafeReason(raw: string): string | undefined {
  if (raw === "") return "it is empty";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses in paths.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return "it holds a control character";
  if (/^[a-zA-Z]:/.test(raw)) return "it starts with a drive letter";
  if (raw.startsWith("/") || raw.startsWith("\\")) return "it is absolute";
  if (raw.includes("\\")) return "it holds a backslash";
  if (raw.split("/").includes("..")) return "it climbs out with '..'";
  return undefined;
}

/** The segments of a relative path (empty and `.` ones dropped), or a 400 naming `what` and why. */
export function relativeSegments(raw: string, what: string): string[] {
  const reason = unsafeReason(raw);
  if (reason) throw new ApiError(400, `refused ${what} '${raw}': ${reason}; give a path inside the folder`);
  return raw.split("/").filter((s) => s !== "" && s !== ".");
}

const inside = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);

/**
 * Refuses `target` (a path under `root`, both absolute, `root` already real) when the deepest part
 * of it that exists is, through a symbolic link, outside `root`; a link that is the target itself
 * is refused whatever it points to, since writing would replace it.
 */
export async function assertInside(root: string, target: string, what: string): Promise<void> {
  if (!inside(root, target)) throw new ApiError(400, `refused ${what}: it is outside ${root}`);
  const own = await lstat(target).catch(() => undefined);
  if (own?.isSymbolicLink() && target !== root) throw new ApiError(400, `refused ${what}: ${relative(root, target)} is a symbolic link`);
  let existing = target;
  while (!(await lstat(existing).catch(() => undefined))) existing = dirname(existing);
  const real = await realpath(existing);
  if (!inside(root, real)) {
    throw new ApiError(400, `refused ${what}: ${relative(root, existing) || "."} is a symbolic link that leads outside ${root} (to ${real})`);
  }
}

/** `root` joined with checked segments: the absolute path, and the same relative to `root` with `/`. */
export function under(root: string, segments: string[]): { path: string; rel: string } {
  return { path: join(root, ...segments), rel: segments.join("/") };
}
