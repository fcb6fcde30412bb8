/**
 * The chrome every page shares (header menus, footer, visitor), built from the header, products
 * and resource cards. Built once per content version and language; the visitor is per request.
 */
import { resolve, sep } from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { StoredEntry } from '../content/store.ts';
import type { Header, Metadata, ResourceCard } from '../content/schemas.ts';
import { classifyUrl, isExternalUrl } from '../content/urls.ts';
import { deploymentNames, deploymentsOf } from '../content/deployments.ts';
import type { CardLink, Chrome, EditKind, HeaderModel } from '../../views/view-model.ts';
import { isPartnerHost, requestVisitor } from '../identity/roles.ts';
import { assistantWidgetOf } from '../assistant/widget.ts';
import { stringsFor } from '../../views/i18n/catalogue.tsx';
import { renderedVisitor } from '../identity/personal-pages.ts';

/** What the chrome reads of the configuration; partner hosts and editor templates are optional (tests). */
export type SiteConfig = Pick<Config, 'publicUrl' | 'identityUrl' | 'staffDomain'>
  & Partial<Pick<Config, 'partnerHosts' | 'contentEditorUrl' | 'documentEditorUrl' | 'contentEditorName' | 'documentEditorName' | 'contentDir'>>;

export function cardOf(card: ResourceCard): CardLink {
  return {
    title: card.title, href: card.buttonLink ?? '#', description: card.shortDescription ?? card.description,
    iconUrl: card.icon?.url, buttonText: card.buttonText, external: isExternalUrl(card.buttonLink ?? ''),
  };
}

/**
 * Spec §2 helpful topics: the site's external links are always appended, so a resource card leading
 * where one of them leads, or with the same name, would show the same topic twice: the card is left out.
 */
export function withoutRepeatedLinks(cards: CardLink[], links: readonly { label: string; href: string }[]): CardLink[] {
  const place = (href: string) => href.trim().toLowerCase().replace(/^https?:\/\//, '').replace(/#.*$/, '').replace(/\/+$/, '');
  const hrefs = new Set(links.map((l) => place(l.href)));
  const names = new Set(links.map((l) => l.label.trim().toLowerCase()));
  return cards.filter((card) => !hrefs.has(place(card.href)) && !names.has(card.title.trim().toLowerCase()));
}

/** Spec §2 related-resource card links: /{product-slug}/resources. */
export function resourcesHref(product: StoredEntry): string {
  return `/${String(product.fields.resourceSlug ?? product.id)}/resources`;
}

/** Spec §2/§3: the product's landing page, else its documentation. */
export function productHref(product: StoredEntry): string {
  return `/${product.id}`;
}

async function headerModel(app: FastifyInstance, config: SiteConfig, language: string): Promise<Omit<HeaderModel, 'loginHref' | 'switchAccountHref' | 'waffle'>> {
  const header = (await app.content.singleton('header'))?.fields as Header | undefined;
  const productIds = [...(header?.cloudProducts ?? []), ...(header?.serverProducts ?? [])].map((p) => p.product);
  const cardIds = header?.resources ?? [];
  const related = new Map((await app.content.byIds([...productIds, ...cardIds], { preview: false })).map((e) => [e.id, e]));
  const product = (id: string) => {
    const entry = related.get(id);
    if (!entry) return [];
    const f = entry.fields as { productName?: string; icon?: { url: string } };
    return [{ name: `${f.productName ?? entry.title ?? id}`, href: productHref(entry), iconUrl: f.icon?.url }];
  };
  const resources = cardIds
    .map((id) => related.get(id)?.fields as ResourceCard | undefined)
    .filter((c): c is ResourceCard => !!c && !c.hideInHeader)
    .map(cardOf);
  const ja = language === 'ja-JP';
  return {
    logoUrl: header?.logo.v1.url ?? '',
    homeHref: ja ? '/ja' : '/',
    products: {
      cloud: (header?.cloudProducts ?? []).flatMap((p) => product(p.product)),
      dataCenter: (header?.serverProducts ?? []).flatMap((p) => product(p.product)),
    },
    guides: (header?.guides ?? []).map((g) => ({ title: g.title, href: g.url, description: g.description })),
    documentation: (header?.documentation ?? []).map((d) => ({ title: d.title, href: d.url, description: d.description })),
    resources,
    menus: (header?.menus ?? []).map((m) => ({
      id: m.id, heading: m.heading,
      primary: m.primarySection.map((p) => ({ title: p.title, href: p.buttonLink, description: p.shortDescription, external: isExternalUrl(p.buttonLink) })),
      secondary: m.secondarySection
        ? { heading: m.secondarySection.heading, columns: m.secondarySection.numberOfColumns, links: m.secondarySection.resources.map((r) => ({ label: r.linkText, href: r.url })) }
        : undefined,
    })),
    additionalLinks: (header?.additionalLinks ?? []).map((l) => ({ label: l.linkLabel, href: l.linkUrl })),
    contactHref: ja ? '/ja/contact' : '/contact',
    supportBase: '',
    // Spec §7 account links: the profile page, and log out, a POST form (server/identity/routes.tsx).
    manageProfileHref: `${config.identityUrl}/manage-profile`,
    logoutHref: `${config.identityUrl}/logout`,
  };
}

/** An editor link from a template (spec §6 author): every placeholder filled, else none. */
/**
 * Local editors' URL schemes, allowed in an editor template in dev mode only (`npm run dev`), so an
 * author's click opens the entry's file at its line: VS Code and its kin, Zed, JetBrains IDEs, Sublime
 * Text, TextMate, MacVim. Production keeps web editors (https) and site paths.
 */
export const DEV_EDITOR_SCHEMES = ['vscode', 'vscode-insiders', 'vscodium', 'cursor', 'windsurf', 'zed', 'idea', 'jetbrains', 'subl', 'txmt', 'mvim'];
const DEV_EDITOR_URL = new RegExp(`^(${DEV_EDITOR_SCHEMES.join('|')})://`, 'i');

export function editorLink(template: string | undefined, values: Record<string, string | undefined>, options: { dev?: boolean } = {}): string | undefined {
  if (!template) return undefined;
  let missing = false;
  const href = template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(values, name)) return whole;
    const value = values[name];
    if (value === undefined || value === '') {
      missing = true;
      return '';
    }
    // A file path keeps its slashes; every other value is one path segment or query value.
    return name === 'file' || name === 'path' || name === 'absolutePath' ? encodeURI(value) : encodeURIComponent(value);
  });
  if (missing) return undefined;
  return /^(https?:\/\/|\/(?![/\\]))/i.test(href) || (options.dev === true && DEV_EDITOR_URL.test(href)) ? href : undefined;
}

