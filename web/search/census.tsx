/**
 * The page before any search (no words, no filter): the daily census's totals (`/v1/catalog`) and
 * the sources, each with its types and how it is searched. It sends no search: opening the page
 * costs the live sources nothing.
 */
import { useEffect, useState } from "preact/hooks";
import type { Catalog, CountWithBound, Provider } from "../../core/schemas/index.ts";
import { getJson } from "../lib/api.ts";
import { webUrl } from "../lib/format.ts";
import { MODE_NAMES, TYPE_NAMES } from "./labels.ts";

const counted = (c: CountWithBound) => `${c.count.toLocaleString()}${c.atLeast ? "+" : ""}`;

/** How each mode of source is searched, in words (also on the sources' pages). */
export const HOW: Record<NonNullable<Provider["mode"]>, string> = {
  indexed: "crawled daily into this service's index, searched at once",
  live: "asked live, through the site's own search, at every search",
  link: "not searched here: the site refuses robots, so results link to its own search",
};

export function EmptyState({ providers }: { providers: Map<string, Provider> }) {
  const [catalog, setCatalog] = useState<Catalog>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    const controller = new AbortController();
    getJson<Catalog>("/v1/catalog", controller.signal).then(setCatalog, () => controller.signal.aborted || setFailed(true));
    return () => controller.abort();
  }, []);
  return (
    <>
      <CensusTotals catalog={catalog} failed={failed} />
      <SourceList providers={[...providers.values()]} catalog={catalog} />
    </>
  );
}

/** The totals keep their place while the census loads ("…"), so the sources below do not jump when it arrives. */
function CensusTotals({ catalog, failed }: { catalog: Catalog | undefined; failed: boolean }) {
  const totals = catalog?.totals;
  const shown = (count: CountWithBound | undefined) => (count ? counted(count) : "…");
  return (
    <section class="census" aria-labelledby="census-heading" aria-busy={!catalog && !failed}>
      <h2 id="census-heading">One search across the free and paid asset sites</h2>
      {failed ? (
        <p>The census of the sources is not available right now; searching still works.</p>
      ) : (
        <>
          <dl class="totals">
            <div>
              <dt>Listings</dt>
              <dd>{shown(totals?.listings)}</dd>
            </div>
            <div>
              <dt>Free</dt>
              <dd>{shown(totals?.free)}</dd>
            </div>
            <div>
              <dt>CC0</dt>
              <dd>{shown(totals?.cc0)}</dd>
            </div>
            <div>
              <dt>Direct download</dt>
              <dd>{shown(totals?.directDownload)}</dd>
            </div>
            <div>
              <dt>Sources</dt>
              <dd>{totals ? (totals.sourcesCounted + totals.sourcesLinked).toLocaleString() : "…"}</dd>
            </div>
          </dl>
          <p class="note">
            {catalog && totals
              ? `Counted on ${new Date(catalog.countedAt).toLocaleDateString(undefined, { dateStyle: "long" })}, every day, across ${totals.sourcesCounted} sources${totals.sourcesLinked > 0 ? ` (and ${totals.sourcesLinked} linked)` : ""}.`
              : "Counting the sources…"}
          </p>
        </>
      )}
    </section>
  );
}

function SourceList({ providers, catalog }: { providers: Provider[]; catalog: Catalog | undefined }) {
  const listings = new Map((catalog?.sources ?? []).map((s) => [s.id, { count: s.total, atLeast: s.atLeast }]));
  const modes = Object.keys(HOW) as (keyof typeof HOW)[];
  return (
    <section class="sources" aria-labelledby="sources-heading">
      <h2 id="sources-heading">Sources</h2>
      <dl class="how">
        {modes.map((mode) => (
          <div key={mode}>
            <dt>{MODE_NAMES[mode]}</dt>
            <dd>{HOW[mode]}</dd>
          </div>
        ))}
      </dl>
      <ul class="source-list">
        {providers.map((p) => {
          const count = listings.get(p.id);
          const home = webUrl(p.homepage);
          return (
            <li key={p.id}>
              <span class="source-name">{home ? <a href={home}>{p.name}</a> : p.name}</span>
              {p.mode && <span class={`mode ${p.mode}`}>{MODE_NAMES[p.mode]}</span>}
              <span class="source-facts">
                {[p.assetTypes.map((t) => TYPE_NAMES[t].many).join(", "), count && `${counted(count)} listings`, p.enabled === false && "needs a key here"]
                  .filter(Boolean)
                  .join(" · ")}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
