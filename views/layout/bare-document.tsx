import type { ReactNode } from 'react';

/**
 * A whole document that needs nothing stored (no header menus, no footer links): for pages the site
 * must be able to show whatever state the database and content are in. Never indexed.
 */
export function BareDocument({ title, css, className, children, status }: {
  title: string; css: string; className: string; children: ReactNode; status?: number;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <link rel="stylesheet" href={css} />
      </head>
      <body>
        <main id="maincontent" className={className} {...(status === undefined ? {} : { 'data-status': status })}>
          {children}
        </main>
      </body>
    </html>
  );
}
