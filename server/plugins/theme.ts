/**
 * The site's brand colours (site.yaml `theme`) as a stylesheet of CSS custom properties at
 * /assets/theme/<hash>.css, linked from every page's head after the base stylesheet. The page CSP allows
 * stylesheets from the site only (no inline style), so the colours come in a file; it is made again when
 * the content changes, and its name changes with its bytes.
 */
import fp from 'fastify-plugin';
import type { Metadata } from '../content/schemas.ts';
import { themeCss, themeHash } from '../content/theme.ts';
import { prepare, sendPrepared } from './assets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The path of the current theme stylesheet; undefined when the site sets no colour. */
    themeStylesheet(): Promise<string | undefined>;
    /**
     * The stylesheets of a page that is not built from the chrome (identity screens, error pages): the
     * base one, then the theme's. A theme that cannot be read (the database away) is the last one known.
     */
    pageStylesheets(): Promise<string[]>;
    /** The same without waiting, for answers made synchronously (the error handler, 503): the last theme known. */
    pageStylesheetsNow(): string[];
  }
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

export default fp(async (app) => {
  const current = () => app.content.memo('theme-stylesheet', async () => {
    const site = (await app.content.singleton('metadata'))?.fields as Partial<Metadata> | undefined;
    const css = themeCss(site?.theme);
    if (!css) return null;
    return { path: `/assets/theme/${themeHash(css)}.css`, asset: await prepare(Buffer.from(css, 'utf8'), 'text/css; charset=utf-8', IMMUTABLE) };
  });
  app.decorate('themeStylesheet', async () => (await current())?.path);

  let known: string | undefined;
  const withTheme = () => (known ? [app.assets.css, known] : [app.assets.css]);
  const refresh = async () => {
    try {
      known = (await current())?.path;
    } catch (error) {
      app.log.warn({ err: error }, 'theme stylesheet unavailable; the last one known is linked');
    }
  };
  app.decorate('pageStylesheets', async () => {
    await refresh();
    return withTheme();
  });
  app.decorate('pageStylesheetsNow', withTheme);
  app.addHook('onReady', refresh);

  app.get('/assets/theme/:file', { compress: false }, async (request, reply) => {
    const theme = await current();
    if (!theme) return reply.callNotFound();
    // A page rendered before the colours changed may still name the old file: it gets today's colours,
    // not to be kept.
    const exact = request.url.split('?')[0] === theme.path;
    return sendPrepared(request, reply, exact ? theme.asset : { ...theme.asset, cacheControl: 'no-cache' });
  });
}, { name: 'theme', dependencies: ['content', 'assets'] });
