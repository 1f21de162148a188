/**
 * How each source took the search, folded into one line (so it never pushes the results down on a
 * phone) that opens into one chip per source: answered with its count, still searching, failed or
 * timed out (never the upstream's own error text), skipped and why, or a link to search the site
 * itself for sources that can only be linked to.
 */
import type { Provider, ProviderReport } from "../../core/schemas/index.ts";
import { webUrl } from "../lib/format.ts";
import { sourceName } from "../lib/providers.ts";
import { skipWhy } from "./labels.ts";

interface StripProps {
  reports: ProviderReport[];
  pending: string[];
  providers: Map<string, Provider>;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

function found(r: ProviderReport): string {
  if (r.count === 0 && !r.total) return "no results";
  const n = Math.max(r.count, r.total ?? 0);
  return `${n.toLocaleString()}${r.totalAtLeast ? "+" : ""}`;
}

export function StatusStrip({ reports, pending, providers }: StripProps) {
  const of = (status: ProviderReport["status"][]) => reports.filter((r) => status.includes(r.status));
  const answered = of(["ok"]);
  const failed = of(["error", "timeout"]);
  const skipped = of(["skipped"]);
  const linked = of(["link"]);
  const parts = [
    plural(answered.length, "answered", "answered"),
    pending.length > 0 && plural(pending.length, "searching", "searching"),
    failed.length > 0 && plural(failed.length, "failed", "failed"),
    skipped.length > 0 && plural(skipped.length, "skipped", "skipped"),
    linked.length > 0 && plural(linked.length, "to search on the site", "to search on their sites"),
  ].filter(Boolean);
  // Before the first answer the strip already holds its place, so the results do not move down when it fills.
  if (!reports.length && !pending.length) {
    return (
      <div class="status-strip">
        <p class="status-summary">
          <span class="status-title">Sources</span> asking…
        </p>
      </div>
    );
  }
  return (
    <details class="status-strip">
      <summary class="status-summary">
        <span class="status-title">Sources</span> {parts.join(" · ")}
      </summary>
      <ul class="status-list">
        {answered.map((r) => (
          <li key={r.provider} class={r.count || r.total ? "status ok" : "status none"}>
            {r.name} <span class="status-word">{found(r)}</span>
          </li>
        ))}
        {pending.map((id) => (
          <li key={id} class="status pending">
            {sourceName(providers, id)} <span class="status-word">searching…</span>
          </li>
        ))}
        {failed.map((r) => (
          <li key={r.provider} class="status failed">
            {r.name} <span class="status-word">{r.status === "timeout" ? "timed out" : "failed"}</span>
          </li>
        ))}
        {skipped.map((r) => (
          <li key={r.provider} class="status skipped">
            {r.name} <span class="status-word">skipped: {skipWhy(r.error)}</span>
          </li>
        ))}
        {linked.map((r) => {
          const href = webUrl(r.searchUrl);
          return (
            <li key={r.provider} class="status link">
              {href ? (
                <a href={href} target="_blank" rel="noopener">
                  Search on {r.name}
                  <span class="visually-hidden"> (opens a new tab)</span>
                </a>
              ) : (
                <>
                  {r.name} <span class="status-word">search on the site</span>
                </>
              )}
            </li>
          );
        })}
      </ul>
    </details>
  );
}
