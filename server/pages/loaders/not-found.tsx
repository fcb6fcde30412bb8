import type { FastifyRequest } from 'fastify';
import { NotFoundPage } from '../../../views/pages/not-found-page.tsx';
import { bodyOf } from '../context.ts';
import type { Loaded, Loader, LoaderContext } from './shared.ts';

/** The not-found page from content (spec §2), for any path that names no page. */
export async function notFoundPage(ctx: LoaderContext, request: FastifyRequest): Promise<Loaded> {
  const entry = await ctx.app.content.pageOfType('notFound');
  const title = entry?.title ?? 'Page not found';
  const c = await ctx.chrome(request, { title, path: null, language: 'en-US', preview: false });
  return { view: <NotFoundPage chrome={c} title={title} body={entry ? bodyOf(entry, false) : null} />, status: 404 };
}

/** A single page of a type with a path but no view of its own (the not-found and preview-error pages). */
export const plainPageLoader = (ctx: LoaderContext): Loader => async (request, entry, preview) => {
  const c = await ctx.chromeOf(request, entry, preview);
  return { view: <NotFoundPage chrome={c} title={entry.title ?? ''} body={bodyOf(entry, preview)} /> };
};
