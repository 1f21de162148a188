/** An HDRI as a panorama to look around in (panorama-scene.ts, imported on first use), over its thumbnail until it shows. */
import { useEffect, useRef, useState } from "preact/hooks";
import type { KindProps } from "./kind.ts";
import { rawPath } from "./raw.ts";
import { Thumbnail } from "./thumbnail.tsx";

/** three's loaders fail with the HTTP answer attached; a 413 is the raw endpoint's preview cap. */
const tooLarge = (err: unknown) => (err as { response?: { status?: number } } | undefined)?.response?.status === 413;

export function PanoramaPreview({ asset, files, choices, onState }: KindProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const surface = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  const file = files[0];
  const src = file ? rawPath(asset.id, file.filename, choices) : undefined;
  const format = file?.format.toLowerCase() === "exr" ? "exr" : "hdr";

  useEffect(() => {
    const target = canvas.current;
    const controls = surface.current;
    if (!src || !target || !controls) return;
    let live = true;
    let dispose: (() => void) | undefined;
    import("./panorama-scene.ts")
      .then(({ showPanorama }) => showPanorama(target, controls, src, format))
      .then(
        (panorama) => {
          if (!live) return panorama.dispose();
          dispose = () => panorama.dispose();
          setShown(true);
          onState("loaded");
        },
        (err) => live && onState("failed", tooLarge(err) ? "This HDRI is too large to preview here." : undefined),
      );
    return () => {
      live = false;
      dispose?.();
    };
  }, [src, format, onState]);

  return (
    <div class="panorama">
      {!shown && <Thumbnail asset={asset} />}
      <div
        ref={surface}
        class="panorama-surface"
        hidden={!shown}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: an application role is driven by its own keys (arrows, + and -), so it takes focus
        tabIndex={0}
        role="application"
        aria-roledescription="panorama"
        aria-label={`Panorama of ${asset.title}: drag, or use the arrow keys to look around and + or - to zoom`}
      >
        <canvas ref={canvas} class="panorama-canvas" />
      </div>
    </div>
  );
}
