/**
 * A line chart of daily values drawn by uPlot: loaded on first use (web/lib/line-chart.tsx), so
 * only the pages with a chart fetch it. Its colours are the page's own (web/styles/site.css), read
 * when it is drawn; a day is a UTC day, so the axis is written in UTC whatever the visitor's zone.
 */
import uPlot from "uplot";

const DAY = 86_400;
const HEIGHT = 200;
/** Steps between the axis's labels: whole days, then weeks and months as the history grows. */
const STEPS = [1, 2, 7, 14, 28, 56, 91, 182, 364].map((days) => days * DAY);
const dayLabel = uPlot.fmtDate("{MMM} {D}");
const utc = (ts: number) => uPlot.tzDate(new Date(ts * 1e3), "Etc/UTC");

/**
 * Draws into `box`; `tick` writes the counts on the axis, `onPoint` hears the day under the pointer
 * (null when it leaves). They are the page's, passed in, so that this chunk shares no module with
 * the entry (which would then load one more file for every page). Returns what erases the chart.
 */
export function drawChart(
  box: HTMLElement,
  days: readonly string[],
  values: readonly (number | null)[],
  { tick, onPoint }: { tick: (n: number) => string; onPoint: (i: number | null) => void },
): () => void {
  const style = getComputedStyle(box);
  const colour = (name: string) => style.getPropertyValue(name).trim();
  const axis: uPlot.Axis = {
    stroke: colour("--muted"),
    grid: { stroke: colour("--chart-grid"), width: 1 },
    ticks: { stroke: colour("--chart-grid"), width: 1, size: 6 },
    font: `12px ${style.fontFamily}`,
  };
  const chart = new uPlot(
    {
      width: box.clientWidth,
      height: HEIGHT,
      tzDate: utc,
      scales: {
        // Half a day either side, so the first and last points are not cut by the frame (and one point has a width).
        x: { time: true, range: (_u, min, max) => [min - DAY / 2, max + DAY / 2] },
        // From zero: a count that grows by a hundred on thousands must not look as if it doubled.
        y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] },
      },
      axes: [
        { ...axis, space: 70, incrs: STEPS, values: (_u, splits) => splits.map((s) => dayLabel(utc(s))) },
        { ...axis, size: 52, values: (_u, ticks) => ticks.map(tick) },
      ],
      series: [{}, { stroke: colour("--chart-line"), width: 2, points: { show: true, size: 7, fill: colour("--chart-line") } }],
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      hooks: { setCursor: [(u) => onPoint(u.cursor.idx ?? null)] },
    },
    [days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000), [...values]],
    box,
  );
  const resize = new ResizeObserver(() => chart.setSize({ width: box.clientWidth, height: HEIGHT }));
  resize.observe(box);
  return () => {
    resize.disconnect();
    chart.destroy();
  };
}
