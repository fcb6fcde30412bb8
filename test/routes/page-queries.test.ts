/**
 * Every page type's data comes from the content cache (DESIGN: pages at the speed of static files):
 * once a page has been rendered, rendering it again asks the database nothing, and another page of the
 * same documentation asks only for its own entry. The database is the real one, wrapped in a probe that
 * counts the statements sent to it (a measurement, not a stand-in).
 */
import t from 'tap';
import type { Db } from '../../server/db/driver.ts';
import { build, PREVIEW_TOKEN, SAMPLE_CONTENT, testDb } from '../helpers/build.ts';
import { PAGE_TYPES } from '../fixtures/page-types.ts';

/**
 * The analytics pipeline's own writes: page views are buffered and stored in batches by a timer, apart
 * from the requests, so one may land inside any window a test counts.
 */
const EVENT_BATCHES = /^\s*(?:insert into analytics_events|insert into rate_limits|delete from rate_limits)\b/i;

/** The real database; every statement sent to it outside a transaction is recorded, but the event batches. */
function countingProbe(db: Db): { db: Db; statements: string[] } {
  const statements: string[] = [];
  const probe = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return (sql: string, params?: unknown[]) => {
          if (!EVENT_BATCHES.test(sql)) statements.push(sql.replace(/\s+/g, ' ').slice(0, 120));
          return target.query(sql, params);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: probe, statements };
}

t.test('a page rendered once is rendered again without a query', async (t) => {
  const probe = countingProbe(await testDb(t));
  const app = await build(t, { contentDir: SAMPLE_CONTENT, db: probe.db });
  const previewless = Object.entries(PAGE_TYPES).filter(([name]) => name !== 'preview error');
  const others: [string, string][] = [
    ['sitemap', '/sitemap.xml'],
    ['search results page', '/search-results/?searchTerm=board'],
    ['search page without a term', '/search-results/'],
    ['favicon', '/favicon.ico'],
    ['data center version', '/tracklight-data-center/11.3'],
    ['version switch to an existing version', '/version-switch?entry=tracklight-data-center-configure-json-logging&version=11.3&from=11.3'],
  ];
  for (const [name, url] of [...previewless, ...others]) {
    const first = await app.inject(url);
    t.ok(first.statusCode < 500, `${name}: ${first.statusCode}`);
    probe.statements.length = 0;
    const again = await app.inject(url);
    t.equal(again.statusCode, first.statusCode, `${name}: same answer`);
    t.same(probe.statements, [], `${name} (${url}): no query the second time`);
  }
});

t.test('another page of a type already rendered asks only for its own entry', async (t) => {
  const probe = countingProbe(await testDb(t));
  const app = await build(t, { contentDir: SAMPLE_CONTENT, db: probe.db });
  const pairs: [string, string, string][] = [
    ['topic', '/tracklight-cloud/docs/write-rich-issue-descriptions', '/tracklight-cloud/docs/save-and-share-a-filter'],
    ['collection', '/tracklight-cloud/docs/search-and-filters', '/tracklight-cloud/docs/get-started'],
    ['versioned topic', '/tracklight-data-center/11.3/docs/configure-json-logging', '/tracklight-data-center/11.3/docs/connect-to-postgresql'],
    ['KB article', '/codebarn/kb/diff-too-large-to-display', '/codebarn/kb/mirror-stuck-synchronizing'],
    ['contact page', '/hot-contact', '/partnercontact'],
  ];
  for (const [name, first, second] of pairs) {
    t.equal((await app.inject(first)).statusCode, 200);
    probe.statements.length = 0;
    t.equal((await app.inject(second)).statusCode, 200);
    t.ok(probe.statements.length <= 1, `${name}: ${probe.statements.length} query (its path): ${probe.statements.join(' | ')}`);
  }
});

t.test('preview reads stay live', async (t) => {
  const probe = countingProbe(await testDb(t));
  const app = await build(t, { contentDir: SAMPLE_CONTENT, db: probe.db });
  const preview = { url: PAGE_TYPES.topic, headers: { 'x-preview-token': PREVIEW_TOKEN } };
  await app.inject(preview);
  probe.statements.length = 0;
  const res = await app.inject(preview);
  t.equal(res.statusCode, 200);
  t.ok(probe.statements.length > 0, `a preview reads the stored draft again (${probe.statements.length} queries)`);
});
