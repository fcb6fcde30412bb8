import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useHydrated } from './use-hydrated.ts';
import { TabList, tabId, tabPanelId } from './tabs.tsx';

/** Product lists show this many before 'See all other products' (spec §9). */
export const PRODUCTS_SHOWN = 5;
/** Below the 1095px breakpoint (spec §9) the header is the phone layout: logo, search and one menu button. */
export const PHONE_QUERY = '(max-width: 1094.98px)';
/** Resize handling waits this long after the last resize (spec §9). */
export const RESIZE_DEBOUNCE_MS = 100;

export interface HeaderLinkItem { label: string; href: string; external: boolean }
export interface HeaderCardItem {
  title: string;
  href: string;
  external: boolean;
  description?: string | undefined;
  iconUrl?: string | undefined;
}
export interface HeaderProduct { name: string; href: string; iconUrl?: string | undefined }
export interface HeaderMenuItem {
  id: string;
  heading: string;
  primary: HeaderCardItem[];
  secondary?: { heading: string; columns: number; links: HeaderLinkItem[] } | undefined;
}

/** The signed-in visitor's menu (views/parts/account-menu.tsx builds it): who, and where they can go. */
export interface AccountMenuProps {
  /** Name, or e-mail when there is no name. */
  who: string;
  /** The e-mail under the name, when both are known. */
  email?: string | undefined;
  avatarUrl?: string | undefined;
  initials: string;
  /** The trigger's accessible name. */
  label: string;
  links: { label: string; href: string }[];
  logoutHref: string;
  logOut: string;
}

export interface SiteHeaderStrings {
  mainNav: string; products: string; cloud: string; dataCenter: string; seeAllProducts: string; showFewerProducts: string;
  getStarted: string; documentation: string; resources: string; contact: string; search: string; opensInNewTab: string;
  menu: string;
}

export interface SiteHeaderProps {
  siteName: string;
  homeHref: string;
  logoUrl: string;
  t: SiteHeaderStrings;
  products: { cloud: HeaderProduct[]; dataCenter: HeaderProduct[] };
  /** Collection pages: every product as an icon grid instead of the tabs. */
  waffle: boolean;
  guides: HeaderCardItem[];
  documentation: HeaderCardItem[];
  resources: HeaderCardItem[];
  menus: HeaderMenuItem[];
  additionalLinks: HeaderLinkItem[];
  contactHref: string;
  /** Anonymous visitors: the sign-in link and its two labels (spec §2). */
  signIn: { href: string; label: string; logInToContact: string } | null;
  /** Signed-in visitors. */
  account: AccountMenuProps | null;
}

/** The header's two icons, drawn as views/parts/icon.tsx draws them, without the whole icon set in the island's code. */
const GLYPHS = {
  search: 'M10 4a6 6 0 1 0 3.5 10.9l4.8 4.8 1.4-1.4-4.8-4.8A6 6 0 0 0 10 4Zm0 2a4 4 0 1 1 0 8 4 4 0 0 1 0-8Z',
  user: 'M12 4a4 4 0 1 0 0 8 4 4 0 0 0 0-8Zm-7 16a7 7 0 0 1 14 0z',
};
function IconGlyph({ name, size = 16 }: { name: keyof typeof GLYPHS; size?: number }) {
  return (
    <svg className={`icon icon-${name}`} viewBox="0 0 24 24" width={size} height={size} focusable="false" aria-hidden="true">
      <path fill="currentColor" d={GLYPHS[name]} />
    </svg>
  );
}

/** The phone layout's menu button, in the open-state model like the menus. */
const PHONE_MENU = 'site-header-panel';

interface HeaderState {
  /** Hydrated: the menus are buttons with panels; before that (and without JavaScript) <details>. */
  enhanced: boolean;
  open: string | null;
  toggle: (id: string) => void;
  t: SiteHeaderStrings;
}
const HeaderContext = createContext<HeaderState>({ enhanced: false, open: null, toggle: () => undefined, t: {} as SiteHeaderStrings });

const triggerId = (id: string) => `header-trigger-${id}`;
const panelId = (id: string) => `header-panel-${id}`;
const focusTrigger = (id: string) => document.getElementById(id === PHONE_MENU ? PHONE_MENU + '-toggle' : triggerId(id))?.focus({ preventScroll: true });

/**
 * The shared header (spec §2 Shared chrome, §4 Header dropdown, Product list, Account menu). Without
 * JavaScript every dropdown is a <details> disclosure and the products menu shows both platforms; once
 * hydrated the triggers are buttons: one dropdown open at a time, the open one's trigger closes it,
 * Escape or a click outside closes it and gives focus back to its trigger. Cloud and Data Center become
 * tabs, each list collapsed to five with a toggle in place. Below 1095px the nav and the actions sit
 * behind one menu button (12-header.css); a layout change (resize, debounced) closes what is open.
 */
