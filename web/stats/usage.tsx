/**
 * The usage of the service as `/v1/stats` counts it: each window (24 h, 7 days, or since the
 * last restart) by surface, and the searches by client family, the MCP tools called and the type
 * filters asked. Counts only: the stats hold no query, address or user agent.
 */
import type { Ranked, UsageWindow } from "../../core/schemas/index.ts";
import { TYPE_NAMES } from "../search/labels.ts";

const MEASURES: readonly { label: string; value: (w: UsageWindow) => number; part?: boolean }[] = [
  { label: "Searches", value: (w) => w.searches },
  { label: "with results", value: (w) => w.searchesWithResults, part: true },
  { label: "from the web app", value: (w) => w.bySurface.web, part: true },
  { label: "through the API", value: (w) => w.bySurface.api, part: true },
  { label: "through MCP", value: (w) => w.bySurface.mcp, part: true },
  { label: "Asset views", value: (w) => w.assetViews },
  { label: "Downloads", value: (w) => w.downloads },
  { label: "Previews", value: (w) => w.previews },
  { label: "MCP tool calls", value: (w) => w.toolCalls },
  { label: "Pages served", value: (w) => w.pageViews },
];

export function UsageWindows({ windows }: { windows: readonly UsageWindow[] }) {
  return (
    <div class="table-scroll fit">
      <table class="data-table usage-table">
        <thead>
          <tr>
            <td />
            {windows.map((w) => (
              <th key={w.key} scope="col" class="num">
                {w.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {MEASURES.map((m) => (
            <tr key={m.label} class={m.part ? "part" : undefined}>
              <th scope="row">{m.label}</th>
              {windows.map((w) => (
                <td key={w.key} class="num">
                  {m.value(w).toLocaleString()}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** What a breakdown's names mean to people: `any` is a search without a type filter. */
const typeFilterName = (name: string) => (name === "any" ? "No type filter" : (TYPE_NAMES[name as keyof typeof TYPE_NAMES]?.many ?? name));

const BREAKDOWNS = [
  { key: "clients", title: "Searches by client", what: "Client", none: "No search yet.", name: (n: string) => n },
  { key: "tools", title: "MCP tool calls", what: "Tool", none: "No tool called yet.", name: (n: string) => n },
  { key: "assetTypes", title: "Searches by type filter", what: "Type filter", none: "No search yet.", name: typeFilterName },
] as const;

export function Breakdowns({ lists }: { lists: Record<(typeof BREAKDOWNS)[number]["key"], readonly Ranked[]> }) {
  return (
    <div class="breakdowns">
      {BREAKDOWNS.map((b) => {
        const list = lists[b.key];
        const most = Math.max(1, ...list.map((r) => r.count));
        return (
          <section key={b.key} class="breakdown" aria-labelledby={`${b.key}-heading`}>
            <h3 id={`${b.key}-heading`}>{b.title}</h3>
            {list.length === 0 ? (
              <p class="muted">{b.none}</p>
            ) : (
              <table class="data-table ranked-table" aria-labelledby={`${b.key}-heading`}>
                <thead>
                  <tr>
                    <th scope="col">{b.what}</th>
                    <th scope="col" class="num">
                      Count
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((r) => (
                    <tr key={r.name}>
                      <th scope="row">
                        {b.name(r.name)}
                        <span class="bar" aria-hidden="true" style={{ inlineSize: `${(100 * r.count) / most}%` }} />
                      </th>
                      <td class="num">{r.count.toLocaleString()}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
        );
      })}
    </div>
  );
}
