import type { ReactNode } from 'react';
import type { Chrome } from '../view-model.ts';
import { SiteHeader } from './site-header.tsx';
import { SiteFooter } from './site-footer.tsx';

/** The whole HTML document every page shares. */
export function Document({ chrome, children }: { chrome: Chrome; children: ReactNode }) {
  const title = chrome.title === chrome.siteName ? chrome.siteName : `${chrome.title} | ${chrome.siteName}`;
  return (
    <html lang={chrome.lang}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        {chrome.description ? <meta name="description" content={chrome.description} /> : null}
        <link rel="canonical" href={chrome.canonicalUrl} />
        <link rel="stylesheet" href={chrome.assets.css} />
        {chrome.preview ? <meta name="robots" content="noindex" /> : null}
        <script type="module" src={chrome.assets.js} nonce={chrome.nonce} />
      </head>
      <body>
        <a className="skip-link" href="#maincontent">Skip to main content</a>
        {chrome.preview ? <div className="preview-banner" role="status">PREVIEW MODE</div> : null}
        <SiteHeader chrome={chrome} />
        <main id="maincontent" tabIndex={-1}>{children}</main>
        <SiteFooter chrome={chrome} />
      </body>
    </html>
  );
}
