import type { ReactNode } from 'react';
import type { Link } from '../view-model.ts';
import { useStrings } from '../i18n/catalogue.tsx';
import { classifyUrl } from '../../server/content/urls.ts';

/**
 * How to render a link from content: its href, and whether it leaves the site — decided by the one
 * URL classifier, so `//host` and `/\host` count as other sites. Null when the URL
 * must not be a link at all (an unsafe scheme that slipped past the import check).
 */
export function linkTarget(href: string, external?: boolean): { href: string; external: boolean } | null {
  const link = classifyUrl(href);
  if (link.kind === 'unsafe') return null;
  return { href: link.href, external: !!external || link.kind === 'external' };
}

/** Attributes of an `<a>` for a link target: another site opens in a new tab, without access to this one. */
export function anchorProps(target: { href: string; external: boolean }) {
  return target.external ? { href: target.href, target: '_blank', rel: 'noopener' } : { href: target.href };
}

/** A link; one to another site opens in a new tab and says so to screen readers. */
export function SiteLink({ href, external, className, children }: { href: string; external?: boolean | undefined; className?: string; children: ReactNode }) {
  const t = useStrings();
  const target = linkTarget(href, external);
  if (!target) return <span className={className}>{children}</span>;
  return (
    <a className={className} {...anchorProps(target)}>
      {children}
      {target.external ? <span className="visually-hidden">{t.opensInNewTab}</span> : null}
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
