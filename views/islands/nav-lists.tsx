/**
 * List items the navigation islands render (show-more): the same markup as views/parts/card-grid.tsx
 * (CardGrid) and views/parts/links.tsx (LinkList) give, from plain props. Links arrive already
 * classified by the server (`external`; an unsafe URL has no href), so this module needs neither the
 * URL classifier nor the strings catalogue and stays client-safe.
 */

/** A link of a plain list; no href: shown as text (an unsafe URL). */
export interface NavLink {
  label: string;
  href?: string | undefined;
  external: boolean;
}

/** A card of a card grid, its link already classified (unsafe cards are left out by the server). */
export interface NavCard {
  title: string;
  href: string;
  external: boolean;
  description?: string | undefined;
  iconUrl?: string | undefined;
  buttonText?: string | undefined;
}

const anchor = (href: string, external: boolean) => (external ? { href, target: '_blank', rel: 'noopener' } : { href });

/** One `<li>` of `<ul class="card-grid">`, as CardGrid renders it: icons 80x80 (resource cards), or as the grid asks (spec §9). */
export function CardItem({ card, headingLevel, opensInNewTab, iconSize = 80 }: { card: NavCard; headingLevel: 2 | 3; opensInNewTab: string; iconSize?: number }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <li className={card.buttonText ? 'card has-button' : 'card'}>
      {card.iconUrl ? <img className="card-icon" src={card.iconUrl} alt="" width={iconSize} height={iconSize} loading="lazy" /> : null}
      <Heading className="card-title">
        <a {...anchor(card.href, card.external)}>
          <span className="card-name">{card.title}</span>
          {card.external ? <span className="visually-hidden">{opensInNewTab}</span> : null}
          {card.buttonText ? <>{' '}<span className="card-button">{card.buttonText}</span></> : null}
        </a>
      </Heading>
      {card.description ? <p className="card-description">{card.description}</p> : null}
    </li>
  );
}

/** One `<li>` of `<ul class="link-list">`, as LinkList renders it. */
export function LinkItem({ link, opensInNewTab }: { link: NavLink; opensInNewTab: string }) {
  return (
    <li>
      {link.href === undefined ? <span>{link.label}</span> : (
        <a {...anchor(link.href, link.external)}>
          {link.label}
          {link.external ? <span className="visually-hidden">{opensInNewTab}</span> : null}
        </a>
      )}
    </li>
  );
}

/** Moves focus to the first link (or other focusable element) inside `element`, if there is one. */
export function focusFirstLink(element: Element | null | undefined): void {
  element?.querySelector<HTMLElement>('a[href], button')?.focus();
}
