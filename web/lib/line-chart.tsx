/**
 * A chart of one daily count for people who see it, and the same numbers as a table for those who
 * listen: the drawing is hidden from screen readers, the table from view. Its caption says the
 * latest count, or the day under the pointer. The chart's code (uPlot, web/lib/uplot-chart.ts) is
 * fetched when the first chart comes near the screen, never by the search page, and a chart is
 * drawn again when the colour scheme changes.
 */
import "uplot/dist/uPlot.min.css";
import { useEffect, useRef, useState } from "preact/hooks";
import { compact, counted, day } from "./numbers.ts";

const DARK = "(prefers-color-scheme: dark)";

/** Whether the element has come near the screen (and stays so once it has): a chart below the fold costs nothing until it is scrolled to. */
function useSeen(element: { current: Element | null }): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (!element.current || seen) return;
    const watch = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setSeen(true), { rootMargin: "200px" });
    watch.observe(element.current);
    return () => watch.disconnect();
  }, [seen]);
  return seen;
}

function useDarkScheme(): boolean {
  const [dark, setDark] = useState(() => matchMedia(DARK).matches);
  useEffect(() => {
    const query = matchMedia(DARK);
    const update = () => setDark(query.matches);
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return dark;
}

/** `days`: UTC days (YYYY-MM-DD), oldest first, with one value (or null, not counted) each. */
export function LineChart({ title, days, values }: { title: string; days: readonly string[]; values: readonly (number | null)[] }) {
  const box = useRef<HTMLDivElement>(null);
  const dark = useDarkScheme();
  const [failed, setFailed] = useState(false);
  const [pointed, setPointed] = useState<number | null>(null);
  const seen = useSeen(box);
  // Drawn again only when the numbers change, not on every render that passes equal arrays.
  const numbers = JSON.stringify([days, values]);
  useEffect(() => {
    if (!seen) return;
    let erase: (() => void) | undefined;
    let gone = false;
    import("./uplot-chart.ts").then(
      ({ drawChart }) => {
        if (!gone && box.current) erase = drawChart(box.current, days, values, { tick: compact, onPoint: setPointed });
      },
      () => setFailed(true),
    );
    return () => {
      gone = true;
      erase?.();
    };
  }, [numbers, dark, seen]);
  const latest = values.findLastIndex((v) => v !== null);
  const shown = pointed ?? latest;
  return (
    <figure class="chart">
      <figcaption>
        <span class="chart-title">{title}</span>
        {shown >= 0 && (
          <span class="chart-value">
            {counted(values[shown] ?? undefined)} <span class="muted">on {day(days[shown]!)}</span>
          </span>
        )}
      </figcaption>
      {failed ? <p class="muted">The chart could not be loaded; its numbers follow.</p> : <div class="chart-box" ref={box} aria-hidden="true" />}
      <table class={failed ? "data-table" : "visually-hidden"}>
        <caption>{title}, day by day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">{title}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d, i) => (
            <tr key={d}>
              <th scope="row">{day(d)}</th>
              <td>{counted(values[i] ?? undefined)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
