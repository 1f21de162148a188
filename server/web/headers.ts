/**
 * The headers of the app's HTML pages. The policy allows the page's own origin only: scripts and
 * styles are the bundle's files (no inline script, no eval), thumbnails and previews come through
 * this server (/v1/assets/{id}/thumbnail and /raw/), so no visitor's browser ever asks a source
 * site for anything. Three allowances serve the 3D viewer alone: the `<style>` its component
 * template writes, allowed by its hash (bin/build.js finds it in the bundle); `'wasm-unsafe-eval'`
 * for its WebAssembly mesh decoders (WebAssembly only, never a script's eval); and `blob:` and
 * `data:`, what it makes of a model's own textures.
 */
import type { WebManifest } from "./bundle.ts";

export function pageHeaders(bundle: WebManifest): Record<string, string> {
  const csp = [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    ["style-src 'self'", ...bundle.styleHashes.map((hash) => `'${hash}'`)].join(" "),
    "img-src 'self' data: blob:",
    "font-src 'self' blob:",
    "media-src 'self' blob:",
    "connect-src 'self' blob: data:",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    "content-security-policy": csp,
    // Links out to the source sites carry this origin, never the search in the address.
    "referrer-policy": "strict-origin-when-cross-origin",
    "x-frame-options": "DENY",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
  };
}

/** The HTML revalidates every time (its ETag makes that a 304), so a new build's script names reach a visitor at once. */
export const PAGE_CACHE = "no-cache";
/** The bundle's files are named by their content: a name never changes its bytes. */
export const BUNDLE_CACHE = "public, max-age=31536000, immutable";