export function SiteHeader(props: SiteHeaderProps) {
  const { t, account } = props;
  const enhanced = useHydrated();
  const [open, setOpen] = useState<string | null>(null);
  const [phoneOpen, setPhoneOpen] = useState(false);
  const headerRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (open === null && !phoneOpen) return undefined;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      // The innermost first: the open dropdown, else the phone list.
      if (open !== null) setOpen(null);
      else setPhoneOpen(false);
      focusTrigger(open ?? PHONE_MENU);
    };
    const onClick = (event: MouseEvent) => {
      const target = event.target instanceof Element ? event.target : null;
      const header = headerRef.current;
      if (!target || !header) return;
      const inHeader = header.contains(target);
      // A trigger handles its own click; a click inside what is open leaves it open.
      if (inHeader && target.closest('button')) return;
      if (open !== null ? document.getElementById(panelId(open))?.contains(target) : inHeader) return;
      // The focus goes back to the trigger unless the click gave it to something else.
      const active = document.activeElement;
      const focusBack = !active || active === document.body || header.contains(active);
      const phoneClosing = phoneOpen && !inHeader;
      if (open !== null) setOpen(null);
      if (phoneClosing) setPhoneOpen(false);
      if (focusBack) focusTrigger(phoneClosing || open === null ? PHONE_MENU : open);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('click', onClick);
    };
  }, [open, phoneOpen]);

  useEffect(() => {
    if (!enhanced) return undefined;
    const phone = window.matchMedia(PHONE_QUERY);
    let wasPhone = phone.matches;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onResize = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (phone.matches === wasPhone) return;
        wasPhone = phone.matches;
        // The other layout: the phone list, or a dropdown inside it, no longer exists as it was.
        setOpen(null);
        setPhoneOpen(false);
      }, RESIZE_DEBOUNCE_MS);
    };
    window.addEventListener('resize', onResize);
    return () => {
      clearTimeout(timer);
      window.removeEventListener('resize', onResize);
    };
  }, [enhanced]);

  const state: HeaderState = { enhanced, open, t, toggle: (id) => setOpen((current) => (current === id ? null : id)) };
  return (
    <HeaderContext.Provider value={state}>
      <header className="site-header" ref={headerRef}>
        <a className="site-logo" href={props.homeHref}>
          <img src={props.logoUrl} alt="" width="32" height="32" />
          <span>{props.siteName}</span>
        </a>
        {/* The phone layout's search and menu button, shown only there with scripts (12-header.css); the
            avatar is the phone-only one of spec §2. */}
        <a className="header-link phone-search" href="/search-results/" target="_blank" rel="noopener">
          <IconGlyph name="search" size={20} />
          <span className="visually-hidden">{t.search}{t.opensInNewTab}</span>
        </a>
        <button type="button" className="header-menu-toggle" id={`${PHONE_MENU}-toggle`} aria-expanded={enhanced && phoneOpen}
          aria-controls={PHONE_MENU} onClick={() => { setOpen(null); setPhoneOpen((o) => !o); }}>
          {account ? <Avatar account={account} className="avatar phone-avatar" /> : null}
          <span>{t.menu}</span>
        </button>
        <div className={phoneOpen ? 'header-panel is-open' : 'header-panel'} id={PHONE_MENU}>
          <nav aria-label={t.mainNav} className="header-nav">
            <ul className="header-menus">
              <li>{props.waffle ? <ProductWaffle products={props.products} /> : <ProductsMenu products={props.products} />}</li>
              <GetStarted guides={props.guides} />
              {props.documentation.length > 0 ? <li><CardMenu id="documentation" label={t.documentation} cards={props.documentation} /></li> : null}
              {props.resources.length > 0 ? <li><CardMenu id="resources" label={t.resources} cards={props.resources} /></li> : null}
              {props.menus.map((menu) => <li key={menu.id}><ConfiguredMenu menu={menu} /></li>)}
              {props.additionalLinks.map((link) => (
                <li key={link.href}><Anchor className="header-link" link={link}>{link.label}</Anchor></li>
              ))}
            </ul>
          </nav>
          <ul className="header-actions">
            <li><a className="header-button" href={props.contactHref}>{t.contact}</a></li>
            <li>
              <a className="header-link header-search" href="/search-results/" target="_blank" rel="noopener">
                <IconGlyph name="search" />
                <span>{t.search}</span>
                <span className="visually-hidden">{t.opensInNewTab}</span>
              </a>
            </li>
            {account ? <li><AccountMenu account={account} /></li> : null}
            {props.signIn ? (
              <>
                <li><a className="header-link" href={props.signIn.href}>{props.signIn.logInToContact}</a></li>
                <li><a className="header-button header-button-primary" href={props.signIn.href}>{props.signIn.label}</a></li>
              </>
            ) : null}
          </ul>
        </div>
      </header>
    </HeaderContext.Provider>
  );
}

