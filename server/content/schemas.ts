/**
 * The content model (spec §3). These schemas are the one source of the content types: the
 * authoring files are validated against them at import and the TypeScript types come from them.
 * Field names follow the spec; where a file uses a shorter name the comment gives the spec's.
 */
import { Type, type Static, type TSchema } from 'typebox';

const Id = Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 120, description: 'kebab-case id, unique in the tree' });
const Slug = Type.String({ pattern: '^[a-z0-9][a-z0-9-]*$', maxLength: 120, description: 'kebab-case URL segment' });
const Ref = Type.String({ minLength: 1, description: 'the id of another entry' });
// Link and image fields are checked by the URL classifier (url-fields.ts, urls.ts), which reads
// them as a browser does; a pattern here could not (tabs inside a scheme, `/\\host`).
const Url = Type.String({ minLength: 1, 'x-url': 'link', description: 'an absolute URL (https://…) or a site path (/…)' });
const ImageUrl = Type.String({ minLength: 1, 'x-url': 'image', description: 'an image: an absolute URL (https://…) or a site path (/…)' });
const DateTime = Type.String({ format: 'date-time', description: 'ISO 8601 date and time, e.g. 2026-05-01T09:00:00Z' });
const Language = Type.Union([Type.Literal('en-US'), Type.Literal('ja-JP')]);
const VersionNumber = Type.String({ pattern: '^[0-9]+(\\.[0-9]+)*$' });
const Icon = Type.Object({ url: ImageUrl }, { additionalProperties: false });
const Str = Type.String({ minLength: 1 });

/** Fields every page-like entry may carry. */
const PageCommon = {
  id: Id,
  published: Type.Optional(Type.Boolean({ description: 'false keeps the entry for preview only' })),
  lastPublished: Type.Optional(DateTime),
  metaDescription: Type.Optional(Type.String({ maxLength: 300 })),
  language: Type.Optional(Language),
};

/**
 * A deployment label of the site (site.yaml `deployments`, e.g. 'Cloud', 'Self-hosted'), or its value
 * (`cloud`, `data_center`); checked against the site's list at import (site-checks.ts).
 */
export const DeploymentSchema = Type.String({ minLength: 1, description: 'a deployment label from site.yaml deployments' });
export type Deployment = Static<typeof DeploymentSchema>;
/** The two deployment values of the site (spec §9): cloud, and the self-hosted edition. */
export const DeploymentValueSchema = Type.Union([Type.Literal('cloud'), Type.Literal('data_center')]);
export type DeploymentValue = Static<typeof DeploymentValueSchema>;

export const VersionSchema = Type.Object({
  number: VersionNumber,
  spaceId: Str,
  showInList: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });
export type Version = Static<typeof VersionSchema>;

export const DeploymentUrlsSchema = Type.Object({
  cloud: Type.Optional(Url), server: Type.Optional(Url), default: Type.Optional(Url),
}, { additionalProperties: false });

/** Product (spec §3): one per product and deployment. */
export const ProductSchema = Type.Object({
  id: Id,
  productNameId: Id,                 // productNameReference.id
  productName: Str,                  // productNameReference.productName
  internalTitle: Type.Optional(Str),
  deployment: DeploymentSchema,
  versions: Type.Optional(Type.Array(VersionSchema, { minItems: 1 })),
  icon: Type.Optional(Icon),
  iconAlternate: Type.Optional(Icon),
  productBlurb: Type.Optional(Str),
  deploymentUrls: Type.Optional(DeploymentUrlsSchema),
  hasProductLandingPage: Type.Optional(Type.Boolean()),
  docsHomeSlug: Type.Optional(Slug),
  supportTitle: Type.Optional(Str),
  customSupportFormAuthenticated: Type.Optional(Url),
  customSupportFormUnauthenticated: Type.Optional(Url),
  resourceSlug: Type.Optional(Slug),  // /{resourceSlug}/resources/
  /**
   * The portfolio product of spec §5: on KB articles its self-hosted edition shows as one name,
   * `selfHostedLabel` (default: the product name and the data_center deployment label), and no KB sidebar platform.
   */
  portfolio: Type.Optional(Type.Boolean()),
  selfHostedLabel: Type.Optional(Str),
  notice: Type.Optional(Ref),          // the notice of the product's context
}, { additionalProperties: false });
export type Product = Static<typeof ProductSchema>;

