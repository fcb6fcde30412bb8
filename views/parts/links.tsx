import type { ReactNode } from 'react';
import type { Link } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';

/** A link; one to another site opens in a new tab and says so to screen readers. */
export function SiteLink({ href, external, children }: { href: string; external?: boolean | undefined; children: ReactNode }) {
  const t = useStrings();
  if (!external) return <a href={href}>{children}</a>;
  return (
    <a href={href} target="_blank" rel="noopener">
      {children}
      <span className="visually-hidden">{t.opensInNewTab}</span>
    </a>
  );
}

/** A plain list of links. */
export function LinkList({ links, className = 'link-list' }: { links: (Link & { external?: boolean | undefined })[]; className?: string }) {
  return (
    <ul className={className}>
      {links.map((l, i) => <li key={`${i}-${l.href}`}><SiteLink href={l.href} external={l.external}>{l.label}</SiteLink></li>)}
    </ul>
  );
}
