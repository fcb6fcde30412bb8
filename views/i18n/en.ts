/**
 * The English interface strings: the source of the catalogue's type (see strings.ts). Every fixed word
 * the chrome and the common page parts show is here; words with values are functions.
 */
export const en = {
  /** BCP 47 tag for Intl (dates). */
  locale: 'en-US',
  skipToContent: 'Skip to main content',
  previewMode: 'PREVIEW MODE',
  /** Screen-reader note after a link that opens a new tab (leading space: it follows the link text). */
  opensInNewTab: ' (opens in a new tab)',
  editPageIn: (service: string) => `Edit Page in ${service}`,
  theContentEditor: 'the content editor',
  editInDocumentEditor: 'Edit in the document editor',

  header: {
    mainNav: 'Main',
    products: 'Products',
    cloud: 'Cloud',
    dataCenter: 'Data Center',
    seeAllProducts: 'See all other products',
    showFewerProducts: 'Show fewer products',
    getStarted: 'Get started',
    documentation: 'Documentation',
    resources: 'Resources',
    contact: 'Contact',
    contactSupport: 'Contact Support',
    search: 'Search',
    logInToContact: 'Log in to contact support',
    signIn: 'Sign in',
  },
  account: {
    menu: 'Account menu',
    menuFor: (who: string) => `Account menu for ${who}`,
    viewSupportRequests: 'View Support Requests',
    namedContacts: 'Named contacts',
    viewRequests: 'View requests',
    manageProfile: 'Manage profile',
    switchAccount: 'Switch account',
    logOut: 'Log out',
  },
  footer: { legal: 'Legal' },
  breadcrumbs: 'Breadcrumbs',
  /** The first breadcrumb: the support home. */
  supportHome: 'Support',

  feedback: {
    heading: 'Was this helpful?',
    thanks: 'Thanks for your feedback.',
    yes: 'Yes',
    no: 'No',
    whatWentWrong: 'What went wrong?',
    /** Spec §8: the reasons offered after 'No', by the value the form posts. */
    reasons: {
      'not-accurate': "It wasn't accurate",
      'not-clear': "It wasn't clear",
      'not-relevant': "It wasn't relevant",
    },
    send: 'Send',
  },
  contact: {
    heading: 'Not finding the help you need?',
    contactSupport: 'Contact support',
    logInToContact: 'Log in to contact support',
    askCommunity: 'Ask the community',
  },

  tree: {
    label: 'Documentation',
    pagesIn: (title: string) => `Pages in ${title}`,
    allPages: (count: number, title: string) => `All ${count} pages in ${title}`,
  },
  showMore: 'Show more',
  showCountMore: (count: number) => `Show ${count} more`,
  siblings: {
    visited: 'visited',
    current: 'current page',
    upcoming: 'not visited yet',
    pagesAbove: ' pages above',
    pagesBelow: ' pages below',
  },
  upNext: {
    heading: 'Up next',
    moreInGuide: 'More in this guide',
    previous: 'Previous',
    next: 'Next',
  },
  deployment: {
    label: 'Deployment',
    cloud: 'Cloud',
    dataCenter: 'Data Center',
    version: 'Data Center version',
    go: 'Go',
  },

  topic: {
    dataCenterVersion: (version: string) => `Data Center ${version}`,
    watchVideo: 'Watch the video',
    updatedOn: (date: string) => `Updated on ${date}`,
    moreOnTopic: 'More on this topic',
    onThisPage: 'On this page',
    askCommunity: 'Ask the community',
    exploreMore: 'Explore more',
    viewTopic: 'View topic',
    viewTopics: 'View topics',
    moreInSection: 'More in this section',
  },
  home: {
    search: 'Search',
    searchPlaceholder: "Tell us what you're looking for",
    browseByProduct: 'Browse by product',
    platform: 'Platform',
    noProducts: (platform: string) => `No ${platform} products yet.`,
    browseResources: 'Browse resources',
  },
  notFound: {
    searchSupport: 'Search support',
    resultsNewTab: '(results open in a new tab)',
    search: 'Search',
    goHome: 'Go to the support home page',
  },
  /** Spec §8: the version modal's texts. */
  versionNotFound: {
    heading: 'Unable to find page',
    text: (version: string) => `This exact page does not exist in our Data Center ${version} documentation. Would you like to look for an alternative page?`,
    search: 'Search',
    browse: 'Browse',
    cancel: 'Cancel',
  },
  forms: {
    yourRequests: 'Your requests',
    downloadLoadsHere: 'The download form loads here when JavaScript is available.',
    openForm: 'Open the support form',
    formUnavailable: 'The support form is not available right now. Please try again later.',
    partnerPortal: 'Go to the partner portal',
    otherWays: 'Other ways to reach us',
  },
  product: {
    search: 'Search',
    searchIn: (title: string) => `Search ${title}`,
    guides: 'Guides',
    documentation: (title: string) => `${title} documentation`,
    knowledgeBase: (title: string) => `${title} knowledge base`,
    resources: (title: string) => `${title} resources`,
    resourcesHeading: 'Resources',
    browseByTopic: 'Browse by topic',
    getSupport: 'Get support',
    helpfulTopics: 'Helpful topics',
  },
};
