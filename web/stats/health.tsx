/** How each source's searches went, as `/v1/stats` counts them: every live source, and any other a search reached. */
import type { ProviderHealth } from "../../core/schemas/index.ts";
import { followInApp } from "../lib/location.ts";
import { duration, percent } from "../lib/numbers.ts";

export function HealthTable({ health, names }: { health: readonly ProviderHealth[]; names: Map<string, string> }) {
  return (
    <div class="table-scroll">
      <table class="data-table health-table">
        <thead>
          <tr>
            <th scope="col">Source</th>
            {["Searches", "OK", "Errors", "Timeouts", "OK rate", "p50", "p95"].map((label) => (
              <th key={label} scope="col" class="num">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {health.map((h) => (
            <tr key={h.provider}>
              <th scope="row">
                <a href={`/sources/${encodeURIComponent(h.provider)}`} onClick={followInApp}>
                  {names.get(h.provider) ?? h.provider}
                </a>
              </th>
              <td class="num">{h.requests.toLocaleString()}</td>
              <td class="num">{h.ok.toLocaleString()}</td>
              <td class={h.errors > 0 ? "num bad" : "num"}>{h.errors.toLocaleString()}</td>
              <td class={h.timeouts > 0 ? "num bad" : "num"}>{h.timeouts.toLocaleString()}</td>
              <td class="num">{percent(h.okRate)}</td>
              <td class="num">{duration(h.p50Ms)}</td>
              <td class="num">{duration(h.p95Ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
