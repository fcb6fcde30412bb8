/**
 * Spec §6 vendor staff / issue "The help journey, closed": every request, newest first, with filters by
 * form, product and status as a plain GET form. Whoever is not staff finds no such page.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Config } from '../../config.ts';
import { stringsFor } from '../../../views/i18n/catalogue.tsx';
import { StaffRequestsPage } from '../../../views/pages/support/staff-requests-page.tsx';
import { readerOf } from './access.ts';
import { PAGE_SIZE, type PageKit } from './page-kit.tsx';
import { REQUEST_STATUSES } from './statuses.ts';

export const StaffQuerySchema = Type.Object({
  form: Type.Optional(Type.String({ maxLength: 200 })),
  product: Type.Optional(Type.String({ maxLength: 200 })),
  status: Type.Optional(Type.String({ maxLength: 100 })),
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
}, { additionalProperties: true });
type StaffQuery = Static<typeof StaffQuerySchema>;

export const PATH = '/staff/requests';

export default async function staffRoutes(app: FastifyInstance, opts: { config: Config; kit: PageKit }) {
  const { config, kit } = opts;
  const t = stringsFor('en').requests;

  app.get<{ Querystring: StaffQuery }>(PATH, { schema: { querystring: StaffQuerySchema } }, async (request, reply) => {
    const reader = await readerOf(app, request, config);
    if (!reader.visitor.staff) return kit.notFound(request, reply);
    // A filter left at 'Any' arrives empty.
    const chosen = { form: request.query.form ?? '', product: request.query.product ?? '', status: request.query.status ?? '' };
    const page = request.query.page ?? 1;
    const [facets, { requests, total }] = await Promise.all([
      app.supportRequests.facets(),
      app.supportRequests.listAll({
        formId: chosen.form || undefined, product: chosen.product || undefined, status: chosen.status || undefined,
        limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE,
      }),
    ]);
    const hrefOf = (n: number) => {
      const query = new URLSearchParams();
      for (const [k, v] of Object.entries(chosen)) if (v) query.set(k, v);
      if (n > 1) query.set('page', String(n));
      const q = query.toString();
      return q ? `${PATH}?${q}` : PATH;
    };
    const pagination = kit.pagination(page, total, hrefOf);
    if (requests.length === 0 && total > 0) return reply.redirect(hrefOf(pagination.pages), 303);
    const names = await kit.productNames([...facets.products, ...requests.map((r) => r.product)]);
    const chrome = await kit.chrome(request, { title: t.staffTitle, path: PATH });
    return reply.page(
      <StaffRequestsPage chrome={chrome} action={PATH} chosen={chosen} total={total} pagination={pagination}
        filtered={Object.values(chosen).some(Boolean)}
        options={{
          forms: facets.formIds.map((f) => ({ value: f, label: f })),
          products: facets.products.map((p) => ({ value: p, label: names.get(p) ?? p })),
          // Every status the helpdesk may set, and any other one stored.
          statuses: [...new Set([...REQUEST_STATUSES, ...facets.statuses])],
        }}
        rows={requests.map((r) => kit.row(r, names, true))} />,
      { cache: 'private' },
    );
  });
}
