import type { FastifyRequest } from 'fastify';
import type { StoredEntry } from '../../content/store.ts';
import { PreviewErrorPage } from '../../../views/pages/preview-error-page.tsx';
import type { Loaded, LoaderContext } from './shared.ts';

const PREVIEW_MESSAGES = {
  default: "We can't build a preview until all required fields are set.",
  context: "We can't build a preview until the Context field is set.",
  contextAndCollection: "We can't build a preview until the Context and Collection Reference fields are set.",
} as const;

/** Why a preview cannot be built yet (spec §5 preview errors). */
export async function previewErrorPage(ctx: LoaderContext, request: FastifyRequest, entry: StoredEntry): Promise<Loaded> {
  const message = entry.type === 'topic' || entry.type === 'topicSet' ? PREVIEW_MESSAGES.contextAndCollection
    : entry.type === 'collection' || entry.type === 'kbArticle' ? PREVIEW_MESSAGES.context : PREVIEW_MESSAGES.default;
  // The page's title comes from the preview-error page in content (spec §2 Preview error page).
  const title = (await ctx.app.content.pageOfType('previewError'))?.title ?? 'Preview unavailable';
  const c = await ctx.chrome(request, { title, path: null, language: entry.language, preview: true });
  return { view: <PreviewErrorPage chrome={c} title={title} message={message} />, status: 422 };
}
