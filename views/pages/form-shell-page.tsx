import type { FormShellModel } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { LinkList } from '../parts/links.tsx';
import { stringsOf } from '../i18n/catalogue.tsx';

/** The file-download form's frame height in pixels (spec §9). */
export const FILE_DOWNLOAD_FORM_HEIGHT = 500;

/**
 * Contact, hot-contact, partner, status-page, requests and file-download pages (spec §2): the header, a
 * title, and the region where the external form app mounts. Until it does (or without JavaScript) the
 * region holds plain links to the same place.
 */
export function FormShellPage({ chrome, kind, title, tagline, formUrl, partnerPortalHref, otherContacts }: FormShellModel) {
  const t = stringsOf(chrome);
  const requestsHref = formUrl ?? `${chrome.header.supportBase}/requests`;
  return (
    <Document chrome={chrome}>
      <div className={`form-shell form-shell-${kind}`}>
        <h1>{title}</h1>
        {tagline ? <p className="tagline">{tagline}</p> : null}
        <div
          className="form-mount"
          data-island="support-form" data-hydrate="load"
          data-form-kind={kind}
          data-form-url={formUrl}
          {...(kind === 'partnerContact' ? { 'data-partner-support': 'true' } : {})}
          {...(kind === 'fileDownload' ? { 'data-form-height': String(FILE_DOWNLOAD_FORM_HEIGHT) } : {})}
        >
          <div className="form-fallback">
            {kind === 'myRequests' ? (
              <p><a className="button-link" href={requestsHref}>{t.forms.yourRequests}</a></p>
            ) : (
              <>
                {kind === 'fileDownload'
                  ? <p className="form-note">{t.forms.downloadLoadsHere}</p>
                  : null}
                {formUrl
                  ? <p><a className="button-link" href={formUrl}>{t.forms.openForm}</a></p>
                  : <p className="form-note">{t.forms.formUnavailable}</p>}
                {kind === 'partnerContact' && partnerPortalHref
                  ? <p><a className="button-link secondary" href={partnerPortalHref}>{t.forms.partnerPortal}</a></p>
                  : null}
              </>
            )}
          </div>
        </div>
        {otherContacts && otherContacts.length > 0 ? (
          <section className="other-contacts" aria-labelledby="other-contacts-heading">
            <h2 id="other-contacts-heading">{t.forms.otherWays}</h2>
            <LinkList links={otherContacts} />
          </section>
        ) : null}
      </div>
    </Document>
  );
}
