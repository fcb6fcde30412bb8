import t from 'tap';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { build } from '../helpers/build.ts';
import { CLIENT_SECRET, PASSWORD } from '../identity/provider-flow.ts';
import { ORIGIN, postForm, SESSION_SECRET, visit } from '../identity/helpers.ts';
import { Jar } from '../identity/oidc-peer.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const MB = 1024 * 1024;
const CACHED = '/acme-cloud/docs/first-steps';
const UNCACHED = '/acme-cloud/docs';

async function until<T>(check: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await check();
  for (const end = Date.now() + 20_000; !done(value) && Date.now() < end;) {
    await new Promise((r) => setTimeout(r, 50));
    value = await check();
  }
  return value;
}

// Overload is driven through the detector itself: the heap bound is set above what the app uses, and this
// process then holds memory past it until the detector says so (/readyz), so nothing depends on timing.
t.test('overloaded: new renders, searches and analytics batches are shed; cached pages, assets, sign-in steps and form posts are not', async (t) => {
  const bound = Math.ceil(process.memoryUsage().heapUsed / MB) + 300;
  const app = await build(t, { env: { OIDC_CLIENT_SECRET: CLIENT_SECRET, SESSION_SECRET, OVERLOAD_MAX_HEAP_USED_MB: String(bound), OVERLOAD_RETRY_AFTER_S: '7' } });
  await app.accounts.create({ email: 'ada@customer.example', password: PASSWORD, displayName: 'Ada Customer' });
  t.equal((await app.inject(CACHED)).statusCode, 200, 'rendered and kept while not overloaded');
  t.equal((await app.inject('/readyz')).statusCode, 200);

  // Many small arrays: a single array this long would be a slow dictionary, not contiguous memory.
  let ballast: number[][] | undefined = [];
  for (let held = process.memoryUsage().heapUsed; held < (bound + 64) * MB; held += 65_536 * 8) ballast.push(new Array<number>(65_536).fill(1));
  const ready = await until(() => app.inject('/readyz'), (res) => res.statusCode === 503);
  t.match(ready.json(), { checks: { load: 'overloaded' } }, 'readiness takes the instance out of rotation');
  t.equal((await app.inject('/healthz')).statusCode, 200, 'liveness answers: the process is alive');

  const shed = await app.inject(UNCACHED);
  t.equal(shed.statusCode, 503, 'a page that would be rendered is shed');
  t.equal(shed.headers['retry-after'], '7');
  t.equal(shed.headers['cache-control'], 'no-store', 'a shed answer is never cached');
  t.match(shed.body, 'busy');
  const api = await app.inject({ method: 'POST', url: '/gateway/api/help-content/v2/search', payload: { query: 'widget' } });
  t.equal(api.statusCode, 503, 'a search is shed');
  t.match(api.json(), { statusCode: 503, error: 'OVERLOADED' });

  const beacon = await app.inject({ method: 'POST', url: '/api/events', headers: { 'content-type': 'text/plain;charset=UTF-8' },
    payload: JSON.stringify({ sessionId: 's', events: [{ type: 'page_dwelled', path: CACHED, key: '', value: 5000 }] }) });
  t.equal(beacon.statusCode, 503, 'an analytics batch is shed before any render');

  const cached = await app.inject(CACHED);
  t.equal(cached.statusCode, 200, 'a page kept by the page cache is answered');
  const stylesheet = await app.inject(app.assets.css);
  t.equal(stylesheet.statusCode, 200, 'the stylesheet is answered');
  t.not((await app.inject('/favicon.ico')).statusCode, 503, 'the icon is answered');
  t.not((await app.inject('/assets/theme/0000000000000000.css')).statusCode, 503, 'theme files are never shed');
  t.not((await app.inject('/assets/files/0000/logo.png')).statusCode, 503, 'content files are never shed');

  // A whole sign-in, each step under overload: none of them strands the person on a 503.
  const jar = new Jar();
  let step = await visit(app, jar, `/auth/login?continue=${encodeURIComponent(CACHED)}`);
  const steps: string[] = [];
  for (let i = 0; i < 10 && step.statusCode >= 300 && step.statusCode < 400; i++) {
    const next = new URL(String(step.headers.location), ORIGIN);
    if (next.pathname === CACHED) break;
    steps.push(next.pathname.replace(/\/[\w-]{16,}/g, '/…'));
    step = await visit(app, jar, next.href);
    if (i === 1 && step.statusCode === 200) {
      const action = /action="(\/auth\/interaction\/[^"]+\/login)"/.exec(step.body)?.[1] ?? '';
      steps.push('sign-in form');
      step = await postForm(app, jar, action, { email: 'ada@customer.example', password: PASSWORD });
    }
  }
  t.same(steps, ['/auth/oidc/auth', '/auth/interaction/…', 'sign-in form', '/auth/oidc/auth/…', '/auth/callback'], 'every step of the sign-in answered');
  t.equal(new URL(String(step.headers.location), ORIGIN).pathname, CACHED, 'and the person is sent back to their page');
  t.match(jar.header(), /sp_session=/, 'signed in');

  const feedback = await app.inject({ method: 'POST', url: '/feedback', headers: { origin: 'https://help.example.test' }, payload: { helpful: 'yes' } });
  t.not(feedback.statusCode, 503, 'a form post is never shed');

  ballast = undefined;
  void ballast;
  gc();
  const served = await until(() => app.inject(UNCACHED), (res) => res.statusCode === 200);
  t.equal(served.statusCode, 200, 'rendered again once the load is gone');
});