function Anchor({ link, className, children }: { link: { href: string; external: boolean }; className?: string; children: ReactNode }) {
  const { t } = useContext(HeaderContext);
  return (
    <a className={className} {...(link.external ? { href: link.href, target: '_blank', rel: 'noopener' } : { href: link.href })}>
      {children}
      {link.external ? <span className="visually-hidden">{t.opensInNewTab}</span> : null}
    </a>
  );
}

/**
 * A header dropdown. Without JavaScript a <details> whose summary is the trigger; hydrated, a button
 * (aria-expanded, aria-controls) and its panel, open when it is the one open menu. Images in a panel
 * are loading="lazy": a closed menu renders no box for its content, so a first visit asks for none.
 */
function Menu({ id, label, className, summary, children }: {
  id: string; label: string; className?: string; summary?: ReactNode; children: ReactNode;
}) {
  const { enhanced, open, toggle } = useContext(HeaderContext);
  const classes = className ? `header-menu ${className}` : 'header-menu';
  if (!enhanced) {
    return (
      <details className={classes} data-menu={id}>
        <summary>{summary ?? label}</summary>
        <div className="menu-panel">{children}</div>
      </details>
    );
  }
  const isOpen = open === id;
  return (
    <div className={isOpen ? `${classes} is-open` : classes} data-menu={id}>
      <button type="button" className="menu-trigger" id={triggerId(id)} aria-expanded={isOpen} aria-controls={panelId(id)} onClick={() => toggle(id)}>
        {summary ?? label}
      </button>
      {/* A closed panel is empty: images React creates load even when hidden, whatever their loading="lazy". */}
      <div className="menu-panel" id={panelId(id)} hidden={!isOpen}>{isOpen ? children : null}</div>
    </div>
  );
}

type Platform = { id: 'cloud' | 'data-center'; label: string; items: HeaderProduct[] };

function platformsOf(products: SiteHeaderProps['products'], t: SiteHeaderStrings): Platform[] {
  return ([
    { id: 'cloud', label: t.cloud, items: products.cloud },
    { id: 'data-center', label: t.dataCenter, items: products.dataCenter },
  ] as Platform[]).filter((p) => p.items.length > 0);
}

/** Products: both platforms side by side without JavaScript; hydrated, Cloud and Data Center tabs. */
function ProductsMenu({ products }: { products: SiteHeaderProps['products'] }) {
  const { enhanced, t } = useContext(HeaderContext);
  const platforms = platformsOf(products, t);
  const [selected, setSelected] = useState(platforms[0]?.id ?? 'cloud');
  const tabbed = enhanced && platforms.length > 1;
  return (
    <Menu id="products" label={t.products} className="products-menu">
      <div className={tabbed ? 'product-tabs is-tabbed' : 'product-tabs'}>
        {tabbed ? (
          <TabList idBase="header-products" label={t.products} selected={selected} onSelect={(id) => setSelected(id as Platform['id'])}
            tabs={platforms.map((p) => ({ id: p.id, label: p.label }))} className="product-tablist" />
        ) : null}
        {platforms.map((p) => <ProductTab key={p.id} platform={p} tabbed={tabbed} selected={p.id === selected} />)}
      </div>
    </Menu>
  );
}

