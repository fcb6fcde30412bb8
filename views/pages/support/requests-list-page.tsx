import type { Chrome, Link } from '../../view-model.ts';
import { Document } from '../../layout/document.tsx';
import { stringsFor } from '../../i18n/catalogue.tsx';
import { RequestsPagination, RequestsTable, type PaginationModel, type RequestRow } from './requests-parts.tsx';

/**
 * Spec §2 'Link path shapes': the legacy hash form `/requests#!/SR-1` (or `/requests/#!/SR-1`) becomes the
 * path `/requests/SR-1`. Fragments never reach the server, so this runs in the page, before anything
 * else, under the response's CSP nonce. Only a reference-like path is followed, never `..` or another site.
 */
export const HASHBANG_SCRIPT = "(function(){var h=location.hash;if(h.indexOf('#!')!==0)return;" +
  "var p=h.slice(2).replace(/^\\/+/,'').split(/[?#]/)[0];var b=location.pathname.replace(/\\/+$/,'');" +
  "if(p===''){location.replace(b);return;}" +
  "if(/^[A-Za-z0-9][A-Za-z0-9_-]*(\\/[A-Za-z0-9_-]+)*$/.test(p))location.replace(b+'/'+p);})();";

export interface RequestsTab extends Link {
  current: boolean;
}

export interface RequestsListModel {
  chrome: Chrome;
  title: string;
  /** 'signIn': anonymous; 'list': a signed-in account's requests (possibly none). */
  state: 'signIn' | 'list';
  signInHref: string;
  contactHref: string;
  /** Partner users on a partner host: their own and their partner requests, as links (spec §2, §6). */
  tabs?: RequestsTab[] | undefined;
  /** Which list the rows are: the visitor's own, or their partner requests. */
  list: 'mine' | 'partner';
  rows: RequestRow[];
  total: number;
  pagination?: PaginationModel | undefined;
  /** The portal variant's extras (server/support/requests/portal-variant.ts). */
  variant: 'standard' | 'upgrade';
  showUpdated: boolean;
  /** The CSP nonce of this response, for the hash-form script. */
  nonce: string;
}

/** 'View requests' (spec §2 account menu; issue "Requests the visitor can follow"). */
export function RequestsListPage(model: RequestsListModel) {
  const { chrome } = model;
  const t = stringsFor(chrome.lang);
  return (
    <Document chrome={chrome}>
      <script nonce={model.nonce} dangerouslySetInnerHTML={{ __html: HASHBANG_SCRIPT }} />
      <div className={`requests-page requests-portal-${model.variant}`} data-portal-variant={model.variant}>
        <h1>{model.title}</h1>
        {model.state === 'signIn' ? (
          <section className="requests-sign-in" aria-labelledby="requests-sign-in-heading">
            <h2 id="requests-sign-in-heading">{t.requests.signInHeading}</h2>
            <p>{t.requests.signInText}</p>
            <p><a className="button-link" href={model.signInHref}>{t.requests.signIn}</a></p>
          </section>
        ) : (
          <>
            {model.variant === 'upgrade' ? <p className="requests-notice">{t.requests.upgradeNotice}</p> : null}
            {model.tabs ? (
              <nav aria-label={t.requests.requestViews} className="requests-tabs">
                <ul>
                  {model.tabs.map((tab) => (
                    <li key={tab.href}><a href={tab.href} aria-current={tab.current ? 'page' : undefined}>{tab.label}</a></li>
                  ))}
                </ul>
              </nav>
            ) : null}
            {model.rows.length === 0 ? (
              <section className="requests-empty" aria-labelledby="requests-empty-heading">
                <h2 id="requests-empty-heading">{t.requests.emptyHeading}</h2>
                <p>{t.requests.emptyText}</p>
                <p><a className="button-link" href={model.contactHref}>{t.requests.contactSupport}</a></p>
              </section>
            ) : (
              <>
                <p className="requests-count">{t.requests.count(model.total)}</p>
                <RequestsTable t={t} rows={model.rows} showUpdated={model.showUpdated}
                  caption={model.list === 'partner' ? t.requests.partnerCaption : t.requests.caption} />
                <RequestsPagination t={t} pagination={model.pagination} />
                <p><a href={model.contactHref}>{t.requests.askForHelp}</a></p>
              </>
            )}
          </>
        )}
      </div>
    </Document>
  );
}
