import type { ReactNode } from 'react';
import { BareDocument, type Stylesheets } from '../../layout/bare-document.tsx';

/**
 * The document of the sign-in, consent and sign-out screens of the embedded identity provider: the
 * site's stylesheet, a skip link, the site's name and one main landmark. No scripts: every screen is
 * a form that works without JavaScript. Never indexed.
 */
export function IdentityDocument({ title, siteName, css, children, status, continueTo }: {
  title: string; siteName: string; css: Stylesheets; children: ReactNode; status?: number; continueTo?: string | undefined;
}) {
  return (
    <BareDocument title={`${title} – ${siteName}`} css={css} className="identity-screen" status={status} continueTo={continueTo}
      banner={{ className: 'identity-banner', content: <a href="/">{siteName}</a> }}>
      {children}
    </BareDocument>
  );
}