/**
 * The content file an entry was imported from, relative to the content tree (content_entries.source):
 * read once per content version (the entry ids are those of pages that exist, so the cache stays small).
 */
async function sourceOf(app: FastifyInstance, request: FastifyRequest, entryId: string): Promise<{ source: string; line: number } | undefined> {
  try {
    return await app.content.memo(`source:${entryId}`, async () =>
      (await app.db.query<{ source: string; line: number }>('select source, source_line as line from content_entries where id = $1', [entryId]))[0]);
  } catch (error) {
    request.log.warn({ err: { message: (error as Error).message } }, 'editor link: content file unknown');
    return undefined;
  }
}

/**
 * A content file's absolute path with `/` separators and no leading `/`, so `vscode://file/{absolutePath}`
 * reads the same on Linux, macOS (`/home/…`) and Windows (`C:/…`).
 */
function absolutePathOf(contentDir: string, source: string): string {
  return resolve(contentDir, source).split(sep).join('/').replace(/^\/+/, '');
}

/** A footer link's label in the page's language, else its English label. */
function footerLabel(link: NonNullable<Metadata['footerLinks']>[number], language: string): string {
  return (language === 'ja-JP' ? link.labels?.['ja-JP'] : undefined) ?? link.label;
}

export interface ChromeInput {
  title: string;
  path: string | null;
  language: string;
  metaDescription?: string | undefined;
  preview: boolean;
  waffle?: boolean;
  editable?: { entryId: string; confluencePageId?: string | undefined; kind: EditKind } | undefined;
}

