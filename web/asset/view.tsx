/**
 * The asset view, the same in the dialog over the search and on the asset's own page (which
 * each write the title heading): the large preview, what is known of the asset, its credit line,
 * and the file picker with the download.
 */
import "../styles/asset.css";
import type { AssetDetails } from "../../core/schemas/index.ts";
import { sourceName, useProviders } from "../lib/providers.ts";
import { About } from "./about.tsx";
import { directFiles } from "./choices.ts";
import { Credit } from "./credit.tsx";
import { FilePicker } from "./file-picker.tsx";
import { Preview } from "./preview/preview.tsx";
import type { AssetLoad } from "./use-asset.ts";

/** `level`: the heading level of the view's sections (one below the title's). */
export function AssetView({ load, level }: { load: AssetLoad; level: number }) {
  if (load.status === "loading") {
    return (
      <div class="asset-view" aria-busy="true">
        <div class="preview skeleton" />
        <p class="muted">Loading the asset…</p>
      </div>
    );
  }
  if (load.status === "failed") return <p class="problem">{load.message}</p>;
  return <Loaded asset={load.asset} level={level} />;
}

function Loaded({ asset, level }: { asset: AssetDetails; level: number }) {
  const providers = useProviders();
  const provider = providers.get(asset.provider);
  const name = sourceName(providers, asset.provider);
  const direct = asset.downloadable && provider?.supportsDownload !== false && directFiles(asset.files).length > 0;
  return (
    <div class="asset-view">
      <div class="asset-media">
        <Preview asset={asset} />
      </div>
      <div class="asset-details">
        <About asset={asset} />
        <Credit asset={asset} level={level} />
        <FilePicker asset={asset} sourceName={name} direct={direct} level={level} />
      </div>
    </div>
  );
}
