import * as core from "@actions/core";
import type { Catalog } from "../core/schemas/index.ts";
import type { SourceOutcome } from "./guard.ts";
import { failed } from "./guard.ts";

export interface RunReport {
  catalog: Catalog;
  outcomes: readonly SourceOutcome[];
  /** The set published, when one was. */
  set?: string;
  /** Why nothing was published (pipeline/guard.ts). */
  refused?: string;
}

/** @actions/core writes summary text and table cells into the page's HTML as they are: a source's error message must not become markup. */
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const total = ({ count, atLeast }: { count: number; atLeast?: boolean }) => `${count}${atLeast ? "+" : ""}`;

/** The run's one-line result, for the log and the summary. */
export function headline(r: RunReport): string {
  const { totals } = r.catalog;
  const failures = r.outcomes.filter(failed).length;
  const counted = `${total(totals.listings)} listings from ${totals.sourcesCounted} sources (${totals.sourcesLinked} linked only), ${failures} failed`;
  return r.refused ? `${counted}. ${r.refused}` : `${counted}; published ${r.set}`;
}

/** The job summary: the headline and one row per source. */
export function writeSummary(r: RunReport): typeof core.summary {
  const header = ["source", "census", "crawl", "assets", "ms", "error"].map((data) => ({ data, header: true }));
  const rows = r.outcomes.map((o) => [o.id, o.census, o.crawl, String(o.assets), String(o.tookMs), o.error ?? ""].map(escapeHtml));
  return core.summary
    .addHeading(escapeHtml(`Catalog census ${r.catalog.countedAt}`), 2)
    .addRaw(`<p>${escapeHtml(headline(r))}</p>`, true)
    .addTable([header, ...rows]);
}

/**
 * What GitHub Actions shows of a run: an error annotation per failed source (a warning for a source
 * that lost some records only), the outputs `listings` and `sources_failed`, the job summary when
 * the job has one, and a failed step when nothing was published.
 */
export async function reportRun(r: RunReport, env: Record<string, string | undefined> = process.env): Promise<void> {
  for (const o of r.outcomes) {
    if (failed(o)) core.error(o.error ?? `${o.id} failed`, { title: `${o.id} failed` });
    else if (o.error) core.warning(o.error, { title: o.id });
  }
  core.setOutput("listings", r.catalog.totals.listings.count);
  core.setOutput("sources_failed", r.outcomes.filter(failed).length);
  core.info(headline(r));
  if (env.GITHUB_STEP_SUMMARY) await writeSummary(r).write();
  if (r.refused) core.setFailed(r.refused);
}
