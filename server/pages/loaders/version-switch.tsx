import type { FastifyRequest } from 'fastify';
import { VersionNotFoundPage } from '../../../views/pages/version-not-found-page.tsx';
import { versionAlternatives } from '../docs.ts';
import { stringsFor } from '../../../views/i18n/catalogue.tsx';
import type { Loaded, LoaderContext } from './shared.ts';

export type VersionSwitch = { redirect: string } | Loaded | null;

/**
 * The version selector's GET form (spec §8): the same page in that version, or 'Unable to find page'.
 * A visitor never gets a bare 400 here: no entry or an unknown one is null (the 404 page, with search),
 * and a missing or malformed version goes back to the page the visitor came from.
 */
export async function versionSwitch(ctx: LoaderContext, request: FastifyRequest, query: { entry?: string; version?: string; from?: string }): Promise<VersionSwitch> {
  const { app } = ctx;
  const { entry: id = '', version = '', from } = query;
  const entry = id && id.length <= 200 ? await app.content.byId(id, { preview: false }) : undefined;
  if (!entry) return null;
  const routes = await app.content.routesOf(id);
  if (!/^[0-9]+(\.[0-9]+)*$/.test(version)) {
    const back = routes.find((r) => r.version === from) ?? routes[0];
    return { redirect: back?.path ?? '/' };
  }
  const match = routes.find((r) => r.version === version);
  if (match) return { redirect: match.path };
  const product = await ctx.productOf(entry, false);
  const cancel = routes.find((r) => r.version === from) ?? routes[0];
  const { searchHref, browseHref } = await versionAlternatives(app, product, entry, version);
  const c = await ctx.chrome(request, { title: stringsFor(entry.language === 'ja-JP' ? 'ja' : 'en').versionNotFound.heading, path: null, language: entry.language, preview: false });
  return {
    view: <VersionNotFoundPage chrome={c} version={version} searchHref={searchHref}
      browseHref={browseHref} cancelHref={cancel?.path ?? '/'} />,
    status: 404,
  };
}
