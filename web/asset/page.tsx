/** An asset's own page (`/assets/<id>`): the asset view under its title, with the way back to the search. */

import { followInApp } from "../lib/location.ts";
import { useProviders } from "../lib/providers.ts";
import { useAssetTitle } from "./title.ts";
import { useAsset } from "./use-asset.ts";
import { AssetView } from "./view.tsx";

export function AssetPage({ id }: { id: string }) {
  const load = useAsset(id);
  const providers = useProviders();
  const asset = load.status === "ready" ? load.asset : undefined;
  useAssetTitle(asset?.title, asset && providers.get(asset.provider)?.name);
  return (
    <>
      <header class="page-bar">
        <a href="/" onClick={followInApp}>
          <span aria-hidden="true">←</span>Search all sources
        </a>
      </header>
      <main class="asset-page">
        <h1>{asset?.title ?? (load.status === "failed" ? "Asset not available" : "Loading…")}</h1>
        <AssetView load={load} level={2} />
      </main>
    </>
  );
}
