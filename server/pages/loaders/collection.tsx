import type { Product } from '../../content/schemas.ts';
import { CollectionPage } from '../../../views/pages/collection-page.tsx';
import { docsTree, treeModel, deploymentSelector, noticeOf } from '../docs.ts';
import { bodyOf, contactModel, productTags } from '../context.ts';
import type { Loader, LoaderContext } from './shared.ts';

export const collectionLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const { app } = ctx;
  const product = await ctx.productOf(entry, preview);
  const context = entry.contextId ? await app.content.byId(entry.contextId, { preview }) : undefined;
  const tree = entry.contextId ? await docsTree(app, entry.contextId, entry.routeVersion, preview) : null;
  const c = await ctx.chromeOf(request, entry, preview, { waffle: true });
  const ids = (entry.fields.children as string[] | undefined) ?? [];
  const children = new Map((await app.content.outlines(ids, { preview })).map((e) => [e.id, e]));
  const paths = await app.content.exactPaths(ids, entry.routeVersion);
  const isHub = context?.type === 'context' && context.fields.type === 'hub';
  const f = product?.fields as Product | undefined;
  return {
    view: <CollectionPage
      chrome={c} breadcrumbs={await ctx.docsCrumbs(entry, preview)} tree={tree ? treeModel(tree, entry.id) : null}
      deploymentSelector={isHub ? null : await deploymentSelector(app, product, entry, entry.routeVersion)}
      notice={await noticeOf(app, product ?? context)}
      contextTitle={f ? `${f.productName} ${f.deployment}${entry.routeVersion ? ` ${entry.routeVersion}` : ''}` : String(context?.fields.hubName ?? '')}
      title={entry.title ?? ''} subhead={entry.fields.subhead as string | undefined} body={bodyOf(entry, preview)}
      children={ids.flatMap((id) => {
        const child = children.get(id);
        const href = paths.get(id);
        if (!child || !href) return [];
        return [{
          title: child.title ?? id, href, kind: child.type === 'topicSet' ? 'topics' as const : 'topic' as const,
          description: child.fields.description ?? child.fields.metaDescription,
        }];
      })}
      contact={contactModel(c, productTags(product))} />,
  };
};
