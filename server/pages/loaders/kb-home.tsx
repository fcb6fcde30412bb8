import { KbHomePage } from '../../../views/pages/kb-home-page.tsx';
import { contactModel } from '../context.ts';
import type { Loader, LoaderContext } from './shared.ts';

/** A knowledge base's home: its articles (title, page, description only; never their bodies). */
export const kbHomeLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const { app } = ctx;
  const c = await ctx.chromeOf(request, entry, preview);
  const articles = !entry.contextId ? []
    : preview
      ? (await app.content.ofType('kbArticle', { preview, contextId: entry.contextId })).filter((a) => a.path)
        .map((a) => ({ title: a.title, path: a.path ?? '/', metaDescription: a.fields.metaDescription as string | undefined, id: a.id }))
      : await app.content.listings('kbArticle', entry.contextId);
  const kb = entry.contextId ? await app.content.byId(entry.contextId, { preview }) : undefined;
  return {
    view: <KbHomePage chrome={c} breadcrumbs={[{ label: 'Support', href: '/' }]}
      productName={String(kb?.fields.productName ?? entry.title ?? '')}
      articles={articles.map((a) => ({ title: a.title ?? a.id, href: a.path, description: a.metaDescription }))}
      moreWaysToGetHelp={c.siteLinks.moreWaysToGetHelp} contact={contactModel(c)} />,
  };
};