/** Metadata (spec §3): the site's identity, from content/site.yaml. */
export const MetadataSchema = Type.Object({
  id: Id, language: Language, publisher: Str, license: Type.Optional(Str), logo: ImageUrl, brand: Str,
  legalName: Str, owns: Type.Optional(Type.Array(Str)), siteName: Str,
  /** The site's icon (an SVG or PNG under /assets/content/), also served at /favicon.ico. */
  favicon: Type.Optional(Url),
  /**
   * The deployment labels (spec §9 values `cloud`, `data_center`): products and KB articles name a label;
   * without the list, 'Cloud' is cloud and 'Data Center' or 'Server' is data_center.
   */
  deployments: Type.Optional(Type.Array(Type.Object({
    value: DeploymentValueSchema, label: Str,
    /** Other labels meaning the same edition (e.g. an earlier name, 'Server'). */
    aliases: Type.Optional(Type.Array(Str)),
  }, { additionalProperties: false }), { minItems: 1 })),
  /**
   * End-of-support notices added to KB articles' platform notices (spec §2 Knowledge-base article): `text`
   * with {date} and {link} (the `linkText`, linking `href` when given), for articles on a self-hosted
   * platform and, when `products` is given, about one of those product families (productNameId).
   */
  endOfSupport: Type.Optional(Type.Array(Type.Object({
    text: Str, date: Type.String({ format: 'date', description: 'the date support ended, e.g. 2024-02-15' }),
    linkText: Type.Optional(Str), href: Type.Optional(Url), products: Type.Optional(Type.Array(Id, { minItems: 1 })),
  }, { additionalProperties: false }))),
  /** Brand colours (CSS colours), served as custom properties in /assets/theme/<hash>.css. */
  theme: Type.Optional(Type.Object({
    accent: Type.Optional(Str), accentText: Type.Optional(Str), text: Type.Optional(Str), muted: Type.Optional(Str),
    background: Type.Optional(Str), subtle: Type.Optional(Str), border: Type.Optional(Str), info: Type.Optional(Str),
  }, { additionalProperties: false })),
  /** The community site: 'Ask the community' links, with /tags/{product} for a product (spec §7 community links). */
  communityUrl: Type.Optional(Url),
  /**
   * 'Ask the community' (spec §7): the community's create-post page, a URL template whose {tags} becomes the
   * page's product names and deployments, each URL-encoded, comma-separated.
   */
  askCommunityUrl: Type.Optional(Type.String({ minLength: 1, description: 'an https:// URL template with {tags} (checked in site-checks.ts)' })),
  /** The partner portal button of the partner contact page (spec §2). */
  partnerPortalUrl: Type.Optional(Url),
  /** Links always appended to helpful topics: a marketplace, a developer site, training (spec §2). */
  helpfulLinks: Type.Optional(Type.Array(Type.Object({ label: Str, href: Url }, { additionalProperties: false }))),
  /** The KB home's 'More ways to get help' links (spec §2 Knowledge-base home). */
  moreWaysToGetHelp: Type.Optional(Type.Array(Type.Object({ label: Str, href: Url }, { additionalProperties: false }))),
  /** Hosts whose videos bodies may embed (`::video`, `<iframe>`), e.g. www.youtube-nocookie.com. */
  videoHosts: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z0-9.-]+(:[0-9]+)?$' }))),
  /** Hosts whose pages bodies may embed in a sandboxed frame (`::embed`), e.g. codesandbox.io. */
  embedHosts: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z0-9.-]+(:[0-9]+)?$' }))),
  /**
   * Footer links (spec §2): site paths get the /ja prefix on Japanese pages. `label` is English; `labels`
   * gives the label in another page language (e.g. `ja-JP`), else the English one shows.
   */
  /** Vendor staff's e-mail domain (spec §6), when STAFF_EMAIL_DOMAIN is unset: the domain or a subdomain of it. */
  staffDomain: Type.Optional(Str),
  /**
   * Author shortcut templates (spec §6), when CONTENT_EDITOR_URL / DOCUMENT_EDITOR_URL are unset: {file} (the
   * entry's file in the content tree), {entryId}, {path}; {pageId} for the document editor.
   */
  contentEditorUrl: Type.Optional(Str),
  documentEditorUrl: Type.Optional(Str),
  /** The editors' names, as authors know them ('Edit Page in {name}'), with the templates above. */
  contentEditorName: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  documentEditorName: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  /** The hidden credits overlay's list (spec §2, window.signpostCredits()): who made the site, and as what. */
  credits: Type.Optional(Type.Array(Type.Object({ name: Str, role: Str }, { additionalProperties: false }), { maxItems: 200 })),
  footerLinks: Type.Optional(Type.Array(Type.Object({
    label: Str, href: Url,
    labels: Type.Optional(Type.Object({ 'ja-JP': Type.Optional(Str) }, { additionalProperties: false })),
  }, { additionalProperties: false }))),
}, { additionalProperties: false });
export type Metadata = Static<typeof MetadataSchema>;

