import type { Strings } from '../../i18n/catalogue.tsx';
import { formatUpdated } from '../../parts/dates.ts';

/** One request in a list: what the visitor needs to recognise it (issue "Requests the visitor can follow"). */
export interface RequestRow {
  reference: string;
  href: string;
  subject: string;
  /** The product's name, when the request names one. */
  product?: string | undefined;
  status: string;
  createdAt: string;
  updatedAt: string;
  /** Staff list only: who sent it (name or e-mail). */
  from?: string | undefined;
  /** Staff list only: the form it was sent with. */
  formId?: string | undefined;
  /** Changed since the account last opened it (a status, a reply). */
  changed?: boolean | undefined;
}

export interface PaginationModel {
  page: number;
  pages: number;
  previousHref?: string | undefined;
  nextHref?: string | undefined;
}

export const statusLabel = (t: Strings, status: string) => t.requests.statuses[status] ?? status;

export const dateOf = (t: Strings, iso: string) => formatUpdated(iso, t.locale);

/** A request list as a table: a caption, a column per field, the reference linking to the request. */
export function RequestsTable({ t, rows, caption, showUpdated, staff }: {
  t: Strings; rows: RequestRow[]; caption: string; showUpdated?: boolean; staff?: boolean;
}) {
  return (
    <div className="table-scroll requests-table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="requests-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t.requests.reference}</th>
            <th scope="col">{t.requests.subject}</th>
            <th scope="col">{t.requests.product}</th>
            {staff ? <th scope="col">{t.requests.form}</th> : null}
            {staff ? <th scope="col">{t.requests.from}</th> : null}
            <th scope="col">{t.requests.status}</th>
            <th scope="col">{t.requests.date}</th>
            {showUpdated ? <th scope="col">{t.requests.updated}</th> : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.reference}>
              <th scope="row"><a href={r.href}>{r.reference}</a></th>
              <td>{r.subject}{r.changed ? <> <strong className="request-changed">{t.requests.changed}</strong></> : null}</td>
              <td>{r.product ?? t.requests.none}</td>
              {staff ? <td>{r.formId}</td> : null}
              {staff ? <td>{r.from}</td> : null}
              <td><span className={`request-status request-status-${r.status}`}>{statusLabel(t, r.status)}</span></td>
              <td><time dateTime={r.createdAt}>{dateOf(t, r.createdAt)}</time></td>
              {showUpdated ? <td><time dateTime={r.updatedAt}>{dateOf(t, r.updatedAt)}</time></td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Previous and next as plain links, with where the visitor is. */
export function RequestsPagination({ t, pagination }: { t: Strings; pagination: PaginationModel | undefined }) {
  if (!pagination || pagination.pages <= 1) return null;
  return (
    <nav aria-label={t.requests.pagination} className="requests-pagination">
      <ul>
        {pagination.previousHref ? <li><a href={pagination.previousHref} rel="prev">{t.requests.previous}</a></li> : null}
        <li aria-current="page">{t.requests.pageOf(pagination.page, pagination.pages)}</li>
        {pagination.nextHref ? <li><a href={pagination.nextHref} rel="next">{t.requests.next}</a></li> : null}
      </ul>
    </nav>
  );
}
