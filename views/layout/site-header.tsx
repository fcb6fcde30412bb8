import type { CardLink, Chrome, Link } from '../view-model.ts';
import { accountMenuProps } from '../parts/account-menu.tsx';
import { linkTarget } from '../parts/links.tsx';
import { useStrings } from '../i18n/catalogue.tsx';
import { Island } from '../island.tsx';
import { SiteHeader as SiteHeaderIsland, type HeaderCardItem, type HeaderLinkItem, type SiteHeaderProps } from '../islands/site-header.tsx';

export { PRODUCTS_SHOWN } from '../islands/site-header.tsx';

/** Header cards with their links classified (views/parts/links.tsx); a link that must not be one is left out. */
function cards(list: CardLink[]): HeaderCardItem[] {
  return list.flatMap((card) => {
    const target = linkTarget(card.href, card.external);
    return target ? [{ title: card.title, href: target.href, external: target.external, description: card.description, iconUrl: card.iconUrl }] : [];
  });
}

function links(list: (Link & { external?: boolean | undefined })[]): HeaderLinkItem[] {
  return list.flatMap((link) => {
    const target = linkTarget(link.href, link.external);
    return target ? [{ label: link.label, href: target.href, external: target.external }] : [];
  });
}

/**
 * The shared header (spec §2 Shared chrome): the site-header island (views/islands/site-header.tsx)
 * with its props read here, in the page's language. No headings: the page's own <h1> comes first in
 * the outline.
 */
export function SiteHeader({ chrome }: { chrome: Chrome }) {
  const { header, visitor } = chrome;
  const t = useStrings();
  const props: SiteHeaderProps = {
    siteName: chrome.siteName,
    homeHref: header.homeHref,
    logoUrl: header.logoUrl,
    t: {
      mainNav: t.header.mainNav, products: t.header.products, cloud: t.header.cloud, dataCenter: t.header.dataCenter,
      seeAllProducts: t.header.seeAllProducts, showFewerProducts: t.header.showFewerProducts, getStarted: t.header.getStarted,
      documentation: t.header.documentation, resources: t.header.resources,
      contact: visitor.signedIn ? t.header.contactSupport : t.header.contact,
      search: t.header.search, opensInNewTab: t.opensInNewTab, menu: t.header.menu,
    },
    products: header.products,
    waffle: header.waffle,
    guides: cards(header.guides),
    documentation: cards(header.documentation),
    resources: cards(header.resources),
    menus: header.menus.map((menu) => ({
      id: menu.id, heading: menu.heading, primary: cards(menu.primary),
      secondary: menu.secondary ? { heading: menu.secondary.heading, columns: menu.secondary.columns, links: links(menu.secondary.links) } : undefined,
    })),
    additionalLinks: links(header.additionalLinks),
    contactHref: header.contactHref,
    signIn: visitor.signedIn ? null : { href: header.loginHref, label: t.header.signIn, logInToContact: t.header.logInToContact },
    account: visitor.signedIn ? accountMenuProps(visitor, header, t) : null,
  };
  return <Island name="site-header" hydrate="interaction" component={SiteHeaderIsland} props={props} />;
}