/**
 * Context (spec §3) with its four variants. Every product is also the product context of the
 * pages that name it (`context: <product id>`); context files hold the app, hub and
 * knowledge-base variants, and product contexts that need their own settings.
 */
const ContextCommon = {
  id: Id,
  internalTitle: Type.Optional(Str),
  notice: Type.Optional(Ref),
  basePath: Type.Optional(Type.String({ pattern: '^/[a-z0-9/-]*$' })),
  customSupportFormAuthenticated: Type.Optional(Url),
  customSupportFormUnauthenticated: Type.Optional(Url),
};
export const ContextSchema = Type.Union([
  Type.Object({ ...ContextCommon, type: Type.Literal('product'), product: Ref }, { additionalProperties: false }),
  Type.Object({ ...ContextCommon, type: Type.Literal('app'), appName: Str, product: Type.Optional(Ref) }, { additionalProperties: false }),
  Type.Object({ ...ContextCommon, type: Type.Literal('hub'), hubName: Str }, { additionalProperties: false }),
  Type.Object({
    ...ContextCommon, type: Type.Literal('knowledgeBase'), productName: Str, productNameId: Id,
    kbHomePage: Ref, kbArticlePage: Type.Optional(Ref),
  }, { additionalProperties: false }),
]);
export type Context = Static<typeof ContextSchema>;

export const NoticeSchema = Type.Object({
  id: Id, title: Str, message: Str,  // Markdown, rendered as rich text
  appearance: Type.Union(['info', 'confirmation', 'change', 'Announcement'].map((a) => Type.Literal(a))),
}, { additionalProperties: false });
export type Notice = Static<typeof NoticeSchema>;

export const ResourceCardSchema = Type.Object({
  id: Id, title: Str, shortTitle: Type.Optional(Str), shortDescription: Type.Optional(Str), description: Type.Optional(Str),
  productSupportHomeDescription: Type.Optional(Str), sacHomeDescription: Type.Optional(Str),
  buttonLink: Type.Optional(Url), buttonText: Type.Optional(Str), icon: Type.Optional(Icon),
  hideInHeader: Type.Optional(Type.Boolean()), featured: Type.Optional(Type.Boolean()),
  relatedApps: Type.Optional(Type.Array(Ref)),  // products this card helps with (helpful topics)
}, { additionalProperties: false });
export type ResourceCard = Static<typeof ResourceCardSchema>;

export const DocumentationCardSchema = Type.Object({ id: Id, title: Str, url: Url, description: Str }, { additionalProperties: false });
export const GuideLinkSchema = Type.Object({ title: Str, url: Url, description: Str }, { additionalProperties: false });
export const TopicSetLinkSchema = Type.Object({ title: Str, description: Str, link: Url }, { additionalProperties: false });

