/**
 * The raw endpoint's addresses: one file of a selection at its path in the download's layout
 * (`/v1/assets/<id>/raw/<path>?<choices>`), so a glTF's relative `.bin` and textures sit beside it.
 */
import { assetPath } from "../../lib/api.ts";
import { type Choices, withQuery } from "../choices.ts";

/** The folder every file of an asset's selection sits in. */
export const rawFolder = (id: string): string => assetPath(id, "/raw/");

/** `path` is a layout path (`scene.gltf`, `textures/wood_diff_1k.jpg`): each segment is encoded, the slashes kept. */
export const rawPath = (id: string, path: string, choices: Choices): string =>
  withQuery(rawFolder(id) + path.split("/").map(encodeURIComponent).join("/"), choices);
