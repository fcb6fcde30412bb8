import t from 'tap';
import Fastify from 'fastify';
import { loadConfig } from '../../server/config.ts';
import app, { serverOptions } from '../../server/app.ts';
import { FIXTURE, testDb } from '../helpers/build.ts';

// Issue 8 item 15: an overloaded server answers 503 with Retry-After at once instead of queueing.
t.test('an overloaded server sheds requests with 503 and Retry-After; liveness still answers', async (t) => {
  const db = await testDb(t);
  const config = loadConfig({
    CONTENT_DIR: FIXTURE, LOG_LEVEL: 'silent',
    OVERLOAD_MAX_EVENT_LOOP_UTILIZATION: '0.5', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', OVERLOAD_RETRY_AFTER_S: '7',
  });
  const server = Fastify({ ...serverOptions, logger: false });
  t.teardown(() => server.close());
  await server.register(app, { config, db });
  // Overload stand-in, registered by this test only: work that keeps the event loop busy.
  server.get('/test/busy', async () => {
    const until = Date.now() + 1500;
    while (Date.now() < until);
    return 'done';
  });
  await server.ready();
  await server.contentReady;
  // Let a quiet sample pass: the import at start kept the loop busy too.
  let page = await server.inject('/acme-cloud/docs/first-steps');
  for (const until = Date.now() + 10_000; page.statusCode !== 200 && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 200));
    page = await server.inject('/acme-cloud/docs/first-steps');
  }
  t.equal(page.statusCode, 200, 'served while not overloaded');

  t.equal((await server.inject('/test/busy')).statusCode, 200);
  let shed = await server.inject('/acme-cloud/docs/first-steps');
  for (const until = Date.now() + 3000; shed.statusCode !== 503 && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 20));
    shed = await server.inject('/acme-cloud/docs/first-steps');
  }
  t.equal(shed.statusCode, 503, 'shed while overloaded');
  t.equal(shed.headers['retry-after'], '7');
  t.equal(shed.headers['cache-control'], 'no-store', 'a shed answer is never cached');
  t.match(shed.body, 'busy');
  const api = await server.inject({ method: 'POST', url: '/gateway/api/help-content/v2/search', payload: { query: 'widget' } });
  t.equal(api.statusCode, 503, 'the API too');
  t.match(api.json(), { statusCode: 503, error: 'OVERLOADED' });
  t.equal((await server.inject('/healthz')).statusCode, 200, 'liveness answers under pressure: the process is alive');
  const ready = await server.inject('/readyz');
  t.equal(ready.statusCode, 503, 'readiness takes the instance out of rotation');
  t.match(ready.json(), { checks: { load: 'overloaded' } });

  let back = await server.inject('/acme-cloud/docs/first-steps');
  for (const until = Date.now() + 5000; back.statusCode !== 200 && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 100));
    back = await server.inject('/acme-cloud/docs/first-steps');
  }
  t.equal(back.statusCode, 200, 'served again once the load is gone');
});
