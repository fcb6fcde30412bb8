import { IconGlyph } from '../parts/icon.tsx';
import { ScriptsClass } from './scripts-class.tsx';
import type { ReactNode } from 'react';
import type { Chrome } from '../view-model.ts';
import { SiteHeader } from './site-header.tsx';
import { SiteFooter } from './site-footer.tsx';
import { CreditsData } from '../parts/credits.tsx';
import { StringsProvider, useStrings } from '../i18n/catalogue.tsx';
import { Island } from '../island.tsx';
import { AssistantWidget } from '../islands/assistant-widget.tsx';
import { SessionWatch } from '../islands/session-watch.tsx';
import { LinkedData, type PageLinkedData } from '../parts/linked-data.tsx';

/** How often a signed-in page asks whether its session still lasts, while its tab is visible. */
const HEARTBEAT_INTERVAL_MS = 60_000;

/**
 * The whole HTML document every page shares (spec §2 Shared chrome). `sidebar` is the page tree, which
 * brings its own <nav aria-label="Documentation">; it sits before the content column inside <main>.
 */
export function Document({ chrome, children, sidebar, linkedData }: {
  chrome: Chrome; children: ReactNode; sidebar?: ReactNode; linkedData?: PageLinkedData | undefined;
}) {
  const title = chrome.title === chrome.siteName ? chrome.siteName : `${chrome.title} | ${chrome.siteName}`;
  const hasSidebar = sidebar !== undefined && sidebar !== null && sidebar !== false;
  return (
    <StringsProvider lang={chrome.lang} deployments={chrome.deployments}>
      <Page chrome={chrome} title={title} hasSidebar={hasSidebar} sidebar={sidebar} linkedData={linkedData}>{children}</Page>
    </StringsProvider>
  );
}

/** The document itself, inside the page language's strings. */
function Page({ chrome, title, hasSidebar, sidebar, linkedData, children }: {
  chrome: Chrome; title: string; hasSidebar: boolean; sidebar?: ReactNode; linkedData?: PageLinkedData | undefined; children: ReactNode;
}) {
  const t = useStrings();
  return (
    <html lang={chrome.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <ScriptsClass />
        <title>{title}</title>
        {chrome.description ? <meta name="description" content={chrome.description} /> : null}
        <link rel="canonical" href={chrome.canonicalUrl} />
        {chrome.faviconUrl ? <link rel="icon" href={chrome.faviconUrl} /> : null}
        <link rel="stylesheet" href={chrome.assets.css} />
        {chrome.themeCss ? <link rel="stylesheet" href={chrome.themeCss} /> : null}
        {chrome.preview || chrome.noindex ? <meta name="robots" content="noindex" /> : null}
        <script type="module" src={chrome.assets.js} />
        <LinkedData chrome={chrome} page={linkedData} />
      </head>
      <body>
        <a className="skip-link" href="#maincontent">{t.skipToContent}</a>
        {chrome.preview ? <div className="preview-banner" role="status">{t.previewMode}</div> : null}
        <SiteHeader chrome={chrome} />
        <main id="maincontent" tabIndex={-1} className={hasSidebar ? 'has-sidebar' : undefined}>
          {hasSidebar ? <div className="main-sidebar">{sidebar}</div> : null}
          <div className="main-column">
            {chrome.editLinks ? <EditLinks links={chrome.editLinks} /> : null}
            {children}
          </div>
        </main>
        {chrome.visitor.signedIn ? (
          <Island name="session-watch" hydrate="idle" component={SessionWatch} props={{
            heartbeatUrl: '/gateway/api/session/heartbeat', loginUrl: chrome.header.loginHref.split('?')[0] ?? '',
            intervalMs: HEARTBEAT_INTERVAL_MS, ended: t.sessionEnded, signIn: t.signInAgain,
          }} />
        ) : null}
        {chrome.assistant ? <Island name="assistant-widget" hydrate="interaction" component={AssistantWidget} props={chrome.assistant} /> : null}
        <SiteFooter chrome={chrome} />
        {chrome.credits ? <CreditsData credits={chrome.credits} /> : null}
      </body>
    </html>
  );
}

/**
 * Author shortcuts (spec §6 Author): the 'Edit this …' hint naming what the page is, then editor icons
 * (32x32, spec §9) with 'Edit Page in {editor}' for the content editor and, with a page id, the document
 * editor; each opens in a new tab. The editors are named as configured, never by the entry's type.
 */
function EditLinks({ links }: { links: NonNullable<Chrome['editLinks']> }) {
  const t = useStrings();
  // The label names the content service; tolerate a label that already says 'Edit Page in'.
  const service = links.label.replace(/^edit page in\s*/i, '') || t.theContentEditor;
  const hint = links.kind ? t.editThis[links.kind] : undefined;
  return (
    <div className="edit-links" role={hint ? 'group' : undefined} aria-labelledby={hint ? 'edit-hint' : undefined}>
      {hint ? <span className="edit-hint" id="edit-hint">{hint}</span> : null}
      {links.contentEditor ? (
        <a className="edit-link" href={links.contentEditor} target="_blank" rel="noopener">
          <IconGlyph name="edit" size={32} />
          <span>{t.editPageIn(service)}</span>
          <span className="visually-hidden">{t.opensInNewTab}</span>
        </a>
      ) : null}
      {links.documentEditor ? (
        <a className="edit-link" href={links.documentEditor} target="_blank" rel="noopener">
          <IconGlyph name="document" size={32} />
          <span>{links.documentLabel ? t.editIn(links.documentLabel) : t.editInDocumentEditor}</span>
          <span className="visually-hidden">{t.opensInNewTab}</span>
        </a>
      ) : null}
    </div>
  );
}
