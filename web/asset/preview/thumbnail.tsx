/** The asset's picture through the app's own thumbnail endpoint: the preview until (or unless) an interactive one applies. */
import type { Asset } from "../../../core/schemas/index.ts";
import { thumbnailSrc } from "../../lib/format.ts";

export function Thumbnail({ asset }: { asset: Asset }) {
  return <img class="thumbnail" src={thumbnailSrc(asset, 640)} alt={asset.title} width={640} height={480} decoding="async" />;
}
