/**
 * A table's figure per day, drawn on the server as SVG columns: one a day, or one for several days when
 * the range is long (each column's days are named in the figures below it). The figure is one image to
 * assistive technology, its description says the total, the busiest and the quietest period; every
 * period's figure is in the table under 'Figures per day', so nothing is told by the drawing alone.
 */
export interface DayValue {
  day: string;
  value: number;
}

/** The most columns drawn: a longer range draws a column for each run of days. */
export const MAX_COLUMNS = 62;
const WIDTH = 640;
const HEIGHT = 160;
const AXIS = 20;

export interface Period {
  from: string;
  to: string;
  value: number;
}

/** The days in runs of equal length (the last may be shorter), each with the sum of its days. */
export function periodsOf(days: DayValue[]): Period[] {
  const size = Math.max(1, Math.ceil(days.length / MAX_COLUMNS));
  const out: Period[] = [];
  for (let i = 0; i < days.length; i += size) {
    const run = days.slice(i, i + size);
    out.push({ from: run[0]!.day, to: run[run.length - 1]!.day, value: Math.round(run.reduce((t, d) => t + d.value, 0) * 10) / 10 });
  }
  return out;
}

const nameOf = (p: Period) => (p.from === p.to ? p.from : `${p.from} to ${p.to}`);

export function describeDays(periods: Period[], unit: string): string {
  if (periods.length === 0) return 'No days.';
  const total = Math.round(periods.reduce((t, p) => t + p.value, 0) * 10) / 10;
  if (total === 0) return `No ${unit} on any day.`;
  const most = periods.reduce((a, b) => (b.value > a.value ? b : a));
  const least = periods.reduce((a, b) => (b.value < a.value ? b : a));
  const per = periods[0]!.from === periods[0]!.to ? 'day' : 'period';
  return `${total} ${unit} in all, from ${periods[0]!.from} to ${periods[periods.length - 1]!.to}. The busiest ${per}: ${nameOf(most)}, ${most.value}; the quietest: ${nameOf(least)}, ${least.value}.`;
}

export function DailyChart({ id, title, days, unit }: { id: string; title: string; days: DayValue[]; unit: string }) {
  const periods = periodsOf(days);
  const top = Math.max(0, ...periods.map((p) => p.value));
  const max = Math.max(1, top);
  const step = WIDTH / Math.max(1, periods.length);
  const gap = step > 4 ? 1 : 0;
  const plot = HEIGHT - AXIS;
  const first = periods[0];
  const last = periods[periods.length - 1];
  return (
    <figure className="insights-figure insights-daily">
      <svg className="insights-chart" role="img" aria-labelledby={`${id}-title ${id}-desc`} viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%" preserveAspectRatio="xMinYMin meet" focusable="false">
        <title id={`${id}-title`}>{title}</title>
        <desc id={`${id}-desc`}>{describeDays(periods, unit)}</desc>
        {periods.map((p, i) => {
          const h = p.value > 0 ? Math.max(2, Math.round((p.value / max) * (plot - 16))) : 0;
          return <rect key={p.from} x={Math.round(i * step)} y={plot - h} width={Math.max(1, Math.round(step) - gap)} height={h} className="insights-chart-bar" />;
        })}
        <line x1={0} y1={plot} x2={WIDTH} y2={plot} className="insights-chart-axis" />
        <text x={0} y={12} className="insights-chart-label">{`most in a ${periods[0] && periods[0].from !== periods[0].to ? 'period' : 'day'}: ${top} ${unit}`}</text>
        {first ? <text x={0} y={HEIGHT - 4} className="insights-chart-label">{first.from}</text> : null}
        {last ? <text x={WIDTH} y={HEIGHT - 4} textAnchor="end" className="insights-chart-label">{last.to}</text> : null}
      </svg>
      <figcaption>
        <details className="insights-days">
          <summary>{`${title}: the figures`}</summary>
          <table>
            <caption className="visually-hidden">{title}</caption>
            <thead><tr><th scope="col">{periods.some((p) => p.from !== p.to) ? 'Days' : 'Day'}</th><th scope="col" className="num">{unit}</th></tr></thead>
            <tbody>{periods.map((p) => <tr key={p.from}><th scope="row">{nameOf(p)}</th><td className="num">{p.value}</td></tr>)}</tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
