import fp from 'fastify-plugin';
import { openDb, pgliteDirFor, type Db } from '../db/driver.ts';
import { migrate } from '../db/migrate.ts';
import { openReplicas, placeOf, primaryReads, type ReadDb } from '../db/replicas.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The primary: writes, LISTEN, and every read a person must see their own writes in. */
    db: Db;
    /** Reads that may be a moment old (published page data, search, insights): a replica when one is fit. */
    dbRead: ReadDb;
  }
}

export interface DbPluginOptions {
  databaseUrl?: string | undefined;
  dataDir: string;
  /** DATABASE_READ_URL: streaming replicas of the primary. */
  readUrls?: string[] | undefined;
  readMaxLagMs?: number | undefined;
  /** DATABASE_READ_TIMEOUT_MS: a replica read with no answer in this time runs on the primary. */
  readTimeoutMs?: number | undefined;
  /** PGLITE_SHARED_BUFFERS_MB: the embedded database's buffer cache. */
  pgliteSharedBuffersMb?: number | undefined;
  /** An already open database (tests); it is migrated but not closed by the app. */
  db?: Db;
}

/** The database, migrated to the current schema before anything else runs. */
export default fp<DbPluginOptions>(async (app, opts) => {
  const started = performance.now();
  const db = opts.db ?? (await openDb({
    databaseUrl: opts.databaseUrl,
    pgliteDir: pgliteDirFor(opts.dataDir),
    pgliteSharedBuffersMb: opts.pgliteSharedBuffersMb,
    pglite: {
      onWorkerExit: (error) => app.log.error({ err: error }, 'the PGlite worker stopped; starting a new one'),
      onWorkerRestart: () => app.log.info('the PGlite worker is serving again'),
    },
  }));
  const applied = await migrate(db);
  app.log.info({ engine: db.engine, migrationsApplied: applied, ms: Math.round(performance.now() - started) }, 'database ready');
  app.decorate('db', db);
  if (!opts.db) app.addHook('onClose', async () => db.close());

  const readUrls = opts.readUrls ?? [];
  if (readUrls.length === 0 || db.engine !== 'postgres') {
    app.decorate('dbRead', primaryReads(db));
    return;
  }
  app.log.info({ replicas: readUrls.map((url, i) => ({ replica: i + 1, at: placeOf(url) })), maxLagMs: opts.readMaxLagMs, timeoutMs: opts.readTimeoutMs }, 'read replicas configured');
  const reads = await openReplicas(db, readUrls, {
    maxLagMs: opts.readMaxLagMs, readTimeoutMs: opts.readTimeoutMs,
    onChange: ({ replica, at, state, lagMs, reason }) => {
      const fields = { replica, at, state, ...(lagMs === undefined ? {} : { lagMs: Math.round(lagMs) }), ...(reason ? { reason } : {}) };
      if (state === 'in use') app.log.info(fields, 'read replica in use');
      else app.log.warn(fields, 'read replica skipped; its reads go to the primary');
    },
  });
  app.decorate('dbRead', reads);
  app.addHook('onClose', async () => reads.close());
}, { name: 'db' });