export const FeaturedEntrySchema = Type.Object({
  id: Id, url: Url, linkText: Str, linkTarget: Type.Optional(Type.Union([Type.Literal('_self'), Type.Literal('_blank')])),
  type: Type.Optional(Str),
}, { additionalProperties: false });
export const FeaturedContentSchema = Type.Object({
  id: Id, title: Str, featuredEntries: Type.Array(FeaturedEntrySchema, { minItems: 1 }),
}, { additionalProperties: false });
export type FeaturedContent = Static<typeof FeaturedContentSchema>;

const HeaderProductSchema = Type.Object({ product: Ref }, { additionalProperties: false });
export const HeaderMenuSchema = Type.Object({
  id: Id, heading: Str,
  primarySection: Type.Array(Type.Object({ title: Str, buttonLink: Url, shortDescription: Type.Optional(Str) }, { additionalProperties: false })),
  primarySectionRows: Type.Optional(Type.Integer({ minimum: 1, maximum: 6 })),
  secondarySection: Type.Optional(Type.Object({
    heading: Str, numberOfColumns: Type.Integer({ minimum: 1, maximum: 4 }),
    resources: Type.Array(Type.Object({ linkText: Str, url: Url }, { additionalProperties: false })),
  }, { additionalProperties: false })),
}, { additionalProperties: false });

/** Header content (spec §3), from content/header.yaml. */
export const HeaderSchema = Type.Object({
  id: Id,
  logo: Type.Object({ v1: Icon, v2: Type.Optional(Icon), v3: Type.Optional(Icon) }, { additionalProperties: false }),
  supportLogo: Type.Optional(Icon),    // atlassianSupportLogo
  vendorLogo: Type.Optional(Icon),     // atlassianLogo
  cloudProducts: Type.Array(HeaderProductSchema),
  serverProducts: Type.Array(HeaderProductSchema),
  additionalLinks: Type.Optional(Type.Array(Type.Object({ id: Id, linkLabel: Str, linkUrl: Url, linkIcon: Type.Optional(Str) }, { additionalProperties: false }))),
  resources: Type.Array(Ref),           // resource card ids
  guides: Type.Array(GuideLinkSchema),
  documentation: Type.Optional(Type.Array(DocumentationCardSchema)),
  menus: Type.Optional(Type.Array(HeaderMenuSchema)),
  showPreviewBanner: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });
export type Header = Static<typeof HeaderSchema>;

export const FeaturedVideoSchema = Type.Object({ videoUrl: Url }, { additionalProperties: false });

export const TopicSchema = Type.Object({
  ...PageCommon,
  title: Str,                          // topicTitle
  shortTitle: Type.Optional(Str),
  slug: Slug,
  context: Ref,
  versions: Type.Optional(Type.Array(VersionNumber, { minItems: 1 })),
  featuredVideo: Type.Optional(FeaturedVideoSchema),
  extensionsData: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  confluencePageId: Type.Optional(Str),
}, { additionalProperties: false });
export type Topic = Static<typeof TopicSchema>;

export const TopicSetSchema = Type.Object({
  ...PageCommon,
  title: Str, slug: Slug, context: Ref, description: Type.Optional(Str),
  topics: Type.Array(Ref, { minItems: 1 }),   // topicReferences
  versions: Type.Optional(Type.Array(VersionNumber, { minItems: 1 })),
}, { additionalProperties: false });
export type TopicSet = Static<typeof TopicSetSchema>;

export const CollectionSchema = Type.Object({
  ...PageCommon,
  title: Str, slug: Slug, context: Ref, subhead: Type.Optional(Str), description: Type.Optional(Str),
  icon: Type.Optional(Icon), buttonText: Type.Optional(Str),
  children: Type.Array(Ref, { minItems: 1 }),  // childrenReferences
  pageType: Type.Optional(Type.Literal('Guide')),
  versions: Type.Optional(Type.Array(VersionNumber, { minItems: 1 })),
}, { additionalProperties: false });
export type Collection = Static<typeof CollectionSchema>;

