/**
 * A new site's first import (issue 25 item 11): while nothing is stored and the import at start runs,
 * pages answer a 'starting' 503 with Retry-After that no cache keeps, never a 404 saying they do not exist.
 */
import t from 'tap';
import Fastify from 'fastify';
import { loadConfig } from '../../server/config.ts';
import app, { serverOptions } from '../../server/app.ts';
import type { Db } from '../../server/db/driver.ts';
import { FIXTURE, PREVIEW_TOKEN, testDb } from '../helpers/build.ts';

/**
 * The real database, with the import's look at what is stored (its first statement) held until
 * `release()`: a first import of a large tree, as long as the test likes.
 */
function holdingImport(db: Db) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let reached!: () => void;
  const importing = new Promise<void>((r) => (reached = r));
  const held = new Proxy(db, {
    get(target, name, receiver) {
      const value: unknown = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (name === 'query') {
        return async (sql: string, params?: unknown[]) => {
          if (/from content_imports order by id desc limit 1/.test(sql)) {
            reached();
            await released;
          }
          return target.query(sql, params);
        };
      }
      return value.bind(target);
    },
  });
  return { db: held, importing, release };
}

t.test('during the first import pages answer 503 "starting" with Retry-After, then the pages once it is done', async (t) => {
  const hold = holdingImport(await testDb(t));
  const config = loadConfig({
    CONTENT_DIR: FIXTURE, PREVIEW_TOKEN, PUBLIC_URL: 'https://help.example.test', LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
  });
  const server = Fastify({ ...serverOptions, logger: false });
  t.teardown(() => server.close());
  await server.register(app, { config, db: hold.db });
  await server.ready();
  await hold.importing;

  for (const url of ['/', '/acme-cloud/docs/first-steps', '/no/such/page']) {
    const res = await server.inject(url);
    t.equal(res.statusCode, 503, `${url}: not a 404`);
    t.equal(res.headers['retry-after'], '5');
    t.equal(res.headers['cache-control'], 'no-store', 'never kept by a cache');
    t.match(res.headers['content-type'], 'text/html');
    t.match(res.body, '<h1>The help centre is starting</h1>');
    t.notMatch(res.body, /not found|does not exist/i);
    t.match(res.body, `<a href="${url}">Try again</a>`);
  }
  const head = await server.inject({ method: 'HEAD', url: '/acme-cloud/docs/first-steps' });
  t.equal(head.statusCode, 503);
  t.equal((await server.inject('/healthz')).statusCode, 200, 'liveness answers');
  const ready = await server.inject('/readyz');
  t.equal(ready.statusCode, 503, 'readiness keeps the instance out of rotation');
  t.match(ready.json(), { checks: { content: 'no content stored yet (first import running)' } });

  hold.release();
  await server.contentReady;
  const page = await server.inject('/acme-cloud/docs/first-steps');
  t.equal(page.statusCode, 200, 'the page once the import is done');
  t.equal((await server.inject('/no/such/page')).statusCode, 404, 'and a 404 where there is no page');
  t.equal((await server.inject('/readyz')).statusCode, 200);
});

t.test('a site with content stored answers its pages and its 404s while a later import runs', async (t) => {
  const db = await testDb(t);
  const first = holdingImport(db);
  // The first start stores the content.
  const config = loadConfig({ CONTENT_DIR: FIXTURE, PREVIEW_TOKEN, LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
  const one = Fastify({ ...serverOptions, logger: false });
  await one.register(app, { config, db });
  await one.ready();
  await one.contentReady;
  await one.close();

  const two = Fastify({ ...serverOptions, logger: false });
  t.teardown(() => two.close());
  await two.register(app, { config, db: first.db });
  await two.ready();
  await first.importing;
  t.equal((await two.inject('/no/such/page')).statusCode, 404, 'a 404 is a 404');
  t.equal((await two.inject('/acme-cloud/docs/first-steps')).statusCode, 200);
  first.release();
  await two.contentReady;
});
