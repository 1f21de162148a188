/**
 * The app's places: the search (`/`, its whole state in the query string, an asset open over it
 * with `?asset=<id>`, which is every asset's `shareUrl`), an asset's own page (`/assets/<id>`),
 * and the pages around the search: the sources (`/sources`), one source (`/sources/<id>`) and
 * the usage statistics (`/stats`), and the documentation (`/docs`, `/docs/<guide>`).
 */
import { AssetPage } from "./asset/page.tsx";
import { DocsPage } from "./docs/page.tsx";
import { decoded, useLocation } from "./lib/location.ts";
import { SearchPage } from "./search/page.tsx";
import { SourcesPage } from "./sources/list-page.tsx";
import { SourcePage } from "./sources/source-page.tsx";
import { StatsPage } from "./stats/page.tsx";

const ASSET_PAGE = "/assets/";
const SOURCE_PAGE = "/sources/";

export function App() {
  const location = useLocation();
  if (location.pathname.startsWith(ASSET_PAGE)) {
    return <AssetPage id={decodeURIComponent(location.pathname.slice(ASSET_PAGE.length))} />;
  }
  // The server redirects `/stats/` to `/stats`; the app reads both alike.
  const path = location.pathname.replace(/(.)\/$/, "$1");
  if (path === "/sources") return <SourcesPage location={location} />;
  if (path.startsWith(SOURCE_PAGE)) return <SourcePage id={decoded(path.slice(SOURCE_PAGE.length))} location={location} />;
  if (path === "/stats") return <StatsPage location={location} />;
  if (path === "/docs" || path.startsWith("/docs/")) return <DocsPage location={location} />;
  return <SearchPage location={location} />;
}