export const KbPlatformSchema = Type.Union([
  Type.Literal('cloud-only'), Type.Literal('cloud-and-data-center'), Type.Literal('data-center-only'),
  Type.Literal('data-center-and-cloud-by-request'),
]);
export type KbPlatform = Static<typeof KbPlatformSchema>;
/** A deployment label of the site (checked at import against site.yaml `deployments`). */
const PlatformName = DeploymentSchema;

export const KbArticleSchema = Type.Object({
  ...PageCommon,
  title: Str, slug: Slug, context: Ref,
  type: Type.Optional(Type.Union([Type.Literal('KbArticleMigrated'), Type.Literal('legacy')])),
  platform: Type.Optional(KbPlatformSchema),
  productVersions: Type.Optional(Type.Array(Type.Object({
    product: Ref, platform: PlatformName, versionNumber: Type.Optional(Str), versionModifier: Type.Optional(Str),
  }, { additionalProperties: false }))),
  appVersions: Type.Optional(Type.Array(Type.Object({
    app: Str, platform: PlatformName, versionNumber: Type.Optional(Str), versionModifier: Type.Optional(Str),
  }, { additionalProperties: false }))),
}, { additionalProperties: false });
export type KbArticle = Static<typeof KbArticleSchema>;

export const PageTypeSchema = Type.Union([
  'home', 'productLanding', 'productSupport', 'documentedProduct', 'kbHome', 'contact', 'hotContact', 'partnerContact',
  'statusPageContact', 'myRequests', 'fileDownload', 'notFound', 'previewError', 'searchResults', 'resources', 'legal',
].map((t) => Type.Literal(t)));
export type PageType = Static<typeof PageTypeSchema>;

/** Entry or page (spec §3): the single pages of the site. */
export const PageSchema = Type.Object({
  ...PageCommon,
  pageType: PageTypeSchema,
  title: Str,
  tagline: Type.Optional(Str),
  icon: Type.Optional(Icon),
  context: Type.Optional(Ref),
  path: Type.Optional(Type.String({ pattern: '^/[a-z0-9/_-]*$' })),
  collections: Type.Optional(Type.Array(Ref)),          // collectionReferences
  resourceCards: Type.Optional(Type.Array(Ref)),
  relatedApps: Type.Optional(Type.Array(Ref)),          // relatedAppReferences
  featuredContent: Type.Optional(Ref),
  versions: Type.Optional(Type.Array(VersionNumber, { minItems: 1 })),
  supportForm: Type.Optional(Type.Object({ authenticated: Url, unauthenticated: Url }, { additionalProperties: false })),
  /** The built-in support form of a contact or file-download page (a `forms/` entry). */
  form: Type.Optional(Ref),
  searchOptions: Type.Optional(Type.Object({
    filters: Type.Optional(Type.Object({
      platforms: Type.Optional(Type.Array(Str)), contentTypes: Type.Optional(Type.Array(Str)), categories: Type.Optional(Type.Array(Str)),
    }, { additionalProperties: false })),
    sortOptions: Type.Optional(Type.Array(Type.Union([Type.Literal('relevance'), Type.Literal('last_published')]))),
  }, { additionalProperties: false })),
  confluencePageId: Type.Optional(Str),
}, { additionalProperties: false });
export type Page = Static<typeof PageSchema>;

/** Text in another page language than English, e.g. `{ ja-JP: … }`. */
const Translations = Type.Object({ 'ja-JP': Type.Optional(Str) }, { additionalProperties: false });

export const FormFieldTypeSchema = Type.Union([
  'text', 'longText', 'email', 'select', 'product', 'version', 'severity', 'checkbox', 'file',
].map((t) => Type.Literal(t)));
export type FormFieldType = Static<typeof FormFieldTypeSchema>;

