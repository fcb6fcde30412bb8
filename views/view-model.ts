/**
 * Props of the page views: plain, serialisable data prepared by the routes. Views never fetch;
 * everything a view shows arrives here.
 */
import type { PlatformNoticeProps } from './parts/platform-notice.tsx';
import type { BodyProps } from './parts/body.tsx';

/** Who is looking (spec §6), decided on the server (server/identity/roles.ts). */
export interface Visitor {
  signedIn: boolean;
  /** The issuer's account id (subject), when signed in. */
  id?: string | undefined;
  displayName?: string | undefined;
  email?: string | undefined;
  avatarUrl?: string | undefined;
  /** The avatar's letters when there is no picture; by default from the name or e-mail. */
  initials?: string | undefined;
  canEdit: boolean;
  /** E-mail in the vendor's staff domain. */
  staff: boolean;
  /** Browsing on the partner host. */
  partner: boolean;
}

export const ANONYMOUS: Visitor = { signedIn: false, canEdit: false, staff: false, partner: false };

export interface Link {
  label: string;
  href: string;
}

export interface CardLink {
  title: string;
  href: string;
  description?: string | undefined;
  iconUrl?: string | undefined;
  /** Text of the card's button, when it has one. */
  buttonText?: string | undefined;
  external?: boolean | undefined;
}

export interface HeaderProductLink {
  name: string;
  href: string;
  iconUrl?: string | undefined;
}

export interface HeaderMenu {
  id: string;
  heading: string;
  primary: CardLink[];
  secondary?: { heading: string; columns: number; links: Link[] } | undefined;
}

/** Everything the shared header shows (spec §2 Shared chrome). */
export interface HeaderModel {
  logoUrl: string;
  homeHref: string;
  products: { cloud: HeaderProductLink[]; dataCenter: HeaderProductLink[] };
  /** One guide renders as a 'Get started' button, more as a menu. */
  guides: CardLink[];
  documentation: CardLink[];
  /** Resource cards not flagged hideInHeader. */
  resources: CardLink[];
  menus: HeaderMenu[];
  additionalLinks: Link[];
  /** /contact or /ja/contact. */
  contactHref: string;
  /** Sign-in link with a continue parameter back to this page. */
  loginHref: string;
  /** Base of the account links: {supportBase}/requests and {supportBase}/named-contact. */
  supportBase: string;
  manageProfileHref: string;
  /** Sign-in again with prompt=select_account and application=sac, continuing to this page (spec §7). */
  switchAccountHref: string;
  /** Where the log-out form posts. */
  logoutHref: string;
  /** Page in the waffle menu style (collection pages). */
  waffle: boolean;
}

export interface SiteLinks {
  community?: string | undefined;
  /** The community's create-post page, a template with {tags} (site.yaml askCommunityUrl, spec §7). */
  askCommunity?: string | undefined;
  partnerPortal?: string | undefined;
  helpful: Link[];
  moreWaysToGetHelp: Link[];
}

/** The labels of the two deployment values (spec §9). */
export interface DeploymentNames {
  cloud: string;
  dataCenter: string;
}

export interface Chrome {
  siteName: string;
  logoUrl: string;
  lang: string;
  /** /ja when the page is Japanese (spec §9 locale prefix). */
  localePrefix: '' | '/ja';
  preview: boolean;
  /** Keep search engines off the page (staff-only pages). */
  noindex?: boolean | undefined;
  assets: { css: string; js: string };
  /** The site's brand colours (site.yaml theme), a stylesheet after the base one. */
  themeCss?: string | undefined;
  /** The site's deployment labels (site.yaml deployments), shown wherever a page names an edition. */
  deployments?: DeploymentNames | undefined;
  canonicalUrl: string;
  title: string;
  description?: string | undefined;
  year: number;
  /** Footer links from the site metadata (spec §2); site paths are already prefixed for the page's language. */
  footerLinks: { label: string; href: string }[];
  /** The vendor's own sites, from the site metadata in content. */
  siteLinks: SiteLinks;
  faviconUrl?: string | undefined;
  visitor: Visitor;
  header: HeaderModel;
  /** The hidden credits overlay's list (spec §2), from the site metadata; none when content gives none. */
  credits?: CreditsModel | undefined;
  /**
   * Editor shortcuts for authors (spec §6): content editor, and document editor when there is a page id;
   * `label` and `documentLabel` are the editors' configured names, `kind` what the page is ('Edit this …').
   */
  editLinks?: {
    contentEditor?: string | undefined; documentEditor?: string | undefined; label: string;
    documentLabel?: string | undefined; kind?: EditKind | undefined;
  } | undefined;
  /** Staff on a KB article (spec §1, §6): where 'Edit this KB Article' leads; none without an editor. */
  staffEditHref?: string | undefined;
  /** The AI assistant widget's props, on pages where it shows (server/flags/ai-widget.ts). */
  assistant?: import('./islands/assistant-widget.tsx').AssistantWidgetProps | undefined;
  /** Who publishes the site, for its schema.org linked data (views/parts/linked-data.tsx); none without site metadata. */
  identity?: SiteIdentity | undefined;
}

