import type { Chrome } from '../../view-model.ts';
import { Document } from '../../layout/document.tsx';
import { stringsFor } from '../../i18n/catalogue.tsx';
import { Island } from '../../island.tsx';
import { AutoSubmit } from '../../islands/auto-submit.tsx';
import { RequestsPagination, RequestsTable, statusLabel, type PaginationModel, type RequestRow } from './requests-parts.tsx';

export interface StaffFilterOption {
  value: string;
  label: string;
}

export interface StaffRequestsModel {
  chrome: Chrome;
  action: string;
  /** The filters as chosen ('' is any). */
  chosen: { form: string; product: string; status: string };
  options: { forms: StaffFilterOption[]; products: StaffFilterOption[]; statuses: string[] };
  rows: RequestRow[];
  total: number;
  pagination?: PaginationModel | undefined;
  filtered: boolean;
}

/** Spec §6 vendor staff: every request, newest first, filtered by form, product and status with a GET form. */
export function StaffRequestsPage(model: StaffRequestsModel) {
  const { chrome } = model;
  const t = stringsFor(chrome.lang);
  const anyOf = (options: StaffFilterOption[]) => [{ value: '', label: t.requests.any }, ...options];
  const field = (name: 'form' | 'product' | 'status', label: string, options: StaffFilterOption[]) =>
    ({ id: `filter-${name}`, name, label, value: model.chosen[name], options: anyOf(options) });
  return (
    <Document chrome={chrome}>
      <div className="staff-requests">
        <h1>{t.requests.staffTitle}</h1>
        <form method="get" action={model.action} className="staff-filters" aria-labelledby="staff-filters-heading">
          <h2 id="staff-filters-heading" className="visually-hidden">{t.requests.filters}</h2>
          {/* With scripts, a changed filter applies at once (the auto-submit island); 'Filter' stays for no scripts. */}
          <Island name="auto-submit" hydrate="interaction" component={AutoSubmit} props={{
            fields: [
              field('form', t.requests.form, model.options.forms),
              field('product', t.requests.product, model.options.products),
              field('status', t.requests.status, model.options.statuses.map((s) => ({ value: s, label: statusLabel(t, s) }))),
            ],
            fieldClassName: 'requests-field',
            button: { label: t.requests.filter, inParagraph: true },
          }} />
          {model.filtered ? <p><a href={model.action}>{t.requests.resetFilters}</a></p> : null}
        </form>
        <p className="requests-count" role="status">{t.requests.count(model.total)}</p>
        {model.rows.length === 0 ? <p>{t.requests.staffEmpty}</p> : (
          <>
            <RequestsTable t={t} rows={model.rows} caption={t.requests.staffCaption} showUpdated staff />
            <RequestsPagination t={t} pagination={model.pagination} />
          </>
        )}
      </div>
    </Document>
  );
}
