import t from 'tap';
import { build, testDb, SAMPLE_CONTENT } from '../helpers/build.ts';

const TOPIC = '/tracklight-cloud/docs/write-rich-issue-descriptions';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

t.test('server counts on the sample content', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, contentDir: SAMPLE_CONTENT });

  t.test('a page view of a page in another language is keyed by its locale', async (t) => {
    t.equal((await app.inject({ url: '/ja/contact', headers: { 'user-agent': BROWSER } })).statusCode, 200);
    t.equal((await app.inject({ url: TOPIC, headers: { 'user-agent': BROWSER } })).statusCode, 200);
    await app.analytics.writer.flush();
    t.same(await db.query(`select path, key from analytics_events where type = 'page_view' order by id`), [
      { path: '/ja/contact', key: 'ja' }, { path: TOPIC, key: '' },
    ]);
  });

  t.test('a repeated view or search within minutes is counted: the browser asks again and gets a 304', async (t) => {
    await db.exec('delete from analytics_events');
    const SEARCH = '/search-results/?searchTerm=pull%20request';
    for (const url of [TOPIC, SEARCH]) {
      const first = await app.inject({ url, headers: { 'user-agent': BROWSER } });
      t.equal(first.statusCode, 200);
      t.equal(first.headers['cache-control'], 'public, no-cache', `${url}: kept by caches, but revalidated before each use`);
      const again = await app.inject({ url, headers: { 'user-agent': BROWSER, 'if-none-match': String(first.headers.etag) } });
      t.equal(again.statusCode, 304, `${url}: the repeat is answered from the validator`);
    }
    await app.analytics.writer.flush();
    t.same(await db.query(`select type, path, term from analytics_events where type in ('page_view', 'search') order by id`), [
      { type: 'page_view', path: TOPIC, term: '' }, { type: 'page_view', path: TOPIC, term: '' },
      { type: 'search', path: '/search-results', term: 'pull request' }, { type: 'page_view', path: '/search-results/', term: '' },
      { type: 'search', path: '/search-results', term: 'pull request' }, { type: 'page_view', path: '/search-results/', term: '' },
    ]);
  });

  t.test('a support request is counted with the page it was filed from', async (t) => {
    const form = await app.inject({ url: `/contact?page=${encodeURIComponent(TOPIC)}`, headers: { 'user-agent': BROWSER } });
    t.equal(form.statusCode, 200);
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(form.body)?.[1] ?? '';
    const fields = {
      _csrf: hidden('_csrf'), submission: hidden('submission'), page: TOPIC,
      email: 'visitor@customer.example', name: 'Vera Visitor', product: 'codebarn-data-center', version: '9.4', severity: 'high',
      subject: 'Pushes to main are rejected', description: 'Every push to the main branch is rejected with a hook error.',
    };
    const res = await app.inject({
      method: 'POST', url: '/contact', remoteAddress: '192.0.2.10', payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER },
    });
    t.equal(res.statusCode, 303, res.body.slice(0, 200));
    await app.analytics.writer.flush();
    const rows = await db.query<{ path: string; key: string; product: string; data: object }>(`select path, key, product, data from analytics_events where type = 'support_request'`);
    t.match(rows, [{ path: TOPIC, key: /\w/, product: 'codebarn-data-center' }]);
    t.notMatch(JSON.stringify(rows), /@/, 'no e-mail address is stored');
  });
});
