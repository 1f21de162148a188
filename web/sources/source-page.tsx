/**
 * `/sources/<id>`: one source in full. What it is and how it is searched, its census (web/sources/census.tsx),
 * its listings day by day as a chart from `/catalog-history.json`, how the search's filters and
 * sorts meet it, and searches that open the search page on it. An id the registry does not hold
 * says so (the server answered it with a 404).
 */
import "../styles/sources.css";
import { useEffect } from "preact/hooks";
import type { CatalogHistory, FilterKey, Provider, ProviderHealth, SourceCensus } from "../../core/schemas/index.ts";
import { webUrl } from "../lib/format.ts";
import { LineChart } from "../lib/line-chart.tsx";
import { followInApp } from "../lib/location.ts";
import { day, duration, percent } from "../lib/numbers.ts";
import { useCatalog, useHistory, useStats } from "../lib/site-data.ts";
import { SiteHeader } from "../lib/site-header.tsx";
import { settled, useJson } from "../lib/use-json.ts";
import { HOW } from "../search/census.tsx";
import { MODE_NAMES } from "../search/labels.ts";
import { SourceCensusView } from "./census.tsx";
import { exampleSearches } from "./examples.ts";
import { FILTER_NAMES, healthPeriod, type KeyState, keyState, licenceOf, PRICING } from "./facts.ts";

/** As the server titles the page (server/web/meta.ts). */
const titleOf = (name: string) => `${name}: census and history · asset-search`;

/**
 * How the search's filters and sorts meet a source, from what it declares (`/v1/providers`); a
 * filter it can meet neither way makes it sit that search out (core/search/search.ts).
 */
function Filtering({ provider }: { provider: Provider }) {
  const { filtering, mode } = provider;
  if (mode === "link" && !filtering?.upstream.length)
    return <p>Not searched here, so no filter applies: a search links to the site's own search with the same words.</p>;
  if (!filtering || filtering.index)
    return (
      <p>
        Searched in this service's index, so every filter and sort of the search page applies to its listings as far as they state what it reads (a format, a
        resolution, a date). When none of its listings can, it sits that search out and the search says why.
      </p>
    );
  const names = (keys: readonly FilterKey[]) => (keys.length ? keys.map((k) => FILTER_NAMES[k]).join(", ") : "none");
  return (
    <>
      <dl class="source-facts-list">
        <div>
          <dt>{mode === "link" ? "In its search link" : "Applied by the site"}</dt>
          <dd>{names(filtering.upstream)}</dd>
        </div>
        {mode !== "link" && (
          <div>
            <dt>Applied here to its listings</dt>
            <dd>{names(filtering.listed)}</dd>
          </div>
        )}
      </dl>
      <p class="note">
        {mode === "link"
          ? "Not searched here: a search links to the site's own search with the same words and these filters."
          : "A filter or sort it can meet neither way makes it sit that search out, and the search says why."}
      </p>
    </>
  );
}

/** The key in a sentence: whether it is needed, and whether this server has it. */
function keySentence(key: KeyState): string {
  if (key.need === "none") return "Not needed";
  const need = key.need === "required" ? "Required" : "Optional";
  return key.set ? `${need}, set here (${key.env})` : `${need}, not set here: ${key.need === "required" ? "searching it needs" : "it can use"} ${key.env}`;
}

function History({ id, history }: { id: string; history: CatalogHistory }) {
  const points = history.points.filter((p) => p.sources[id] !== undefined);
  if (points.length === 0) return <p>No day of the census has counted it yet.</p>;
  const stale = points.filter((p) => p.stale?.includes(id)).map((p) => day(p.date));
  return (
    <>
      <LineChart title="Listings" days={points.map((p) => p.date)} values={points.map((p) => p.sources[id] ?? null)} />
      {stale.length > 0 && <p class="note">Carried over from an earlier count on {stale.join(", ")}.</p>}
    </>
  );
}

