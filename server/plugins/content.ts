import fp from 'fastify-plugin';
import { importContent, CONTENT_CHANNEL } from '../content/import.ts';
import { ContentError, formatProblem } from '../content/problems.ts';
import { ContentStore } from '../content/store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    content: ContentStore;
  }
}

export interface ContentPluginOptions {
  contentDir: string;
  importOnStart: boolean;
}

/**
 * The content store. On start the content tree is imported when it changed; a broken tree is
 * refused with every problem logged, and the content already stored keeps serving.
 */
export default fp<ContentPluginOptions>(async (app, opts) => {
  const store = new ContentStore(app.db);
  app.decorate('content', store);

  const unlisten = await app.db.listen(CONTENT_CHANNEL, () => {
    store.invalidate();
    app.log.info('content changed; caches dropped');
  }, {
    onDisconnect: (error) => app.log.warn({ err: error }, 'content change listener lost its connection; reconnecting'),
    // A NOTIFY may have been sent while the listener was away: drop the caches once.
    onReconnect: () => {
      store.invalidate();
      app.log.info('content change listener reconnected; caches dropped');
    },
  });
  app.addHook('onClose', async () => unlisten());

  if (!opts.importOnStart) return;
  try {
    const result = await importContent(app.db, opts.contentDir);
    store.invalidate();
    app.log.info({ dir: opts.contentDir, imported: result.imported, entries: result.entries, pages: result.routes,
      ms: Math.round(result.ms.total) }, result.imported ? 'content imported' : 'content unchanged');
  } catch (error) {
    if (!(error instanceof ContentError)) throw error;
    for (const p of error.problems) app.log.error({ file: p.file, line: p.line, field: p.field }, formatProblem(p));
    if (await store.hasContent()) {
      app.log.error({ problems: error.problems.length }, 'content tree refused; serving the content already stored');
    } else {
      await unlisten();
      throw new Error(`The content tree in ${opts.contentDir} has ${error.problems.length} problem(s) and no content is stored yet:\n${error.message}`);
    }
  }
}, { name: 'content', dependencies: ['db'] });
