/** Audio: a player on the preview selection's file (a source's preview when it lists one) through the raw endpoint, under the thumbnail. */
import type { KindProps } from "./kind.ts";
import { rawPath } from "./raw.ts";
import { Thumbnail } from "./thumbnail.tsx";

export function AudioPreview({ asset, files, choices, onState }: KindProps) {
  const file = files[0];
  return (
    <div class="audio">
      <Thumbnail asset={asset} />
      {file && (
        // biome-ignore lint/a11y/useMediaCaption: no source lists captions for its sounds; the asset's description is all there is
        <audio
          controls
          preload="metadata"
          src={rawPath(asset.id, file.filename, choices)}
          aria-label={`Listen to ${asset.title}`}
          onLoadedMetadata={() => onState("loaded")}
          onError={() => onState("failed", "This sound could not be played here.")}
        />
      )}
    </div>
  );
}
