import type { FastifyInstance } from 'fastify';

/** How long readiness waits for `select 1` before calling the database unavailable. */
const DB_CHECK_MS = 2000;
const RETRY_AFTER_S = '5';

type Check = 'ok' | string;

async function databaseCheck(app: FastifyInstance): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Check>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${DB_CHECK_MS} ms`), DB_CHECK_MS);
  });
  try {
    // The reason stays generic: readiness is public, and driver errors name hosts and users.
    return await Promise.race([app.db.query('select 1').then(() => 'ok', () => 'unavailable'), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function contentCheck(app: FastifyInstance): Promise<Check> {
  try {
    return (await app.contentLoaded()) ? 'ok' : 'no content stored yet (first import running)';
  } catch {
    return 'unavailable';
  }
}

/**
 * Liveness and readiness (DESIGN "Running safely"): `/healthz` says the process answers and touches
 * nothing else, so a slow database never gets a live instance restarted; `/readyz` says the instance
 * should receive traffic: the database answers, content is stored, it is not shutting down and not
 * overloaded. A load balancer takes an instance out of rotation on a 503. With read replicas it also
 * says where reads go (`reads`: replicas by their place in DATABASE_READ_URL, no host or credentials).
 */
export default async function health(app: FastifyInstance) {
  app.get('/healthz', {
    config: { exemptFromShedding: true },
    schema: { tags: ['operations'], summary: 'Liveness: the process answers', description: 'Always `{"status":"ok"}` while the process serves requests; it touches nothing else, so a slow database never gets a live instance restarted. `Cache-Control: no-store`.' },
  }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', {
    config: { exemptFromShedding: true },
    schema: { tags: ['operations'], summary: 'Readiness: the instance should receive traffic', description: '200 `{"status":"ready","checks":{…}}` when the database answers (within 2 s), content is stored, the instance is not shutting down and not overloaded; otherwise 503 with `Retry-After: 5` and each failing check named in `checks`. With read replicas, `reads` says where reads go. `Cache-Control: no-store`.' },
  }, async (_request, reply) => {
    const [database, content] = await Promise.all([databaseCheck(app), contentCheck(app)]);
    const checks: Record<string, Check> = { database, content };
    if (app.isDraining()) checks.shutdown = 'shutting down';
    if (app.isUnderPressure()) checks.load = 'overloaded';
    const ready = Object.values(checks).every((c) => c === 'ok');
    reply.header('cache-control', 'no-store');
    if (!ready) reply.code(503).header('retry-after', RETRY_AFTER_S);
    // With DATABASE_READ_URL: which servers reads go to. Not part of the verdict: the primary serves
    // every read a replica cannot.
    const reads = app.dbRead.status();
    return { status: ready ? 'ready' : 'not ready', checks, ...(reads ? { reads } : {}) };
  });
}
