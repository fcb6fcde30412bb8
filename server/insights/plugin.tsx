/**
 * Insights for staff (issue 17): /insights (the overview), /insights/searches and /insights/pages, and
 * each table as CSV at /insights/{section}/{table}.csv. Spec §6 vendor staff only: anybody else, signed in
 * or not, gets the site's not-found page, as for /staff/requests. Everything is `private, no-store` and
 * `noindex`; the date range and product are query parameters of a plain GET form, kept in every link.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { requestVisitor } from '../identity/roles.ts';
import { loaderContext } from '../pages/loaders/shared.ts';
import { notFoundPage } from '../pages/loaders/not-found.tsx';
import { InsightsPage, type InsightsFilterModel, type InsightsPageModel } from '../../views/pages/insights-page.tsx';
import { toCsv } from './csv.ts';
import { SECTIONS, SECTION_TITLES, TABLES, isSection, loadSection, loadTable, type Section } from './tables.ts';
import { parseFilters, type Filters } from './filters.ts';
import { INSIGHTS_PATH } from './site-pages.ts';

const BASE = INSIGHTS_PATH;
const TITLE = 'Insights';

export default async function insights(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  const loaders = loaderContext(app, config);

  // Every answer here, the not-found page and 400s included, belongs to one visitor (after cache-rules' own hook).
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'private, no-store');
    return payload;
  });

  const isStaff = async (request: FastifyRequest) => (await requestVisitor(app, request, config)).staff;

  async function notFound(request: FastifyRequest, reply: FastifyReply) {
    const loaded = await notFoundPage(loaders, request);
    return reply.page(loaded.view, { status: 404, cache: 'private' });
  }

  /** The products a filter offers: every product entry of the content, by name. */
  async function products(): Promise<{ value: string; label: string }[]> {
    const entries = await app.content.ofType('product', { preview: false });
    return entries.map((e) => {
      const f = e.fields as { productName?: string; deployment?: string };
      const name = f.productName ?? e.title ?? e.id;
      return { value: e.id, label: f.deployment ? `${name} (${f.deployment})` : name };
    }).sort((a, b) => a.label.localeCompare(b.label));
  }

  const queryOf = (f: Filters) => new URLSearchParams({ from: f.from, to: f.to, ...(f.product ? { product: f.product } : {}) }).toString();

  async function render(request: FastifyRequest, reply: FastifyReply, section: Section | null) {
    const options = await products();
    const parsed = parseFilters(request.query, options.map((o) => o.value), new Date());
    const path = section ? `${BASE}/${section}` : BASE;
    const title = section ? `${TITLE}: ${SECTION_TITLES[section]}` : TITLE;
    const shown = parsed.ok ? parsed.filters : parsed.shown;
    const query = queryOf(shown);
    const filter: InsightsFilterModel = {
      action: path, from: shown.from, to: shown.to, product: shown.product, products: options,
      error: parsed.ok ? undefined : parsed.error,
    };
    const chrome = { ...(await loaders.chrome(request, { title, path, language: 'en-US', preview: false })), noindex: true };
    const model: InsightsPageModel = {
      chrome, title, filter, tables: [],
      nav: [{ href: `${BASE}?${query}`, label: 'Overview', current: section === null },
        ...SECTIONS.map((s) => ({ href: `${BASE}/${s}?${query}`, label: SECTION_TITLES[s], current: s === section }))],
    };
    if (parsed.ok && section) {
      model.tables = (await loadSection(app.dbRead, section, parsed.filters)).map((t) => ({ ...t, csvHref: `${BASE}/${section}/${t.id}.csv?${query}` }));
    } else if (!section) {
      model.contents = SECTIONS.map((s) => ({
        href: `${BASE}/${s}?${query}`, label: SECTION_TITLES[s],
        tables: Object.entries(TABLES[s]).map(([id, spec]) => ({ href: `${BASE}/${s}?${query}#${id}`, label: spec.title })),
      }));
    }
    reply.header('x-robots-tag', 'noindex, nofollow');
    return reply.page(<InsightsPage {...model} />, { status: parsed.ok ? 200 : 400, cache: 'private' });
  }

  app.get(BASE, async (request, reply) => {
    if (!(await isStaff(request))) return notFound(request, reply);
    return render(request, reply, null);
  });

  app.get<{ Params: { section: string } }>(`${BASE}/:section`, async (request, reply) => {
    const { section } = request.params;
    if (!isSection(section) || !(await isStaff(request))) return notFound(request, reply);
    return render(request, reply, section);
  });

  app.get<{ Params: { section: string; file: string } }>(`${BASE}/:section/:file`, async (request, reply) => {
    const { section, file } = request.params;
    const id = file.endsWith('.csv') ? file.slice(0, -'.csv'.length) : '';
    if (!isSection(section) || !id || !Object.hasOwn(TABLES[section], id) || !(await isStaff(request))) return notFound(request, reply);
    reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex, nofollow');
    const parsed = parseFilters(request.query, (await products()).map((o) => o.value), new Date());
    if (!parsed.ok) return reply.code(400).type('text/plain; charset=utf-8').send(`${parsed.error.field}: ${parsed.error.message}\n`);
    const table = await loadTable(app.dbRead, section, id, parsed.filters, { trend: true });
    if (!table) return notFound(request, reply);
    const name = `insights-${section}-${id}-${parsed.filters.from}-to-${parsed.filters.to}${parsed.filters.product ? `-${parsed.filters.product}` : ''}.csv`;
    return reply.type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`)
      .send(toCsv(table.columns, table.rows.map((row) => row.map((c) => c.text))));
  });
}
