import type { FeaturedContent, Page, ResourceCard } from '../../content/schemas.ts';
import { HomePage } from '../../../views/pages/home-page.tsx';
import { cardOf } from '../chrome.ts';
import { contactModel } from '../context.ts';
import type { Loader, LoaderContext } from './shared.ts';

/** The support home and the Japanese home (spec §2): featured content, products by platform, resources. */
export const homeLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const { app } = ctx;
  const page = entry.fields as unknown as Page;
  const c = await ctx.chromeOf(request, entry, preview);
  const featured = page.featuredContent ? await app.content.byId(page.featuredContent, { preview: false }) : undefined;
  const ff = featured?.fields as FeaturedContent | undefined;
  const cards = (await app.content.byIds(page.resourceCards ?? [], { preview: false })).map((e) => e.fields as ResourceCard);
  const order = new Map((page.resourceCards ?? []).map((id, i) => [id, i]));
  const visible = cards.filter((card) => !card.hideInHeader)
    .sort((a, b) => Number(!!b.featured) - Number(!!a.featured) || (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  const platform = (request.query as { platform?: unknown }).platform === 'data-center' ? 'data-center' : 'cloud';
  const toCards = (list: { name: string; href: string; iconUrl?: string | undefined }[]) => list.map((p) => ({ title: p.name, href: p.href, iconUrl: p.iconUrl }));
  return {
    view: <HomePage chrome={c} title={entry.title ?? ''} tagline={page.tagline}
      featured={ff ? { title: ff.title, entries: ff.featuredEntries.map((e) => ({ label: e.linkText, href: e.url, external: e.linkTarget === '_blank' })) } : null}
      platform={platform} products={{ cloud: toCards(c.header.products.cloud), dataCenter: toCards(c.header.products.dataCenter) }}
      resources={visible.map(cardOf)} contact={contactModel(c)} />,
  };
};
