/**
 * The search page (`/`): the header's search box, then either the census and the sources (no
 * words, no filter: nothing is searched) or the filters beside the results. The address is the
 * whole state (web/search/query.ts); an asset opens over the results with `?asset=<id>`.
 */
import "../styles/search.css";
import { useEffect } from "preact/hooks";
import { AssetDialog } from "../asset/dialog.tsx";
import { navigate } from "../lib/location.ts";
import { useProviders } from "../lib/providers.ts";
import { EmptyState } from "./census.tsx";
import { Filters } from "./filters.tsx";
import { SearchHeader } from "./header.tsx";
import { readAddress, withAsset, withPages } from "./query.ts";
import { Results } from "./results.tsx";
import { useSearch } from "./use-search.ts";

const NAME = "asset-search";

export function SearchPage({ location }: { location: URL }) {
  const address = readAddress(location);
  const { view, loadMore } = useSearch(address.key, address.pages);
  const providers = useProviders();

  // The address keeps the pages shown, so a reload or a shared link shows as many.
  useEffect(() => {
    if (view?.phase === "done" && view.pages > address.pages) navigate(withPages(new URL(window.location.href), view.pages), { replace: true });
  }, [view?.pages, view?.phase]);

  useEffect(() => {
    if (!address.asset) document.title = address.q ? `${address.q} · ${NAME}` : NAME;
  }, [address.q, address.asset]);

  return (
    <>
      <SearchHeader url={location} q={address.q} />
      <main class={address.key === undefined ? "search-main empty" : "search-main"}>
        {address.key === undefined ? (
          <EmptyState providers={providers} />
        ) : (
          <>
            <Filters url={location} facets={view?.facets} stale={view?.phase !== "done"} providers={providers} />
            <Results url={location} q={address.q} view={view} providers={providers} loadMore={loadMore} />
          </>
        )}
      </main>
      {address.asset && <AssetDialog id={address.asset} onClose={() => navigate(withAsset(location, undefined))} />}
    </>
  );
}
