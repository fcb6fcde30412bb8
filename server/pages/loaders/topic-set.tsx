import { TopicSetPage } from '../../../views/pages/topic-set-page.tsx';
import { docsTree, treeModel, placeOf, siblingsModel, upNextModel } from '../docs.ts';
import { bodyOf, feedbackModel, contactModel, productTags } from '../context.ts';
import { pathOf, type Loader, type LoaderContext } from './shared.ts';

export const topicSetLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const { app } = ctx;
  const tree = entry.contextId ? await docsTree(app, entry.contextId, entry.routeVersion, preview) : null;
  const place = tree ? placeOf(tree, entry.id) : null;
  const c = await ctx.chromeOf(request, entry, preview);
  const topicIds = (entry.fields.topics as string[] | undefined) ?? [];
  const topics = new Map((await app.content.outlines(topicIds, { preview })).map((t) => [t.id, t]));
  const paths = await app.content.exactPaths(topicIds, entry.routeVersion);
  return {
    view: <TopicSetPage
      chrome={c} breadcrumbs={await ctx.docsCrumbs(entry, preview)} tree={tree ? treeModel(tree, entry.id) : null}
      title={entry.title ?? ''} overview={bodyOf(entry, preview)}
      topics={topicIds.flatMap((id) => {
        const t = topics.get(id);
        const href = paths.get(id);
        return t && href ? [{ title: t.title ?? id, href, description: t.fields.metaDescription }] : [];
      })}
      feedback={feedbackModel(app, request, entry, pathOf(request))} contact={contactModel(c, productTags(await ctx.productOf(entry, preview)))}
      siblings={place ? siblingsModel(place) : null}
      upNext={tree ? upNextModel(tree, entry.id) : null} />,
  };
};
