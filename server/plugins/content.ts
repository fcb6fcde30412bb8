import fp from 'fastify-plugin';
import { importContent, CONTENT_CHANNEL, type ImportOptions, type ImportResult } from '../content/import.ts';
import { ContentError, formatProblem } from '../content/problems.ts';
import { ContentStore } from '../content/store.ts';

declare module 'fastify' {
  interface FastifyInstance {
    content: ContentStore;
    /**
     * Settles when the import at start is done (at once when there is none). It rejects only when no
     * content is stored and the tree cannot be imported: the server has nothing to serve and must stop.
     */
    contentReady: Promise<void>;
    /** True once content is stored (readiness, DESIGN "Running safely"). */
    contentLoaded(): Promise<boolean>;
    /**
     * True while a new site has nothing stored yet: its first import runs, here or in another instance
     * (IMPORT_ON_START=false against a shared database). Pages say it is starting.
     */
    contentStarting(): boolean;
    /**
     * False while the content-change listener is away (PostgreSQL only): an import made elsewhere may
     * go unannounced until it is back, when the caches are dropped.
     */
    contentChangesHeard(): boolean;
    /** Imports a tree now, one import at a time; the caches drop on the import's NOTIFY. */
    importContentTree(dir: string, options?: Pick<ImportOptions, 'force'>): Promise<ImportResult>;
  }
}

export interface ContentPluginOptions {
  contentDir: string;
  importOnStart: boolean;
}

/**
 * The content store. The import at start runs in the background once the server is ready, so start-up
 * does not depend on the size of the tree (DESIGN "Running safely"): the stored content serves until the
 * new content commits. A broken tree is refused with every problem logged, and the content already
 * stored keeps serving.
 */
export default fp<ContentPluginOptions>(async (app, opts) => {
  const store = new ContentStore(app.db, app.dbRead);
  app.decorate('content', store);

  // Known without a query per request: nothing was stored when the server started, and no import has
  // committed since (its NOTIFY, or the import at start settling). Decided in onReady, before listening.
  let starting = false;
  app.decorate('contentStarting', () => starting);

  let heard = true;
  app.decorate('contentChangesHeard', () => heard);
  // The caches are dropped once per import: by this instance's own import when it is stored, or by its
  // NOTIFY (the digest of the content), whichever comes first. Heard after the drop, the NOTIFY of an
  // import of this instance drops nothing a second time: what was cached meanwhile is of that content.
  let dropped: { digest: string; done: Promise<void> } | undefined;
  const unlisten = await app.db.listen(CONTENT_CHANNEL, (digest) => {
    // An import committed, here or elsewhere: the site has content from now on.
    starting = false;
    const version = digest.slice(0, 12);
    if (dropped?.digest === digest) {
      app.log.debug({ version }, 'content change heard; caches already dropped for it');
      return;
    }
    dropped = { digest, done: store.invalidate() };
    app.log.info({ version }, 'content changed; caches dropped');
  }, {
    onDisconnect: (error) => {
      heard = false;
      app.log.warn({ err: error }, 'content change listener lost its connection; reconnecting');
    },
    // A NOTIFY may have been sent while the listener was away: drop the caches once.
    onReconnect: () => {
      heard = true;
      dropped = undefined;
      // A NOTIFY missed while away may have been the first import's; readiness asks the database.
      if (starting) void app.contentLoaded().catch(() => undefined);
      store.invalidate();
      app.log.info('content change listener reconnected; caches dropped');
    },
  });
  // An import committed before LISTEN was heard here by no one: reads wait for a replica to have replayed
  // it (server/db/replicas.ts), as after each NOTIFY.
  app.dbRead.fence();

  // One import at a time, whoever asks (start-up or the admin endpoint); closing stops the one running.
  const stop = new AbortController();
  let queue: Promise<unknown> = Promise.resolve();
  const importTree = (dir: string, options: Pick<ImportOptions, 'force'> = {}) => {
    const run = queue.then(async () => {
      const result = await importContent(app.db, dir, { ...options, signal: stop.signal });
      for (const warning of result.warnings) app.log.warn({ problem: formatProblem(warning) }, 'content warning');
      if (result.imported) {
        starting = false;
        if (dropped?.digest !== result.digest) dropped = { digest: result.digest, done: store.invalidate() };
        // Awaited: once the import is answered, this instance evaluates the flags it brought.
        await dropped.done;
      }
      return result;
    });
    queue = run.catch(() => undefined);
    return run;
  };
  app.decorate('importContentTree', importTree);

  let loaded = false;
  // On a first start on the embedded database, readiness waits for the database to reopen after the import.
  let firstImport = false;
  app.decorate('contentLoaded', async () => {
    loaded ||= await store.hasContent();
    if (loaded) starting = false;
    return loaded && !firstImport;
  });

  let settle!: { resolve: () => void; reject: (error: Error) => void };
  const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => undefined); // handled by whoever awaits it (server/main.ts); never unhandled
  app.decorate('contentReady', ready);

  const importAtStart = async () => {
    firstImport = starting && app.db.reopen !== undefined;
    try {
      const result = await importTree(opts.contentDir);
      loaded = true;
      starting = false;
      app.log.info({ dir: opts.contentDir, imported: result.imported, entries: result.entries, pages: result.routes,
        ms: Math.round(result.ms.total) }, result.imported ? 'content imported' : 'content unchanged');
      if (firstImport && result.imported && app.db.reopen && !stop.signal.aborted) {
        // The embedded database keeps the memory the import grew it to until it is opened again.
        const reopening = performance.now();
        try {
          await app.db.reopen();
          app.log.info({ ms: Math.round(performance.now() - reopening) }, 'database reopened after the import');
        } catch (error) {
          // The database serves on (a worker that failed is restarted); only the memory is not given back.
          app.log.warn({ reason: error instanceof Error ? error.message : String(error) },
            'the database was not reopened after the import: it keeps the memory the import used until the next start');
        }
      }
    } catch (error) {
      if (stop.signal.aborted) return;
      if (!(error instanceof ContentError)) throw error;
      for (const p of error.problems) app.log.error({ file: p.file, line: p.line, field: p.field }, formatProblem(p));
      if (await store.hasContent()) {
        app.log.error({ problems: error.problems.length }, 'content tree refused; serving the content already stored');
      } else {
        throw new Error(`The content tree in ${opts.contentDir} has ${error.problems.length} problem(s) and no content is stored yet:\n${error.message}`);
      }
    }
  };

  // Started once everything is registered, and not awaited: plugin start-up stays independent of the
  // size of the tree (a large tree used to exceed Fastify's plugin timeout).
  app.addHook('onReady', async () => {
    // A database that does not answer yet is not a new site: pages then say the database is away.
    starting = !(await app.contentLoaded().catch(() => true));
    if (!opts.importOnStart) return settle.resolve();
    importAtStart().finally(() => (firstImport = false)).then(settle.resolve, settle.reject);
  });
  app.addHook('onClose', async () => {
    stop.abort();
    await queue;
    await unlisten().catch(() => undefined); // a database already gone has nothing to unlisten

  });
}, { name: 'content', dependencies: ['db'] });
