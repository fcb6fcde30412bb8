import type { Chrome } from '../../view-model.ts';
import { Document } from '../../layout/document.tsx';
import { stringsFor } from '../../i18n/catalogue.tsx';

export interface RequestNotFoundModel {
  chrome: Chrome;
  listHref: string;
  /** Anonymous visitors: sign in and come back here (the request may be theirs). */
  signInHref?: string | undefined;
}

/**
 * A reference this visitor may not see, that does not exist, or that is malformed: the same page for all
 * three, so it never tells whether a reference exists (issue "Errors and safety").
 */
export function RequestNotFoundPage({ chrome, listHref, signInHref }: RequestNotFoundModel) {
  const t = stringsFor(chrome.lang);
  return (
    <Document chrome={chrome}>
      <div className="request-not-found">
        <h1>{t.requests.notFoundTitle}</h1>
        <p>{t.requests.notFoundText}</p>
        {signInHref ? <p><a className="button-link" href={signInHref}>{t.requests.notFoundSignIn}</a></p> : null}
        <p><a href={listHref}>{t.requests.backToList}</a></p>
      </div>
    </Document>
  );
}