/** One field of a support form, with its words and its rules. */
export const FormFieldSchema = Type.Object({
  name: Type.String({ pattern: '^[a-z][a-zA-Z0-9]*$', maxLength: 40, description: 'the posted name, camelCase' }),
  type: FormFieldTypeSchema,
  label: Str,
  labels: Type.Optional(Translations),
  help: Type.Optional(Str),
  helps: Type.Optional(Translations),
  /** Who is asked: anonymous visitors only (their e-mail, their name), signed-in only, or everyone (default). */
  audience: Type.Optional(Type.Union([Type.Literal('everyone'), Type.Literal('anonymous'), Type.Literal('signedIn')])),
  required: Type.Optional(Type.Boolean()),
  minLength: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000 })),
  maxLength: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000 })),
  /** A regular expression the whole value must match (text fields). */
  pattern: Type.Optional(Str),
  /** Allowed values of a select field, with their words. */
  options: Type.Optional(Type.Array(Type.Object({
    value: Type.String({ minLength: 1, maxLength: 100 }), label: Str, labels: Type.Optional(Translations),
  }, { additionalProperties: false }), { minItems: 1 })),
}, { additionalProperties: false });
export type FormField = Static<typeof FormFieldSchema>;

/** A support form (issue 'Forms that work without JavaScript'): the fields a contact page asks for. */
export const FormSchema = Type.Object({
  id: Id,
  title: Str,
  titles: Type.Optional(Translations),
  intro: Type.Optional(Str),
  intros: Type.Optional(Translations),
  /** The field whose value is the request's subject; without one, the form's title. */
  subjectField: Type.Optional(Type.String({ minLength: 1 })),
  submitLabel: Type.Optional(Str),
  submitLabels: Type.Optional(Translations),
  fields: Type.Array(FormFieldSchema, { minItems: 1, maxItems: 40 }),
}, { additionalProperties: false });
export type Form = Static<typeof FormSchema>;

export const MediaSchema = Type.Object({ id: Id, image: Type.Object({ url: ImageUrl }, { additionalProperties: false }), altTag: Type.String() }, { additionalProperties: false });
export type Media = Static<typeof MediaSchema>;
export const FragmentSchema = Type.Object({ id: Id, title: Type.Optional(Str) }, { additionalProperties: false });

/**
 * Search settings (content/search.yaml): synonym groups (a query word or phrase of a group matches
 * any member of it) and stop phrases taken out of queries; server/search/settings.ts checks more.
 */
const SearchTerm = Type.String({ minLength: 1, maxLength: 80, description: 'a word or phrase, matched whatever its case' });
export const SearchSettingsSchema = Type.Object({
  id: Id,
  synonyms: Type.Optional(Type.Array(Type.Array(SearchTerm, { minItems: 2, maxItems: 12 }), { maxItems: 1000 })),
  stopPhrases: Type.Optional(Type.Array(SearchTerm, { maxItems: 200 })),
}, { additionalProperties: false });

/** Which folder holds which entry type, and whether its files have a body. */
export const ENTRY_KINDS = {
  topic: { folder: 'topics', schema: TopicSchema, body: true },
  topicSet: { folder: 'topic-sets', schema: TopicSetSchema, body: true },
  collection: { folder: 'collections', schema: CollectionSchema, body: true },
  kbArticle: { folder: 'kb', schema: KbArticleSchema, body: true },
  page: { folder: 'pages', schema: PageSchema, body: true },
  product: { folder: 'products', schema: ProductSchema, body: false },
  context: { folder: 'contexts', schema: ContextSchema, body: false },
  notice: { folder: 'notices', schema: NoticeSchema, body: false },
  resourceCard: { folder: 'resource-cards', schema: ResourceCardSchema, body: false },
  featuredContent: { folder: 'featured', schema: FeaturedContentSchema, body: false },
  media: { folder: 'media', schema: MediaSchema, body: false },
  fragment: { folder: 'fragments', schema: FragmentSchema, body: true },
  form: { folder: 'forms', schema: FormSchema, body: false },
} as const satisfies Record<string, { folder: string; schema: TSchema; body: boolean }>;
export type EntryKind = keyof typeof ENTRY_KINDS | 'header' | 'metadata' | 'searchSettings';

/** Single files at the top of the content tree. */
export const SINGLE_FILES = {
  'site.yaml': { kind: 'metadata', schema: MetadataSchema },
  'header.yaml': { kind: 'header', schema: HeaderSchema },
  'search.yaml': { kind: 'searchSettings', schema: SearchSettingsSchema },
} as const;