export async function buildChrome(app: FastifyInstance, request: FastifyRequest, config: SiteConfig, input: ChromeInput): Promise<Chrome> {
  const site = (await app.content.singleton('metadata'))?.fields ?? {};
  const header = await app.content.memo(`header:${input.language}`, () => headerModel(app, config, input.language));
  const requestPath = request.url.split('?')[0] ?? '/';
  const pageUrl = `${config.publicUrl}${input.path ?? requestPath}`;
  const hereUrl = `${config.publicUrl}${requestPath}`;
  const meta = site as Partial<Metadata>;
  // A signed-in page may be rendered once per role, with placeholders for the person (personal-pages.ts).
  const person = await requestVisitor(app, request, config);
  const visitor = renderedVisitor(request, person);
  const siteName = String(site.siteName ?? 'Support');
  const localePrefix = input.language === 'ja-JP' ? '/ja' : '';
  return {
    siteName,
    logoUrl: header.logoUrl,
    lang: input.language === 'ja-JP' ? 'ja' : 'en',
    localePrefix,
    preview: input.preview,
    assets: app.assets,
    themeCss: await app.themeStylesheet(),
    deployments: deploymentNames(deploymentsOf(meta)),
    canonicalUrl: pageUrl,
    title: input.title || siteName,
    description: input.metaDescription,
    year: new Date().getUTCFullYear(),
    footerLinks: (meta.footerLinks ?? []).map((l) => ({ label: footerLabel(l, input.language), href: classifyUrl(l.href).kind === 'site' ? `${localePrefix}${l.href}` : l.href })),
    faviconUrl: meta.favicon,
    siteLinks: {
      community: meta.communityUrl, askCommunity: meta.askCommunityUrl, partnerPortal: meta.partnerPortalUrl,
      helpful: meta.helpfulLinks ?? [], moreWaysToGetHelp: meta.moreWaysToGetHelp ?? [],
    },
    visitor,
    header: {
      ...header,
      // Spec §7: the login link continues to this page, the one requested: an older version's page is stored
      // under the latest version's path (pageUrl, the canonical address), but the reader stays on theirs.
      // Switch account asks the issuer to choose again.
      loginHref: `${config.identityUrl}/login?continue=${encodeURIComponent(hereUrl)}`,
      switchAccountHref: `${config.identityUrl}/login?prompt=select_account&application=sac&continue=${encodeURIComponent(hereUrl)}`,
      waffle: input.waffle ?? false,
    },
    credits: meta.credits?.length
      ? { heading: stringsFor(input.language === 'ja-JP' ? 'ja' : 'en').credits.heading, people: meta.credits } : undefined,
    ...await editorsOf(app, request, config, meta, visitor, input.editable, input.path ?? requestPath),
    // Spec §4 AI widget: decided for the person, on the request's own path and host.
    assistant: await assistantWidgetOf(request, person, requestPath, isPartnerHost(request, config.partnerHosts ?? []),
      input.language === 'ja-JP' ? 'ja' : 'en'),
    identity: meta.publisher ? {
      url: config.publicUrl, publisher: meta.publisher, legalName: meta.legalName ?? meta.publisher, brand: meta.brand ?? '',
      license: meta.license, logoUrl: meta.logo, owns: meta.owns ?? [], language: meta.language ?? 'en-US',
    } : undefined,
  };
}

/**
 * Spec §6: authors get the editor shortcuts of every editable page; staff, who may edit KB articles (§1),
 * get the KB article's 'Edit this KB Article' as a link to its editor (the document editor first).
 */
async function editorsOf(app: FastifyInstance, request: FastifyRequest, config: SiteConfig, meta: Partial<Metadata>,
  visitor: Chrome['visitor'], editable: ChromeInput['editable'], path: string): Promise<Pick<Chrome, 'editLinks' | 'staffEditHref'>> {
  if (!editable || !(visitor.canEdit || (visitor.staff && editable.kind === 'kbArticle'))) return {};
  const links = await editLinksOf(app, request, config, meta, editable, path);
  return {
    editLinks: visitor.canEdit ? links : undefined,
    staffEditHref: visitor.staff ? links?.documentEditor ?? links?.contentEditor : undefined,
  };
}

/**
 * Spec §6 author shortcuts: CONTENT_EDITOR_URL / DOCUMENT_EDITOR_URL, else the content metadata's
 * contentEditorUrl / documentEditorUrl, with {file}, {entryId}, {path} and {pageId} filled in. None when
 * neither is configured.
 */
async function editLinksOf(app: FastifyInstance, request: FastifyRequest, config: SiteConfig, meta: Partial<Metadata>,
  editable: NonNullable<ChromeInput['editable']>, path: string): Promise<Chrome['editLinks']> {
  const contentTemplate = config.contentEditorUrl ?? meta.contentEditorUrl;
  const documentTemplate = config.documentEditorUrl ?? meta.documentEditorUrl;
  if (!contentTemplate && !documentTemplate) return undefined;
  const needsSource = /\{(file|absolutePath|line)\}/;
  const source = needsSource.test(contentTemplate ?? '') || needsSource.test(documentTemplate ?? '') ? await sourceOf(app, request, editable.entryId) : undefined;
  // Live preview (npm run dev) alone links into a local editor: the file on this machine, at the entry's line.
  const dev = app.hasDecorator('dev');
  const values = {
    file: source?.source, entryId: editable.entryId, path, pageId: editable.confluencePageId,
    ...(dev && config.contentDir && source ? { absolutePath: absolutePathOf(config.contentDir, source.source), line: String(source.line) } : {}),
  };
  const contentEditor = editorLink(contentTemplate, values, { dev });
  const documentEditor = editable.confluencePageId ? editorLink(documentTemplate, values, { dev }) : undefined;
  if (!contentEditor && !documentEditor) return undefined;
  // An editor's name comes from where its template came from, so a template set in the environment is
  // never named after the content's own editor.
  const contentName = config.contentEditorUrl ? config.contentEditorName : meta.contentEditorName;
  const documentName = config.documentEditorUrl ? config.documentEditorName : meta.documentEditorName;
  return { label: contentName ?? '', documentLabel: documentName, kind: editable.kind, contentEditor, documentEditor };
}
