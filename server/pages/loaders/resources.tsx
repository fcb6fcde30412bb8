import type { FastifyRequest } from 'fastify';
import type { Product } from '../../content/schemas.ts';
import { ResourcesPage } from '../../../views/pages/resources-page.tsx';
import { cardOf, productHref, resourcesHref } from '../chrome.ts';
import { contactModel } from '../context.ts';
import type { Loaded, LoaderContext } from './shared.ts';

/** Related resources of a product (spec §2): /{resourceSlug}/resources; null when no product has that slug. */
export async function resourcesPage(ctx: LoaderContext, request: FastifyRequest, slug: string): Promise<Loaded | null> {
  const { app } = ctx;
  const path = `/${slug}/resources`;
  const product = (await app.content.ofType('product', { preview: false })).find((p) => resourcesHref(p) === path);
  if (!product) return null;
  const f = product.fields as Product;
  const cards = await ctx.resourceCards();
  const related = cards.filter((card) => card.relatedApps?.includes(product.id) && card.buttonLink).map(cardOf);
  const title = `${f.productName} ${f.deployment} resources`;
  const c = await ctx.chrome(request, { title, path, language: 'en-US', preview: false,
    metaDescription: `Community, training and other resources for ${f.productName} ${f.deployment}.` });
  return {
    view: <ResourcesPage chrome={c} title={title}
      breadcrumbs={[{ label: 'Support', href: '/' }, { label: `${f.productName} ${f.deployment}`, href: productHref(product) }]}
      cards={related.length > 0 ? related : cards.filter((card) => card.buttonLink && !card.hideInHeader).map(cardOf)}
      helpful={{ cards: [], external: c.siteLinks.helpful }} contact={contactModel(c)} />,
  };
}
