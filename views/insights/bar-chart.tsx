/**
 * A horizontal bar chart drawn on the server as SVG: each bar carries its label and its number as text,
 * so nothing is told by colour alone, and the figure is one image to assistive technology (its title and
 * description say what it shows; the table beside it has every number).
 */
export interface Bar {
  label: string;
  value: number;
}

const WIDTH = 640;
const ROW = 40;
const LABEL_MAX = 60;

const clip = (s: string) => (s.length > LABEL_MAX ? `${s.slice(0, LABEL_MAX - 1)}…` : s);

export function BarChart({ id, title, description, bars, unit }: { id: string; title: string; description: string; bars: Bar[]; unit: string }) {
  const max = Math.max(1, ...bars.map((b) => b.value));
  // Bars of nothing draw nothing: the chart says so above them, rather than look empty or broken.
  const top = allZero(bars) ? ROW : 0;
  const height = Math.max(ROW, top + bars.length * ROW);
  return (
    <svg className="insights-chart" role="img" aria-labelledby={`${id}-title ${id}-desc`} viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%" preserveAspectRatio="xMinYMin meet" focusable="false">
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {top ? <text x={0} y={24} className="insights-chart-note">{noData(unit)}</text> : null}
      {bars.map((b, i) => {
        const y = top + i * ROW;
        const w = Math.max(2, Math.round((b.value / max) * (WIDTH - 4)));
        return (
          <g key={i}>
            <text x={0} y={y + 14} className="insights-chart-label">{`${clip(b.label)}: ${b.value} ${unit}`}</text>
            <rect x={0} y={y + 20} width={w} height={14} className="insights-chart-bar" />
          </g>
        );
      })}
    </svg>
  );
}

const allZero = (bars: Bar[]) => bars.length > 0 && bars.every((b) => b.value === 0);
const noData = (unit: string) => `No data to draw: every value is 0 ${unit}.`;

/** The chart's description: the bars in words, biggest first as drawn. */
export function describeBars(bars: Bar[], unit: string): string {
  if (bars.length === 0) return 'No data.';
  return (allZero(bars) ? `${noData(unit)} ` : '') + bars.map((b) => `${b.label}: ${b.value} ${unit}`).join('; ') + '.';
}
