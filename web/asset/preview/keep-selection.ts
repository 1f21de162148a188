/**
 * three.js resolves a glTF's relative URIs (`scene.bin`, `textures/…`) against the glTF's folder
 * and drops its query (three's LoaderUtils.resolveURL), so the companions of
 * `/v1/assets/<id>/raw/scene.gltf?format=gltf&resolution=1k` would be asked without the selection
 * they belong to. model-viewer's loaders use three's default loading manager: its URL modifier
 * gives a raw address without a query the selection of the preview showing that asset.
 * Loaded with the viewer, never before.
 */
import { DefaultLoadingManager } from "three";

/** Raw folder (`/v1/assets/<id>/raw/`) → the query of the selection its preview shows. */
const selections = new Map<string, string>();

DefaultLoadingManager.setURLModifier((url) => {
  const at = new URL(url, location.href);
  if (at.origin !== location.origin || at.search) return url;
  for (const [folder, query] of selections) if (at.pathname.startsWith(folder)) return `${url}?${query}`;
  return url;
});

/** Until the returned function is called, files under `folder` are asked with `query`. */
export function keepSelection(folder: string, query: string): () => void {
  selections.set(folder, query);
  return () => {
    if (selections.get(folder) === query) selections.delete(folder);
  };
}
