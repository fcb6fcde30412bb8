import t from 'tap';
import Fastify from 'fastify';
import { loadConfig } from '../../server/config.ts';
import { openDb } from '../../server/db/driver.ts';
import { migrate } from '../../server/db/migrate.ts';
import app, { serverOptions } from '../../server/app.ts';
import { build, FIXTURE, testDb } from '../helpers/build.ts';

// Issue 8 item 14: /healthz is liveness (the process answers), /readyz readiness (database and content).
t.test('ready once the database answers and content is stored', async (t) => {
  const app = await build(t);
  const live = await app.inject('/healthz');
  t.equal(live.statusCode, 200);
  t.equal(live.headers['cache-control'], 'no-store');
  const ready = await app.inject('/readyz');
  t.equal(ready.statusCode, 200);
  t.equal(ready.headers['cache-control'], 'no-store');
  t.same(ready.json(), { status: 'ready', checks: { database: 'ok', content: 'ok' } });
});

t.test('not ready during the first import: no content stored yet', async (t) => {
  const db = await testDb(t);
  const server = Fastify({ ...serverOptions, logger: false });
  t.teardown(() => server.close());
  await server.register(app, { config: loadConfig({ CONTENT_DIR: FIXTURE, LOG_LEVEL: 'silent' }), db });
  await server.ready();
  const during = await server.inject('/readyz');
  t.equal(during.statusCode, 503);
  t.equal(during.headers['retry-after'], '5');
  t.equal(during.headers['cache-control'], 'no-store');
  t.match(during.json(), { status: 'not ready', checks: { database: 'ok', content: /no content stored yet/ } });
  t.equal((await server.inject('/healthz')).statusCode, 200, 'alive all the same');
  await server.contentReady;
  t.equal((await server.inject('/readyz')).statusCode, 200, 'ready once the import committed');
});

t.test('not ready when the database does not answer; still alive', { skip: process.env.DATABASE_URL ? 'a closed PGlite stands for a lost database here; PostgreSQL outages are tested with the reconnect work' : false }, async (t) => {
  const db = await openDb({ pgliteDir: 'memory://' });
  await migrate(db);
  const server = Fastify({ ...serverOptions, logger: false });
  t.teardown(() => server.close());
  await server.register(app, { config: loadConfig({ CONTENT_DIR: FIXTURE, LOG_LEVEL: 'silent' }), db });
  await server.ready();
  await server.contentReady;
  await db.close();
  const res = await server.inject('/readyz');
  t.equal(res.statusCode, 503);
  t.match(res.json(), { status: 'not ready', checks: { database: 'unavailable' } });
  t.notMatch(res.body, /pglite|closed/i, 'no internals');
  const live = await server.inject('/healthz');
  t.equal(live.statusCode, 200, 'liveness does not touch the database');
});
