/**
 * The app's two places: the search (`/`, its whole state in the query string, an asset open over it
 * with `?asset=<id>`, which is every asset's `shareUrl`) and an asset's own page (`/assets/<id>`).
 */
import { AssetPage } from "./asset/page.tsx";
import { useLocation } from "./lib/location.ts";
import { SearchPage } from "./search/page.tsx";

const ASSET_PAGE = "/assets/";

export function App() {
  const location = useLocation();
  if (location.pathname.startsWith(ASSET_PAGE)) {
    return <AssetPage id={decodeURIComponent(location.pathname.slice(ASSET_PAGE.length))} />;
  }
  return <SearchPage location={location} />;
}
