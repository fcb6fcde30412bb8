import type { ReactNode } from 'react';

/** A page's stylesheets: the base one, then any the site adds (its theme). */
export type Stylesheets = string | readonly string[];

/**
 * A whole document that needs nothing stored (no header menus, no footer links): for pages the site
 * must be able to show whatever state the database and content are in. Never indexed.
 */
export function BareDocument({ title, css, className, children, status, banner, continueTo }: {
  title: string; css: Stylesheets; className: string; children: ReactNode; status?: number;
  /** A small header above the content (with a skip link to it): the identity screens' way home. */
  banner?: { className: string; content: ReactNode } | undefined;
  /** An address the browser goes on to at once (an instant redirect that needs no script). */
  continueTo?: string | undefined;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        {continueTo ? <meta httpEquiv="refresh" content={`0;url=${continueTo}`} /> : null}
        {(typeof css === 'string' ? [css] : css).map((href) => <link key={href} rel="stylesheet" href={href} />)}
      </head>
      <body>
        {banner ? <a className="skip-link" href="#maincontent">Skip to main content</a> : null}
        {banner ? <header className={banner.className}>{banner.content}</header> : null}
        <main id="maincontent" className={className} {...(status === undefined ? {} : { 'data-status': status })}>
          {children}
        </main>
      </body>
    </html>
  );
}
