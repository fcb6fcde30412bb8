import type { ReactNode } from 'react';
import type { CardLink, Chrome, HeaderMenu, HeaderProductLink } from '../view-model.ts';
import { IconGlyph } from '../parts/icon.tsx';
import { AccountMenu } from '../parts/account-menu.tsx';
import { SiteLink, anchorProps, linkTarget } from '../parts/links.tsx';
import { useStrings } from '../i18n/catalogue.tsx';

/** Product lists show this many before 'See all other products' (spec §9). */
export const PRODUCTS_SHOWN = 5;

/**
 * The shared header (spec §2 Shared chrome). Every dropdown is a <details> disclosure, so it opens and
 * closes without JavaScript; the header-menu island adds Escape, outside click and one-open-at-a-time
 * (spec §4). Below 768px the same markup stacks as a list (10-chrome.css). No headings: the page's
 * own <h1> comes first in the outline.
 */
export function SiteHeader({ chrome }: { chrome: Chrome }) {
  const { header, visitor } = chrome;
  const t = useStrings();
  return (
    <header className="site-header">
      <a className="site-logo" href={header.homeHref}>
        <img src={header.logoUrl} alt="" width="32" height="32" />
        <span>{chrome.siteName}</span>
      </a>
      <nav aria-label={t.header.mainNav} className="header-nav">
        <ul className="header-menus">
          <li>{header.waffle ? <ProductWaffle products={header.products} /> : <ProductsMenu products={header.products} />}</li>
          <GetStarted guides={header.guides} />
          {header.documentation.length > 0 ? (
            <li><CardMenu id="documentation" label={t.header.documentation} cards={header.documentation} /></li>
          ) : null}
          {header.resources.length > 0 ? (
            <li><CardMenu id="resources" label={t.header.resources} cards={header.resources} /></li>
          ) : null}
          {header.menus.map((menu) => <li key={menu.id}><ConfiguredMenu menu={menu} /></li>)}
          {header.additionalLinks.map((link) => (
            <li key={link.href}><SiteLink className="header-link" href={link.href}>{link.label}</SiteLink></li>
          ))}
        </ul>
      </nav>
      <ul className="header-actions">
        <li>
          <a className="header-button" href={header.contactHref}>{visitor.signedIn ? t.header.contactSupport : t.header.contact}</a>
        </li>
        <li>
          <a className="header-link header-search" href="/search-results/" target="_blank" rel="noopener">
            <IconGlyph name="search" />
            <span>{t.header.search}</span>
            <span className="visually-hidden">{t.opensInNewTab}</span>
          </a>
        </li>
        {visitor.signedIn ? (
          <li><AccountMenu visitor={visitor} header={header} /></li>
        ) : (
          <>
            <li><a className="header-link" href={header.loginHref}>{t.header.logInToContact}</a></li>
            <li><a className="header-button header-button-primary" href={header.loginHref}>{t.header.signIn}</a></li>
          </>
        )}
      </ul>
    </header>
  );
}

/**
 * A header dropdown: summary is the trigger, the panel holds the content. Images in a panel are
 * loading="lazy": a closed <details> renders no box for its content, so a first visit asks for none of
 * them; they load when the menu opens.
 */
function Menu({ id, label, className, summary, children }: {
  id: string; label: string; className?: string; summary?: ReactNode; children: ReactNode;
}) {
  return (
    <details className={className ? `header-menu ${className}` : 'header-menu'} data-island="header-menu" data-menu={id}>
      <summary>{summary ?? label}</summary>
      <div className="menu-panel">{children}</div>
    </details>
  );
}

function ProductsMenu({ products }: { products: { cloud: HeaderProductLink[]; dataCenter: HeaderProductLink[] } }) {
  const t = useStrings();
  return (
    <Menu id="products" label={t.header.products} className="products-menu">
      <div className="product-tabs" data-island="product-tabs">
        <ProductTab id="cloud" label={t.header.cloud} items={products.cloud} />
        <ProductTab id="data-center" label={t.header.dataCenter} items={products.dataCenter} />
      </div>
    </Menu>
  );
}

