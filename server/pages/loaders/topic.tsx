import type { CardLink } from '../../../views/view-model.ts';
import { TopicPage } from '../../../views/pages/topic-page.tsx';
import { docsTree, treeModel, placeOf, collectionOf, siblingsModel, upNextModel, deploymentSelector, noticeOf } from '../docs.ts';
import { bodyOf, feedbackModel, contactModel, communityHref, productTags } from '../context.ts';
import { isoDate, pathOf, type Loader, type LoaderContext } from './shared.ts';
import { featuredVideo } from '../../flags/features.ts';

/** Items 'Explore more' shows: other collections of the same documentation. */
const EXPLORE_MORE = 5;

export const topicLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const { app } = ctx;
  const product = await ctx.productOf(entry, preview);
  const tree = entry.contextId ? await docsTree(app, entry.contextId, entry.routeVersion, preview) : null;
  const place = tree ? placeOf(tree, entry.id) : null;
  const c = await ctx.chromeOf(request, entry, preview);
  // Explore more: the other collections of this documentation, never the one being read.
  const own = tree ? collectionOf(tree, entry.id) : undefined;
  const exploreMore: CardLink[] = (tree?.collections ?? [])
    .filter((col) => col !== own)
    .slice(0, EXPLORE_MORE)
    .map((col) => ({ title: col.entry.title ?? col.entry.id, href: col.href, description: col.entry.fields.description }));
  // Spec §2: the featured video shows when its flag is on; asked only of topics that have one.
  const video = (entry.fields.featuredVideo as { videoUrl: string } | undefined) ?? null;
  const showVideo = video !== null && await featuredVideo(request.flags);
  return {
    ...(request.flags.cache() === 'private' ? { cache: 'private' as const } : {}),
    view: <TopicPage
      chrome={c} breadcrumbs={await ctx.docsCrumbs(entry, preview)} tree={tree ? treeModel(tree, entry.id) : null}
      deploymentSelector={await deploymentSelector(app, product, entry, entry.routeVersion)} notice={await noticeOf(app, product)}
      title={entry.title ?? ''} version={entry.routeVersion}
      featuredVideo={showVideo ? video : null}
      body={bodyOf(entry, preview)} toc={(entry.fields.tableOfContents as { id: string; text: string; level: 2 | 3 }[] | undefined) ?? []}
      lastPublished={isoDate(entry.lastPublished)}
      feedback={feedbackModel(app, request, entry, pathOf(request))} contact={contactModel(c, productTags(product))} exploreMore={exploreMore}
      siblings={place ? siblingsModel(place) : null}
      communityHref={communityHref(c, productTags(product))}
      upNext={tree ? upNextModel(tree, entry.id) : null} />,
  };
};
