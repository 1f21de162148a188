/**
 * `/stats`: how the service is used and how its sources answer (`/v1/stats`, asked again each
 * minute, the pace of its cache), and the census day by day (`/catalog-history.json`) as charts,
 * each with its numbers as a table for screen readers.
 */
import "../styles/stats.css";
import { useEffect } from "preact/hooks";
import type { Provider, Stats } from "../../core/schemas/index.ts";
import { day } from "../lib/numbers.ts";
import { useCatalog, useHistory, useStats } from "../lib/site-data.ts";
import { SiteHeader } from "../lib/site-header.tsx";
import { settled, useJson } from "../lib/use-json.ts";
import { healthPeriod } from "../sources/facts.ts";
import { ByType, CensusHistory, TypeHistory } from "./census-history.tsx";
import { HealthTable } from "./health.tsx";
import { Breakdowns, UsageWindows } from "./usage.tsx";

export const STATS_TITLE = "Usage and health · asset-search";

const time = (iso: string) => new Date(iso).toLocaleTimeString(undefined, { timeStyle: "short" });

/** Where the counts come from, in a sentence. */
function origin(stats: Stats): string {
  const counted =
    stats.source === "metrics"
      ? "Counted by the metrics system across every replica"
      : `Counted by this server since it started${stats.since ? ` on ${day(stats.since)} at ${time(stats.since)}` : ""}`;
  return `${counted}; updated at ${time(stats.generatedAt)}, every minute while this page is open.`;
}

export function StatsPage({ location }: { location: URL }) {
  const stats = useStats();
  const history = useHistory();
  const catalog = useCatalog();
  const providers = useJson<{ providers: Provider[] }>("/v1/providers");
  const names = new Map((providers.data?.providers ?? []).map((p) => [p.id, p.name]));
  useEffect(() => {
    document.title = STATS_TITLE;
  }, []);
  const s = stats.data;

  return (
    <>
      <SiteHeader path={location.pathname} />
      <main class="site-main stats-page">
        <h1>Usage and health</h1>
        <p class="lead">How much the service is used, on which surface, how its live sources answer, and what the daily census has counted over time.</p>

        {!settled(stats, history, catalog, providers) ? (
          <p class="muted" aria-busy="true">
            Loading the statistics…
          </p>
        ) : (
          <>
            <section aria-labelledby="usage-heading">
              <h2 id="usage-heading">Usage</h2>
              {!s ? (
                <p class="problem">The statistics are not available right now: try again in a moment.</p>
              ) : (
                <>
                  <p class="note">{origin(s)}</p>
                  {s.note && <p class="stale-note">{s.note}</p>}
                  <UsageWindows windows={s.windows} />
                  <p class="note">Searches by client, MCP tool calls and type filters, {s.breakdownLabel.toLowerCase()}:</p>
                  <Breakdowns lists={{ clients: s.clients, tools: s.tools, assetTypes: s.assetTypes }} />
                </>
              )}
            </section>

            {s && (
              <section aria-labelledby="health-heading">
                <h2 id="health-heading">Source health</h2>
                <p class="note">Searches that reached each live source (indexed sources answer from the index), {healthPeriod(s)}.</p>
                <HealthTable health={s.providers} names={names} />
              </section>
            )}

            <section aria-labelledby="history-heading">
              <h2 id="history-heading">Census history</h2>
              {history.failed ? (
                <p>The census history is not available right now.</p>
              ) : !history.data || history.data.points.length === 0 ? (
                <p>No census has been published yet.</p>
              ) : (
                <>
                  <CensusHistory history={history.data} />
                  <h3 id="type-history-heading">By type, day by day</h3>
                  <TypeHistory history={history.data} />
                </>
              )}
              {catalog.data && (
                <>
                  <h3 id="by-type-heading">By type, on {day(catalog.data.countedAt)}</h3>
                  <ByType catalog={catalog.data} />
                </>
              )}
            </section>
          </>
        )}
      </main>
    </>
  );
}
