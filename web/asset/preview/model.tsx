/**
 * A model in an interactive 3D view: <model-viewer> (bundled, imported on first use) on the glTF or
 * GLB of the preview's selection through the raw endpoint, with the thumbnail as its poster.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { AssetFile } from "../../../core/schemas/index.ts";
import { thumbnailSrc } from "../../lib/format.ts";
import { type Choices, choiceQuery } from "../choices.ts";
import type { KindProps } from "./kind.ts";
import { rawFolder, rawPath } from "./raw.ts";
import { Thumbnail } from "./thumbnail.tsx";

/** The slice of model-viewer's element the preview reads. */
interface ModelViewer extends HTMLElement {
  getDimensions(): { x: number; y: number; z: number };
}

function useViewer(id: string, choices: Choices): boolean | "failed" {
  const [ready, setReady] = useState<boolean | "failed">(false);
  const query = choiceQuery(choices);
  useEffect(() => {
    let live = true;
    let release: (() => void) | undefined;
    Promise.all([import("@google/model-viewer"), import("./keep-selection.ts")]).then(
      ([, { keepSelection }]) => {
        if (!live) return;
        release = keepSelection(rawFolder(id), query);
        setReady(true);
      },
      () => live && setReady("failed"),
    );
    return () => {
      live = false;
      release?.();
    };
  }, [id, query]);
  return ready;
}

export function ModelPreview({ asset, files, choices, onState }: KindProps) {
  const ready = useViewer(asset.id, choices);
  const viewer = useRef<ModelViewer>(null);
  const file: AssetFile | undefined = files[0];

  useEffect(() => {
    if (ready === "failed") onState("failed");
    const el = viewer.current;
    if (!el) return;
    // model-viewer reports `load` even for a glTF it could not read (as an empty scene): an empty box is a failure.
    const loaded = () => {
      const { x, y, z } = el.getDimensions();
      onState(x + y + z > 0 ? "loaded" : "failed");
    };
    const failed = () => onState("failed");
    el.addEventListener("load", loaded);
    el.addEventListener("error", failed);
    return () => {
      el.removeEventListener("load", loaded);
      el.removeEventListener("error", failed);
    };
  }, [ready, onState]);

  if (ready !== true || !file) return <Thumbnail asset={asset} />;
  return (
    <model-viewer
      ref={viewer}
      class="model-viewer"
      src={rawPath(asset.id, file.filename, choices)}
      poster={thumbnailSrc(asset, 640)}
      alt={`3D model of ${asset.title}: drag or use the arrow keys to turn it`}
      camera-controls
      touch-action="pan-y"
      interaction-prompt="none"
      environment-image="neutral"
      shadow-intensity="1"
    >
      {/* Empty slots in place of the viewer's own AR buttons, which take focus out of order (tabindex 2) and would offer an AR this page does not set up. */}
      <span slot="ar-button" hidden />
      <span slot="exit-webxr-ar-button" hidden />
    </model-viewer>
  );
}
