/**
 * The staff insights section (issue 17): what visitors search for and fail to find, and which pages do
 * not help. Server-rendered; the filters are a plain GET form, each table has its chart (SVG drawn here)
 * and a CSV link.
 */
import type { Chrome } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { BarChart, describeBars, type Bar } from '../insights/bar-chart.tsx';
import { DailyChart, type DayValue } from '../insights/daily-chart.tsx';

export interface InsightsCell {
  text: string;
  href?: string | undefined;
}

export interface InsightsTableModel {
  id: string;
  title: string;
  about: string;
  columns: string[];
  numeric: boolean[];
  rows: InsightsCell[][];
  chart: { label: number; value: number; unit: string };
  /** The range's total of the table's daily figure against the previous range of the same length. */
  trend?: { unit: string; current: number; previous: number; previousFrom: string; previousTo: string } | undefined;
  /** The table's daily figure over the range. */
  daily?: DayValue[] | undefined;
  csvHref: string;
}

export interface InsightsFilterModel {
  action: string;
  from: string;
  to: string;
  product: string;
  products: { value: string; label: string }[];
  /** A value that could not be used, and why (the page answers 400). */
  error?: { field: 'from' | 'to' | 'product'; message: string } | undefined;
}

export interface InsightsPageModel {
  chrome: Chrome;
  title: string;
  /** The section links, with the filters kept. */
  nav: { href: string; label: string; current: boolean }[];
  filter: InsightsFilterModel;
  /** A section's tables; none on the overview or when the filters are wrong. */
  tables: InsightsTableModel[];
  /** The overview: each section with links to its tables. */
  contents?: { href: string; label: string; tables: { href: string; label: string }[] }[] | undefined;
}

const CHART_BARS = 10;

export function InsightsPage(model: InsightsPageModel) {
  return (
    <Document chrome={model.chrome}>
      <div className="insights">
        <h1>{model.title}</h1>
        <nav aria-label="Insights sections" className="insights-nav">
          <ul>
            {model.nav.map((n) => (
              <li key={n.href}><a href={n.href} aria-current={n.current ? 'page' : undefined}>{n.label}</a></li>
            ))}
          </ul>
        </nav>
        <FilterForm filter={model.filter} />
        {model.contents ? (
          <ul className="insights-contents">
            {model.contents.map((s) => (
              <li key={s.href}>
                <a href={s.href}>{s.label}</a>
                <ul>{s.tables.map((x) => <li key={x.href}><a href={x.href}>{x.label}</a></li>)}</ul>
              </li>
            ))}
          </ul>
        ) : null}
        {model.tables.map((table) => <TableSection key={table.id} table={table} />)}
      </div>
    </Document>
  );
}

function FilterForm({ filter }: { filter: InsightsFilterModel }) {
  const error = filter.error;
  const invalid = (field: 'from' | 'to' | 'product') => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': 'insights-filter-error' } : {});
  return (
    <form method="get" action={filter.action} className="insights-filters" aria-labelledby="insights-filters-heading">
      <h2 id="insights-filters-heading">Date range and product</h2>
      {error ? <p id="insights-filter-error" className="insights-error" role="alert">{error.message}</p> : null}
      <div className="insights-fields">
        <p className="insights-field">
          <label htmlFor="insights-from">From (YYYY-MM-DD)</label>
          <input id="insights-from" name="from" type="date" defaultValue={filter.from} {...invalid('from')} />
        </p>
        <p className="insights-field">
          <label htmlFor="insights-to">To (YYYY-MM-DD)</label>
          <input id="insights-to" name="to" type="date" defaultValue={filter.to} {...invalid('to')} />
        </p>
        <p className="insights-field">
          <label htmlFor="insights-product">Product</label>
          <select id="insights-product" name="product" defaultValue={filter.product} {...invalid('product')}>
            <option value="">All products</option>
            {filter.products.map((p) => <option key={p.value} value={p.value}>{p.label}</option>)}
          </select>
        </p>
        <p className="insights-field"><button type="submit" className="primary-button">Apply</button></p>
      </div>
    </form>
  );
}

/** The range's total against the previous range's, in words (the figures are the daily chart's). */
export function trendText(t: NonNullable<InsightsTableModel['trend']>): string {
  const delta = Math.round((t.current - t.previous) * 10) / 10;
  const change = delta === 0 ? 'no change' : `${delta > 0 ? 'up' : 'down'} ${Math.abs(delta)}${t.previous > 0 ? ` (${delta > 0 ? '+' : '−'}${(Math.abs(delta) / t.previous * 100).toFixed(1)}%)` : ''}`;
  return `${t.current} ${t.unit} in this range; ${t.previous} in the previous ${t.previousFrom} to ${t.previousTo}: ${change}.`;
}

function TableSection({ table }: { table: InsightsTableModel }) {
  const headingId = `insights-${table.id}`;
  const bars: Bar[] = table.rows.slice(0, CHART_BARS).map((row) => ({
    label: row[table.chart.label]?.text ?? '', value: Number.parseFloat(row[table.chart.value]?.text ?? '') || 0,
  }));
  return (
    <section className="insights-table" aria-labelledby={headingId} id={table.id}>
      <h2 id={headingId}>{table.title}</h2>
      <p>{table.about}</p>
      {table.trend ? <p className="insights-trend">{trendText(table.trend)}</p> : null}
      {table.rows.length === 0 ? <p className="insights-empty">Nothing recorded for these filters.</p> : (
        <div className="insights-pair">
          <figure className="insights-figure">
            <BarChart id={`chart-${table.id}`} title={`${table.title}: ${table.chart.unit}`} description={describeBars(bars, table.chart.unit)}
              bars={bars} unit={table.chart.unit} />
            <figcaption>{table.title}{table.rows.length > CHART_BARS ? ` (the first ${CHART_BARS} of ${table.rows.length}; every row is in the table)` : ''}</figcaption>
          </figure>
          <div className="table-scroll" role="region" aria-label={`${table.title}, table`} tabIndex={0}>
            <table>
              <caption className="visually-hidden">{table.title}</caption>
              <thead>
                <tr>{table.columns.map((c, i) => <th key={c} scope="col" className={table.numeric[i] ? 'num' : undefined}>{c}</th>)}</tr>
              </thead>
              <tbody>
                {table.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, i) => {
                      const content = cell.href ? <a href={cell.href}>{cell.text}</a> : cell.text;
                      return i === 0
                        ? <th key={i} scope="row">{content}</th>
                        : <td key={i} className={table.numeric[i] ? 'num' : undefined}>{content}</td>;
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
      {table.daily && table.trend && table.trend.current > 0 ? (
        <DailyChart id={`daily-${table.id}`} title={`${table.title}: ${table.trend.unit} per day`} days={table.daily} unit={table.trend.unit} />
      ) : null}
      <p><a href={table.csvHref} download>Download {table.title.toLowerCase()} as CSV</a></p>
    </section>
  );
}
