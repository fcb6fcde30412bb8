import type { Chrome } from '../../view-model.ts';
import { Document } from '../../layout/document.tsx';
import { stringsFor } from '../../i18n/catalogue.tsx';

export interface RequestSentModel {
  chrome: Chrome;
  reference: string;
  subject: string;
  /** Where the answer goes; left out for a report without an address. */
  email?: string | undefined;
  report: boolean;
  /** A signed-in owner's link to the request (the requests pages). */
  requestHref?: string | undefined;
  /** The private link to follow and answer the request without signing in (anonymous requesters). */
  linkHref?: string | undefined;
  /** The page a report or feedback request was about. */
  pageHref?: string | undefined;
  homeHref: string;
}

/** The confirmation after a request is stored (post/redirect/get): its reference, and where to go next. */
export function RequestSentPage({ chrome, reference, subject, email, report, requestHref, linkHref, pageHref, homeHref }: RequestSentModel) {
  const t = stringsFor(chrome.lang).supportForm;
  return (
    <Document chrome={chrome}>
      <div className="request-sent">
        <h1>{report ? t.sentReportTitle : t.sentTitle}</h1>
        <div className="request-sent-panel" role="status">
          <p>{report ? t.sentReportLead : t.sentLead}</p>
          <p className="request-reference"><span className="visually-hidden">{t.sentReference}: </span><strong data-reference={reference}>{reference}</strong></p>
        </div>
        <dl className="request-sent-details">
          <dt>{t.sentSubject}</dt>
          <dd>{subject}</dd>
        </dl>
        {email ? <p>{t.sentEmail(email)}</p> : null}
        <ul className="request-sent-next">
          {requestHref ? <li><a href={requestHref}>{t.viewRequest}</a></li> : null}
          {linkHref && !requestHref ? <li><a href={linkHref}>{t.followLink}</a></li> : null}
          {pageHref ? <li><a href={pageHref}>{t.backToPage}</a></li> : null}
          <li><a href={homeHref}>{t.backHome}</a></li>
        </ul>
      </div>
    </Document>
  );
}
