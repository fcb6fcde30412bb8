import { ANONYMOUS, type Chrome, type ContactBlockModel } from '../../views/view-model.ts';

/** A plain anonymous chrome for view tests; override what a test is about. */
export function chromeFixture(overrides: Partial<Chrome> = {}): Chrome {
  return {
    siteName: 'Support',
    logoUrl: '/assets/content/fernhollow-logo.svg',
    lang: 'en',
    localePrefix: '',
    preview: false,
    assets: { css: '/assets/site.css', js: '/assets/site.js' },
    canonicalUrl: 'https://help.example.test/',
    title: 'Support',
    year: 2026,
    footerLinks: [{ label: 'Accessibility', href: '/legal/accessibility' }],
    siteLinks: { community: 'https://community.example.test', helpful: [], moreWaysToGetHelp: [] },
    visitor: ANONYMOUS,
    header: {
      logoUrl: '/assets/content/fernhollow-logo.svg',
      homeHref: '/',
      products: { cloud: [], dataCenter: [] },
      guides: [],
      documentation: [],
      resources: [],
      menus: [],
      additionalLinks: [],
      contactHref: '/contact',
      loginHref: '/login?continue=%2F',
      supportBase: 'https://support.example.test',
      manageProfileHref: '/profile',
      switchAccountHref: '/switch',
      logoutHref: '/logout',
      waffle: false,
    },
    ...overrides,
  };
}

export const CONTACT_FIXTURE: ContactBlockModel = {
  contactHref: '/contact', communityHref: 'https://community.example.test', signedIn: false, loginHref: '/login',
};