/** One platform's list: the first five, then the rest behind a disclosure (no JavaScript) or a toggle. */
function ProductTab({ platform, tabbed, selected }: { platform: Platform; tabbed: boolean; selected: boolean }) {
  const { enhanced, t } = useContext(HeaderContext);
  const [expanded, setExpanded] = useState(false);
  const labelId = `header-products-${platform.id}`;
  const shown = platform.items.slice(0, PRODUCTS_SHOWN);
  const rest = platform.items.slice(PRODUCTS_SHOWN);
  const restId = `header-products-${platform.id}-more`;
  const panel = tabbed
    ? { role: 'tabpanel', id: tabPanelId('header-products', platform.id), 'aria-labelledby': tabId('header-products', platform.id), hidden: !selected }
    : {};
  return (
    <div className="product-tab" data-platform={platform.id} {...panel}>
      {tabbed && !selected ? null : <>
      {tabbed ? null : <p className="menu-label" id={labelId}>{platform.label}</p>}
      <ul className="product-list" {...(tabbed ? {} : { 'aria-labelledby': labelId })}>
        {shown.map((p) => <ProductItem key={p.href} product={p} />)}
      </ul>
      {rest.length === 0 ? null : enhanced ? (
        <>
          <button type="button" className="more-products-toggle" aria-expanded={expanded} aria-controls={restId} onClick={() => setExpanded((e) => !e)}>
            {expanded ? t.showFewerProducts : t.seeAllProducts}
          </button>
          <ul className="product-list" id={restId} hidden={!expanded}>
            {expanded ? rest.map((p) => <ProductItem key={p.href} product={p} />) : null}
          </ul>
        </>
      ) : (
        <details className="more-products" data-more-text={t.seeAllProducts} data-less-text={t.showFewerProducts}>
          <summary>{t.seeAllProducts}</summary>
          <ul className="product-list">
            {rest.map((p) => <ProductItem key={p.href} product={p} />)}
          </ul>
        </details>
      )}
      </>}
    </div>
  );
}

function ProductItem({ product }: { product: HeaderProduct }) {
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
function ProductWaffle({ products }: { products: SiteHeaderProps['products'] }) {
  const { t } = useContext(HeaderContext);
  const summary = (
    <>
      <svg className="icon waffle-icon" viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M4 4h4v4H4zm6 0h4v4h-4zm6 0h4v4h-4zM4 10h4v4H4zm6 0h4v4h-4zm6 0h4v4h-4zM4 16h4v4H4zm6 0h4v4h-4zm6 0h4v4h-4z" />
      </svg>
      <span>{t.products}</span>
    </>
  );
  return (
    <Menu id="products" label={t.products} className="product-waffle" summary={summary}>
      {platformsOf(products, t).map((g) => (
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
function GetStarted({ guides }: { guides: HeaderCardItem[] }) {
  const { t } = useContext(HeaderContext);
  const [only] = guides;
  if (!only) return null;
  if (guides.length === 1) return <li><a className="header-button get-started" href={only.href}>{t.getStarted}</a></li>;
  return <li><CardMenu id="guides" label={t.getStarted} cards={guides} /></li>;
}

function CardMenu({ id, label, cards }: { id: string; label: string; cards: HeaderCardItem[] }) {
  return (
    <Menu id={id} label={label}>
      <MenuCards cards={cards} />
    </Menu>
  );
}

function MenuCards({ cards }: { cards: HeaderCardItem[] }) {
  return (
    <ul className="menu-cards">
      {cards.map((card) => (
        <li key={card.href}>
          <Anchor link={card}>
            {card.iconUrl ? <img src={card.iconUrl} alt="" width="32" height="32" loading="lazy" /> : null}
            <span className="menu-card-title">{card.title}</span>
            {card.description ? <>{' '}<span className="menu-card-text">{card.description}</span></> : null}
          </Anchor>
        </li>
      ))}
    </ul>
  );
}

/** A configured (version 2) menu: primary cards, then secondary links in 1-4 columns. */
function ConfiguredMenu({ menu }: { menu: HeaderMenuItem }) {
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
            {secondary.links.map((link) => <li key={link.href}><Anchor link={link}>{link.label}</Anchor></li>)}
          </ul>
        </div>
      ) : null}
    </Menu>
  );
}

function Avatar({ account, className }: { account: AccountMenuProps; className: string }) {
  return account.avatarUrl
    ? <img className={className} src={account.avatarUrl} alt="" width="32" height="32" />
    : <span className={className} aria-hidden="true">{account.initials || <IconGlyph name="user" />}</span>;
}

/** The signed-in visitor's avatar menu (spec §2 account menu links); log out is a POST form. */
function AccountMenu({ account }: { account: AccountMenuProps }) {
  const summary = (
    <>
      <Avatar account={account} className="avatar" />
      <span className="visually-hidden">{account.label}</span>
    </>
  );
  return (
    <Menu id="account" label={account.label} className="account-menu" summary={summary}>
      {account.who ? (
        <p className="account-who">
          <span className="account-name">{account.who}</span>
          {account.email ? <span className="account-email">{account.email}</span> : null}
        </p>
      ) : null}
      <ul className="account-links">
        {account.links.map((link) => <li key={link.label}><a href={link.href}>{link.label}</a></li>)}
        <li>
          {/* Log out changes state, so it is a POST (refused from other sites); a form works without JavaScript. */}
          <form method="post" action={account.logoutHref} className="account-logout">
            <button type="submit" className="link-button">{account.logOut}</button>
          </form>
        </li>
      </ul>
    </Menu>
  );
}