function Facts({
  provider,
  census,
  health,
  period,
}: {
  provider: Provider;
  census: SourceCensus | undefined;
  health: ProviderHealth | undefined;
  period: string;
}) {
  const home = webUrl(provider.homepage);
  const licence = licenceOf(provider, census);
  return (
    <dl class="source-facts-list">
      <div>
        <dt>Site</dt>
        <dd>{home ? <a href={home}>{new URL(home).host}</a> : provider.homepage}</dd>
      </div>
      {provider.mode && (
        <div>
          <dt>Searched</dt>
          <dd>
            <span class={`mode ${provider.mode}`}>{MODE_NAMES[provider.mode]}</span> {HOW[provider.mode]}
          </dd>
        </div>
      )}
      <div>
        <dt>Pricing</dt>
        <dd>{PRICING[provider.pricing]}</dd>
      </div>
      <div>
        <dt>Licence</dt>
        <dd>
          <span class={`badge ${licence.kind}`}>{licence.label}</span>
          {licence.terms && ` ${licence.terms}`}
        </dd>
      </div>
      <div>
        <dt>Direct download</dt>
        <dd>{provider.supportsDownload ? "Yes: files download through this service" : "No: files are fetched on the site"}</dd>
      </div>
      <div>
        <dt>Key</dt>
        <dd>{keySentence(keyState(provider))}</dd>
      </div>
      {health && health.requests > 0 && (
        <div>
          <dt>Health</dt>
          <dd>
            {percent(health.okRate)} of {health.requests.toLocaleString()} searches answered, p50 {duration(health.p50Ms)}, p95 {duration(health.p95Ms)},{" "}
            {period}
          </dd>
        </div>
      )}
    </dl>
  );
}

export function SourcePage({ id, location }: { id: string; location: URL }) {
  const providers = useJson<{ providers: Provider[] }>("/v1/providers");
  const catalog = useCatalog();
  const history = useHistory();
  const stats = useStats();
  const provider = providers.data?.providers.find((p) => p.id === id);
  const census = catalog.data?.sources.find((c) => c.id === id);
  const missing = providers.data !== undefined && provider === undefined;

  useEffect(() => {
    document.title = provider ? titleOf(provider.name) : missing ? "Source not found · asset-search" : "Sources · asset-search";
  }, [provider?.name, missing]);

  return (
    <>
      <SiteHeader path={location.pathname} />
      <main class="site-main source-page">
        <p class="back">
          <a href="/sources" onClick={followInApp}>
            <span aria-hidden="true">←</span> All sources
          </a>
        </p>
        {providers.failed ? (
          <>
            <h1>Source</h1>
            <p class="problem">The list of sources is not available right now: try again in a moment.</p>
          </>
        ) : missing ? (
          <>
            <h1>No such source</h1>
            <p>There is no source “{id}” here: the link may be mistyped, or the source was removed.</p>
          </>
        ) : !provider || !settled(catalog, history, stats) ? (
          <h1 aria-busy="true">Loading…</h1>
        ) : (
          <>
            <h1>{provider.name}</h1>
            <p class="lead">{provider.description}</p>
            <Facts provider={provider} census={census} health={stats.data?.providers.find((h) => h.provider === id)} period={healthPeriod(stats.data)} />

            <section aria-labelledby="census-heading">
              <h2 id="census-heading">Census</h2>
              {census ? (
                <SourceCensusView census={census} level={3} />
              ) : catalog.failed ? (
                <p>The census is not available right now.</p>
              ) : (
                <p>{provider.mode === "link" ? "Not counted: the site refuses robots, so nothing of it is counted." : "The census has no numbers for it."}</p>
              )}
            </section>

            {provider.mode !== "link" && (
              <section aria-labelledby="history-heading">
                <h2 id="history-heading">History</h2>
                {history.data ? <History id={id} history={history.data} /> : <p>The history is not available right now.</p>}
              </section>
            )}

            <section aria-labelledby="filters-heading">
              <h2 id="filters-heading">Filters and sorts</h2>
              <Filtering provider={provider} />
            </section>

            <section aria-labelledby="examples-heading">
              <h2 id="examples-heading">Example searches</h2>
              <ul class="example-list">
                {exampleSearches(provider, census).map((e) => (
                  <li key={e.href}>
                    <a class="chip" href={e.href} onClick={followInApp}>
                      {e.label}
                    </a>
                  </li>
                ))}
              </ul>
            </section>
          </>
        )}
      </main>
    </>
  );
}
