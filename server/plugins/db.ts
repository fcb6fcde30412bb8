import fp from 'fastify-plugin';
import { openDb, pgliteDirFor, type Db } from '../db/driver.ts';
import { migrate } from '../db/migrate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

export interface DbPluginOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** An already open database (tests); it is migrated but not closed by the app. */
  db?: Db;
}

/** The database, migrated to the current schema before anything else runs. */
export default fp<DbPluginOptions>(async (app, opts) => {
  const started = performance.now();
  const db = opts.db ?? (await openDb({
    databaseUrl: opts.databaseUrl,
    pgliteDir: pgliteDirFor(opts.dataDir),
    pglite: {
      onWorkerExit: (error) => app.log.error({ err: error }, 'the PGlite worker stopped; starting a new one'),
      onWorkerRestart: () => app.log.info('the PGlite worker is serving again'),
    },
  }));
  const applied = await migrate(db);
  app.log.info({ engine: db.engine, migrationsApplied: applied, ms: Math.round(performance.now() - started) }, 'database ready');
  app.decorate('db', db);
  if (!opts.db) app.addHook('onClose', async () => db.close());
}, { name: 'db' });