/** The site's identity from its metadata in content (spec §3 Metadata) and its public URL. */
export interface SiteIdentity {
  /** PUBLIC_URL, without a trailing slash. */
  url: string;
  publisher: string;
  legalName: string;
  brand: string;
  license?: string | undefined;
  logoUrl?: string | undefined;
  /** Names of the products the publisher owns. */
  owns: string[];
  /** The site's language (BCP 47). */
  language: string;
}

/** What an author's 'Edit this …' hint calls the page. */
export type EditKind = 'topic' | 'topicSet' | 'collection' | 'guide' | 'kbArticle' | 'page';

/** The credits overlay (spec §2, §4): its heading and the team, in content order. */
export interface CreditsModel {
  heading: string;
  people: { name: string; role: string }[];
}

export interface Crumb {
  label: string;
  href: string;
}

/** A page-tree node, up to three levels (spec §3). */
export interface TreeNode {
  id: string;
  title: string;
  href: string;
  current: boolean;
  /** The current item and its parents start open (spec §4). */
  open: boolean;
  /**
   * Only the current branch carries its children; elsewhere a node is a link to its page, which lists
   * them (so the tree does not grow with the site).
   */
  children: TreeNode[];
  /** Set when `children` is a window of a longer list: the whole list is on this node's page. */
  more?: MoreLink | undefined;
}

/** A link to the page that lists all of a list shortened here: `count` items in all. */
export interface MoreLink {
  href: string;
  count: number;
  title: string;
}

export interface PageTreeModel {
  title: string;
  href: string;
  /** The documentation home's icon, beside the tree's title (40x40, spec §9). */
  iconUrl?: string | undefined;
  nodes: TreeNode[];
  /** Set when `nodes` is a window of the collections: the documentation home lists them all. */
  more?: MoreLink | undefined;
}

/** Deployment and version selector (spec §5: buttons only with a cloud URL and a server URL or versions). */
export interface DeploymentSelectorModel {
  current: 'cloud' | 'data-center';
  cloudHref?: string | undefined;
  dataCenterHref?: string | undefined;
  /**
   * Data center versions, newest first; the version form is a GET to versionAction. `href` is this page
   * in that version, when it has one; otherwise the version modal offers `searchHref` and `browseHref`.
   */
  versions: VersionChoice[];
  versionAction: string;
  /** Hidden fields of the version form. */
  versionFields: Record<string, string>;
}

export interface VersionChoice {
  number: string;
  selected: boolean;
  href?: string | undefined;
  searchHref?: string | undefined;
  browseHref?: string | undefined;
}

export interface NoticeModel {
  title: string;
  appearance: 'info' | 'confirmation' | 'change';
  message: BodyProps;
}

/** Was-this-helpful (spec §4 Feedback): a real POST form, post/redirect/get. */
export interface FeedbackModel {
  action: string;
  entryId: string;
  returnTo: string;
  csrfToken: string;
  state: 'ask' | 'reasons' | 'thanks';
  /** After 'No' and a reason: the contact form about this page, with the page, product and reason filled in. */
  contactHref?: string | undefined;
  /** The contact form of the page's language (/contact or /ja/contact), for the thanks shown in place. */
  contactBase?: string | undefined;
}

/** The reasons offered after 'No' (spec §8), by the value the form posts; their words are in the catalogue (views/i18n). */
export const FEEDBACK_REASONS = [
  { value: 'not-accurate' },
  { value: 'not-clear' },
  { value: 'not-relevant' },
] as const;

export interface SiblingItem {
  title: string;
  href: string;
  current: boolean;
  /** Progress mode (guides): visited, current or upcoming. */
  progress?: 'visited' | 'current' | 'upcoming' | undefined;
}

export interface SiblingsModel {
  heading: string;
  /** At most a window around the current page in a long section; `more` leads to the whole list. */
  items: SiblingItem[];
  mode: 'window' | 'progress';
  more?: MoreLink | undefined;
}

export interface UpNextModel {
  previous?: CardLink | undefined;
  next?: CardLink | undefined;
  /** 'More in this guide': the guide's other topic sets. */
  otherSets: CardLink[];
}