/** One platform's list: the first five, the rest behind a disclosure a script may relabel (spec §4). */
function ProductTab({ id, label, items }: { id: string; label: string; items: HeaderProductLink[] }) {
  const t = useStrings();
  if (items.length === 0) return null;
  const labelId = `header-products-${id}`;
  const shown = items.slice(0, PRODUCTS_SHOWN);
  const rest = items.slice(PRODUCTS_SHOWN);
  return (
    <div className="product-tab" data-platform={id}>
      <p className="menu-label" id={labelId}>{label}</p>
      <ul className="product-list" aria-labelledby={labelId}>
        {shown.map((p) => <ProductItem key={p.href} product={p} />)}
      </ul>
      {rest.length > 0 ? (
        <details className="more-products" data-island="show-more"
          data-more-text={t.header.seeAllProducts} data-less-text={t.header.showFewerProducts}>
          <summary>{t.header.seeAllProducts}</summary>
          <ul className="product-list">
            {rest.map((p) => <ProductItem key={p.href} product={p} />)}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

function ProductItem({ product }: { product: HeaderProductLink }) {
  return (
    <li>
      <a href={product.href}>
        {product.iconUrl ? <img src={product.iconUrl} alt="" width="24" height="24" loading="lazy" /> : null}
        <span>{product.name}</span>
      </a>
    </li>
  );
}

/** Collection pages: every product as an icon grid (spec §2 product waffle menu). */
function ProductWaffle({ products }: { products: { cloud: HeaderProductLink[]; dataCenter: HeaderProductLink[] } }) {
  const t = useStrings();
  const groups = [
    { id: 'cloud', label: t.header.cloud, items: products.cloud },
    { id: 'data-center', label: t.header.dataCenter, items: products.dataCenter },
  ].filter((g) => g.items.length > 0);
  const summary = (
    <>
      <svg className="icon waffle-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M4 4h4v4H4zm6 0h4v4h-4zm6 0h4v4h-4zM4 10h4v4H4zm6 0h4v4h-4zm6 0h4v4h-4zM4 16h4v4H4zm6 0h4v4h-4zm6 0h4v4h-4z" />
      </svg>
      <span>{t.header.products}</span>
    </>
  );
  return (
    <Menu id="products" label={t.header.products} className="product-waffle" summary={summary}>
      {groups.map((g) => (
        <div key={g.id} className="waffle-group">
          <p className="menu-label" id={`header-waffle-${g.id}`}>{g.label}</p>
          <ul className="waffle-grid" aria-labelledby={`header-waffle-${g.id}`}>
            {g.items.map((p) => (
              <li key={p.href}>
                <a href={p.href}>
                  {p.iconUrl ? <img src={p.iconUrl} alt="" width="40" height="40" loading="lazy" /> : null}
                  <span>{p.name}</span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </Menu>
  );
}

/** Spec §2: one guide is a plain 'Get started' button, several a menu of guide cards. */
function GetStarted({ guides }: { guides: CardLink[] }) {
  const t = useStrings();
  const [only] = guides;
  if (!only) return null;
  if (guides.length === 1) {
    return <li><a className="header-button get-started" href={only.href}>{t.header.getStarted}</a></li>;
  }
  return <li><CardMenu id="guides" label={t.header.getStarted} cards={guides} /></li>;
}

function CardMenu({ id, label, cards }: { id: string; label: string; cards: CardLink[] }) {
  return (
    <Menu id={id} label={label}>
      <MenuCards cards={cards} />
    </Menu>
  );
}

function MenuCards({ cards }: { cards: CardLink[] }) {
  const t = useStrings();
  return (
    <ul className="menu-cards">
      {cards.map((card) => {
        const target = linkTarget(card.href, card.external);
        if (!target) return null;
        return (
          <li key={card.href}>
            <a {...anchorProps(target)}>
              {card.iconUrl ? <img src={card.iconUrl} alt="" width="32" height="32" loading="lazy" /> : null}
              <span className="menu-card-title">{card.title}</span>
              {card.description ? <>{' '}<span className="menu-card-text">{card.description}</span></> : null}
              {target.external ? <span className="visually-hidden">{t.opensInNewTab}</span> : null}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/** A configured (version 2) menu: primary cards, then secondary links in 1-4 columns. */
function ConfiguredMenu({ menu }: { menu: HeaderMenu }) {
  const secondary = menu.secondary && menu.secondary.links.length > 0 ? menu.secondary : undefined;
  const labelId = `header-menu-${menu.id}-secondary`;
  const columns = Math.min(4, Math.max(1, Math.round(secondary?.columns ?? 1)));
  return (
    <Menu id={menu.id} label={menu.heading}>
      {menu.primary.length > 0 ? <MenuCards cards={menu.primary} /> : null}
      {secondary ? (
        <div className="menu-secondary">
          <p className="menu-label" id={labelId}>{secondary.heading}</p>
          <ul className={`menu-links menu-cols-${columns}`} aria-labelledby={labelId}>
            {secondary.links.map((link) => <li key={link.href}><SiteLink href={link.href}>{link.label}</SiteLink></li>)}
          </ul>
        </div>
      ) : null}
    </Menu>
  );
}
