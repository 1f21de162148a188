/**
 * A texture or material: each map of the preview selection (the smallest resolution) as an image,
 * and the colour map tiled 3 × 3, where a seam would show.
 */
import { useEffect } from "preact/hooks";
import type { AssetFile } from "../../../core/schemas/index.ts";
import { mapName } from "../map-names.ts";
import type { KindProps } from "./kind.ts";
import { rawPath } from "./raw.ts";

const COLOUR = /^(diffuse|diff|albedo|base_?color|colou?r|col)$/i;

export function TexturePreview({ asset, files, choices, onState }: KindProps) {
  const maps = files.filter((f) => f.mapType);
  const colour: AssetFile | undefined = maps.find((f) => COLOUR.test(f.mapType ?? "")) ?? maps[0];
  const src = (f: AssetFile) => rawPath(asset.id, f.filename, choices);
  const tile = colour ? src(colour) : undefined;

  // The tiled view is a CSS background, which has no load event: the same image, loaded once more from the cache, tells.
  useEffect(() => {
    if (!tile) return onState("failed");
    const probe = new Image();
    probe.onload = () => onState("loaded");
    probe.onerror = () => onState("failed");
    probe.src = tile;
    return () => {
      probe.onload = probe.onerror = null;
    };
  }, [tile, onState]);

  return (
    <div class="texture">
      <div
        class="tiled"
        role="img"
        aria-label={`${asset.title} repeated 3 × 3, to judge its seams`}
        style={tile ? { backgroundImage: `url("${tile}")` } : undefined}
      />
      <ul class="map-previews" aria-label="Maps">
        {maps.map((f) => (
          <li key={f.url}>
            <img src={src(f)} alt="" width={96} height={96} loading="lazy" decoding="async" />
            <span>{mapName(f.mapType ?? "")}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