/** Helpful topics (spec §2): cards for at most 5, else a link list; three external links always follow. */
export interface HelpfulTopicsModel {
  cards: CardLink[];
  external: Link[];
}

export interface ContactBlockModel {
  contactHref: string;
  communityHref: string;
  signedIn: boolean;
  loginHref: string;
}

export interface TopicPageModel {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  tree: PageTreeModel | null;
  deploymentSelector: DeploymentSelectorModel | null;
  notice: NoticeModel | null;
  title: string;
  version: string | null;
  featuredVideo: { videoUrl: string } | null;
  body: BodyProps | null;
  toc: { id: string; text: string; level: 2 | 3 }[];
  lastPublished: string | null;
  feedback: FeedbackModel;
  contact: ContactBlockModel;
  exploreMore: CardLink[];
  siblings: SiblingsModel | null;
  communityHref: string;
  upNext: UpNextModel | null;
}

export interface TopicSetPageModel {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  tree: PageTreeModel | null;
  title: string;
  overview: BodyProps | null;
  topics: CardLink[];
  feedback: FeedbackModel;
  contact: ContactBlockModel;
  siblings: SiblingsModel | null;
  upNext: UpNextModel | null;
}

export interface CollectionPageModel {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  tree: PageTreeModel | null;
  /** Absent for hub contexts (spec §2). */
  deploymentSelector: DeploymentSelectorModel | null;
  notice: NoticeModel | null;
  contextTitle: string;
  title: string;
  subhead?: string | undefined;
  body: BodyProps | null;
  /** Child cards; the button says 'View topic' or 'View topics'. */
  children: (CardLink & { kind: 'topic' | 'topics' })[];
  contact: ContactBlockModel;
}

export interface DocumentedProductModel {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  tree: PageTreeModel | null;
  deploymentSelector: DeploymentSelectorModel | null;
  notice: NoticeModel | null;
  title: string;
  tagline?: string | undefined;
  iconUrl?: string | undefined;
  /** The hero search: /search-results/ filtered by product, deployment and version. */
  search: { action: string; fields: Record<string, string> };
  guides: CardLink[];
  /** Documentation lists: 5 child links, then show more. */
  lists: { title: string; href: string; description?: string | undefined; links: Link[] }[];
  contact: ContactBlockModel;
}

export interface ProductLandingModel {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  deploymentSelector: DeploymentSelectorModel | null;
  notice: NoticeModel | null;
  title: string;
  tagline?: string | undefined;
  iconUrl?: string | undefined;
  /** The product's name with its deployment, for the link texts (the page title may be 'X support'). */
  productLabel?: string | undefined;
  docsHref?: string | undefined;
  /** The documentation page's and knowledge base's own titles, their links' texts where they have one. */
  docsTitle?: string | undefined;
  kbHref?: string | undefined;
  kbTitle?: string | undefined;
  /** The product's related-resources page, /{product-slug}/resources (spec §2 related-resource card links). */
  resourcesHref?: string | undefined;
  /** The product support page, when the product has one. */
  supportHref?: { label: string; href: string } | undefined;
  resources: CardLink[];
  collections: CardLink[];
  supportForms: { label: string; href: string }[];
  helpful: HelpfulTopicsModel;
  contact: ContactBlockModel;
}

export interface HomePageModel {
  chrome: Chrome;
  title: string;
  tagline?: string | undefined;
  featured: { title: string; entries: (Link & { external: boolean })[] } | null;
  /** Browse by product: tabs Cloud / Data Center; without JavaScript the tab is a link (?platform=). */
  platform: 'cloud' | 'data-center';
  products: { cloud: CardLink[]; dataCenter: CardLink[] };
  /** Featured cards first, then the others; hideInHeader cards skipped (spec §5). */
  resources: CardLink[];
  contact: ContactBlockModel;
}

export interface KbHomeModel {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  productName: string;
  articles: CardLink[];
  moreWaysToGetHelp: Link[];
  contact: ContactBlockModel;
}

export interface KbArticleModel {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  title: string;
  notice: PlatformNoticeProps | null;
  body: BodyProps | null;
  lastPublished: string | null;
  products: { name: string; platform: string; version: string }[];
  /** Spec §5: shown only if some product version is not the portfolio product. */
  sidebarPlatform: string | null;
  feedback: FeedbackModel;
  contact: ContactBlockModel;
  staffEditHint: boolean;
}

