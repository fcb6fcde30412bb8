import type { ReactNode } from 'react';

/**
 * The document of the sign-in, consent and sign-out screens of the embedded identity provider: the
 * site's stylesheet, a skip link, the site's name and one main landmark. No scripts: every screen is
 * a form that works without JavaScript. Never indexed.
 */
export function IdentityDocument({ title, siteName, css, children, status }: {
  title: string; siteName: string; css: string; children: ReactNode; status?: number;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{`${title} – ${siteName}`}</title>
        <link rel="stylesheet" href={css} />
      </head>
      <body>
        <a className="skip-link" href="#maincontent">Skip to main content</a>
        <header className="identity-banner">
          <a href="/">{siteName}</a>
        </header>
        <main id="maincontent" className="identity-screen" {...(status === undefined ? {} : { 'data-status': status })}>
          {children}
        </main>
      </body>
    </html>
  );
}
