/**
 * The chrome every page shares (header menus, footer, visitor), built from the header, products
 * and resource cards. Built once per content version and language; the visitor is per request.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import type { StoredEntry } from '../content/store.ts';
import type { Header, Metadata, ResourceCard } from '../content/schemas.ts';
import { classifyUrl, isExternalUrl } from '../content/urls.ts';
import { ANONYMOUS, type CardLink, type Chrome, type HeaderModel, type Visitor } from '../../views/view-model.ts';

export type SiteConfig = Pick<Config, 'publicUrl' | 'identityUrl' | 'staffDomain'>;

export function cardOf(card: ResourceCard): CardLink {
  return {
    title: card.title, href: card.buttonLink ?? '#', description: card.shortDescription ?? card.description,
    iconUrl: card.icon?.url, buttonText: card.buttonText, external: isExternalUrl(card.buttonLink ?? ''),
  };
}

/** Spec §2 related-resource card links: /{product-slug}/resources. */
export function resourcesHref(product: StoredEntry): string {
  return `/${String(product.fields.resourceSlug ?? product.id)}/resources`;
}

/** Spec §2/§3: the product's landing page, else its documentation. */
export function productHref(product: StoredEntry): string {
  return `/${product.id}`;
}

async function headerModel(app: FastifyInstance, config: SiteConfig, language: string): Promise<Omit<HeaderModel, 'loginHref' | 'waffle'>> {
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
    manageProfileHref: `${config.identityUrl}/manage-profile`,
    switchAccountHref: `${config.identityUrl}/login?prompt=select_account&application=sac`,
    logoutHref: `${config.identityUrl}/logout?continue=${encodeURIComponent(config.publicUrl)}`,
  };
}

/** Who is asking. Sign-in comes later; until then every visitor is anonymous. */
export function visitorOf(_request: FastifyRequest): Visitor {
  return ANONYMOUS;
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
  editable?: { entryId: string; confluencePageId?: string | undefined; label: string } | undefined;
}

export async function buildChrome(app: FastifyInstance, request: FastifyRequest, config: SiteConfig, input: ChromeInput): Promise<Chrome> {
  const site = (await app.content.singleton('metadata'))?.fields ?? {};
  const header = await app.content.memo(`header:${input.language}`, () => headerModel(app, config, input.language));
  const requestPath = request.url.split('?')[0] ?? '/';
  const pageUrl = `${config.publicUrl}${input.path ?? requestPath}`;
  const visitor = visitorOf(request);
  const siteName = String(site.siteName ?? 'Support');
  const localePrefix = input.language === 'ja-JP' ? '/ja' : '';
  const meta = site as Partial<Metadata>;
  return {
    siteName,
    logoUrl: header.logoUrl,
    lang: input.language === 'ja-JP' ? 'ja' : 'en',
    localePrefix,
    preview: input.preview,
    assets: app.assets,
    canonicalUrl: pageUrl,
    title: input.title || siteName,
    description: input.metaDescription,
    year: new Date().getUTCFullYear(),
    footerLinks: (meta.footerLinks ?? []).map((l) => ({ label: footerLabel(l, input.language), href: classifyUrl(l.href).kind === 'site' ? `${localePrefix}${l.href}` : l.href })),
    faviconUrl: meta.favicon,
    siteLinks: {
      community: meta.communityUrl, partnerPortal: meta.partnerPortalUrl,
      helpful: meta.helpfulLinks ?? [], moreWaysToGetHelp: meta.moreWaysToGetHelp ?? [],
    },
    visitor,
    header: { ...header, loginHref: `${config.identityUrl}/login?continue=${encodeURIComponent(pageUrl)}`, waffle: input.waffle ?? false },
    editLinks: visitor.canEdit && input.editable
      ? {
          label: input.editable.label,
          contentEditor: `/editor/entries/${encodeURIComponent(input.editable.entryId)}`,
          documentEditor: input.editable.confluencePageId ? `/wiki/pages/${encodeURIComponent(input.editable.confluencePageId)}` : undefined,
        }
      : undefined,
  };
}