export interface FormShellModel {
  chrome: Chrome;
  kind: 'contact' | 'hotContact' | 'partnerContact' | 'statusPageContact' | 'myRequests' | 'fileDownload';
  title: string;
  tagline?: string | undefined;
  /** The external form app's URL for this visitor (authenticated or not, spec §6). */
  formUrl?: string | undefined;
  partnerPortalHref?: string | undefined;
  /** On the general contact page: the other contact pages (critical outage, status page, partners). */
  otherContacts?: Link[] | undefined;
}

export interface VersionNotFoundModel {
  chrome: Chrome;
  version: string;
  searchHref: string;
  browseHref: string;
  cancelHref: string;
}

export interface PreviewErrorModel {
  chrome: Chrome;
  /** The title of the preview-error page in content. */
  title: string;
  message: string;
}

/** Related resources of one product: /{product}/resources (spec §2 related-resource links). */
export interface ResourcesPageModel {
  chrome: Chrome;
  breadcrumbs: Crumb[];
  title: string;
  cards: CardLink[];
  helpful: HelpfulTopicsModel;
  contact: ContactBlockModel;
}

/** Search filter state, all of it in the URL (spec §4 filter state). */
export interface SearchState {
  searchTerm: string;
  deployment: 'cloud' | 'data_center' | '';
  product: string;
  version: string;
  /** Selected content types (comma-separated in the URL). */
  contentTypes: string[];
  sort: 'relevance' | 'last_published';
  category: string;
  /** 1-based page number. */
  page: number;
}

export interface SearchResultCard {
  id: string;
  position: number;
  href: string;
  title: string;
  /** Escaped text with <mark> around matched terms, made by the search engine (never content HTML). */
  descriptionHtml: import('./rich-text/safe-html.tsx').SafeHtml;
  breadcrumbs: string[];
  dateModified: string | null;
  views: number;
  helpfulCount: number;
  products: { name: string; platform: 'cloud' | 'data_center'; versions: string[] }[];
  contentTypeLabel: string;
  /** The section whose heading matched the search; href links to its anchor. */
  section?: string | undefined;
}

export interface SearchFacetOption {
  key: string;
  label: string;
  count?: number | undefined;
  selected: boolean;
  /** The URL with this option toggled (changing a filter returns to page 1, spec §4). */
  href: string;
}

/**
 * The ways on from a search without results (issue 30 'No dead ends'), each a plain link or
 * server-rendered text: the spelling suggestion, the assistant's answer, the contact form.
 */
export interface NoResultsWays {
  /** The corrected search, offered only when it finds something (with the filters, else without them). */
  suggestion?: { term: string; href: string } | undefined;
  /** The assistant's answer to the same words, for whoever may ask it; none when it found nothing. */
  answer?: import('./islands/assistant-answer.tsx').AnswerView | undefined;
  /** The contact form with the search filled in. */
  contactHref: string;
}

export interface SearchResultsModel {
  chrome: Chrome;
  state: SearchState;
  /** The sub-header under the search box's title (spec §2): the search page's tagline in content. */
  subheader: string;
  /** New-filter experiment (spec §4): category tabs + content-type checkboxes, no product counts. */
  newFilters: boolean;
  /** The AI summary dialog (spec §4), when its experiment is on for the account. */
  aiSummary?: import('./islands/assistant-summary.tsx').AssistantSummaryProps | undefined;
  status: 'empty' | 'results' | 'no-results' | 'error';
  queryId?: string | undefined;
  total: number;
  pageSize: number;
  /** 'Showing results for' the searched query and 'Search instead for' the original, when a spelling fix was used. */
  rewrite?: { searched: string; original: string; originalHref: string } | undefined;
  /**
   * What the page changed about the search it was asked for, in the visitor's words: a term cut to the
   * words and characters a search may have, address options it could not use and left out.
   */
  notes?: string[] | undefined;
  results: SearchResultCard[];
  /** Content-type tabs with counts (experiment off) or category tabs (experiment on). */
  tabs: SearchFacetOption[];
  /** Content-type checkboxes (experiment on). */
  contentTypeOptions: SearchFacetOption[];
  deployments: SearchFacetOption[];
  products: SearchFacetOption[];
  /** Offered only for data center with a product chosen (spec §5). */
  versions: SearchFacetOption[];
  /** The chosen product as a removable tag: removing clears product, deployment and versions. */
  productTag?: { label: string; removeHref: string } | undefined;
  resetHref: string;
  sortOptions: { value: 'relevance' | 'last_published'; label: string }[];
  /** Page buttons: at most 10, shown only when total exceeds the page size. */
  pagination: { pages: { number: number; href: string; current: boolean }[]; previousHref?: string | undefined; nextHref?: string | undefined } | null;
  errorMessage?: string | undefined;
  /** What a search without results offers instead (status 'no-results'). */
  noResults?: NoResultsWays | undefined;
}
