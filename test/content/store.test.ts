/**
 * The content store's published reads come from memory per content version (DESIGN: page data from the
 * content cache); the answers are the ones the database gives, and an import drops them.
 */
import t from 'tap';
import type { Db } from '../../server/db/driver.ts';
import { ContentStore } from '../../server/content/store.ts';
import { importContent } from '../../server/content/import.ts';
import { FIXTURE, testDb } from '../helpers/build.ts';

function counted(db: Db): { db: Db; queries: () => number } {
  let n = 0;
  const probe = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === 'query') return (sql: string, params?: unknown[]) => (n++, target.query(sql, params));
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: probe, queries: () => n };
}

t.test('published reads: the database once, then memory; preview reads every time', async (t) => {
  const real = await testDb(t);
  await importContent(real, FIXTURE);
  const { db, queries } = counted(real);
  const store = new ContentStore(db);

  const ids = ['acme-cloud-first-steps', 'acme-cloud-basics', 'no-such-entry', 'acme-cloud-first-steps'];
  const entries = await store.byIds(ids, { preview: false });
  t.same(entries.map((e) => e.id), ['acme-cloud-first-steps', 'acme-cloud-basics'], 'in the order asked, each once, the unknown left out');
  const outlines = await store.outlines(['acme-cloud-basics', 'acme-cloud-first-steps'], { preview: false });
  t.same(outlines.map((o) => o.id), ['acme-cloud-basics', 'acme-cloud-first-steps']);
  t.same(outlines[0]?.fields.children, ['acme-cloud-first-steps', 'acme-cloud-draft'], 'navigation fields');
  t.notOk('body' in (outlines[1]?.fields ?? {}), 'no body');
  t.same(await store.outlines(['acme-cloud-draft'], { preview: false }), [], 'a draft is not published');
  t.same((await store.outlines(['acme-cloud-draft'], { preview: true })).map((o) => o.id), ['acme-cloud-draft'], 'but previewed');

  // Routes: the version's own, else the highest version, else the unversioned one (as SQL picked them).
  const upgrade = 'acme-data-center-upgrade';
  const routes = await store.routesOf(upgrade);
  t.ok(routes.length > 0, 'a versioned topic has routes');
  const only = routes[0]!;
  t.same(await store.exactPaths([upgrade, 'acme-cloud-first-steps'], only.version),
    new Map([[upgrade, only.path], ['acme-cloud-first-steps', '/acme-cloud/docs/first-steps']]), 'exact paths of a version, and unversioned pages');
  t.same(await store.exactPaths([upgrade], '1.0'), new Map(), 'nothing in a version it is not in');
  t.equal((await store.pathsFor([upgrade], '1.0')).get(upgrade), only.path, 'the nearest path otherwise');

  await store.ofType('product', { preview: false });
  await store.docsHome('acme-cloud', null);
  await store.listings('kbArticle', 'acme-kb');
  const before = queries();
  t.same((await store.byIds(ids, { preview: false })).map((e) => e.id), ['acme-cloud-first-steps', 'acme-cloud-basics']);
  await store.byId('acme-cloud-basics', { preview: false });
  await store.outlines(['acme-cloud-basics'], { preview: false });
  await store.routesOf(upgrade);
  await store.exactPaths([upgrade], only.version);
  await store.pathsFor([upgrade], null);
  t.equal((await store.ofType('product', { preview: false })).length, 2);
  t.equal((await store.docsHome('acme-cloud', null))?.path, '/acme-cloud/docs');
  t.same((await store.listings('kbArticle', 'acme-kb')).map((l) => l.path), ['/acme/kb/widget-crash']);
  t.equal(queries(), before, 'all of it again from memory');

  await store.byIds(['acme-cloud-basics'], { preview: true });
  await store.ofType('product', { preview: true });
  t.equal(queries(), before + 2, 'preview reads go to the database');

  store.invalidate();
  await store.byIds(['acme-cloud-basics'], { preview: false });
  t.equal(queries(), before + 3, 'a content change drops the cache');
  const sizes = store.cacheSizes();
  t.ok(sizes.outlines.found <= sizes.outlines.max && sizes.routes.found <= sizes.routes.max);
});

t.test('a failed batch read rejects once and caches nothing', async (t) => {
  const real = await testDb(t);
  await importContent(real, FIXTURE);
  let fail = true;
  const flaky = new Proxy(real, {
    get(target, prop, receiver) {
      if (prop === 'query') return (sql: string, params?: unknown[]) => fail ? Promise.reject(new Error('connection lost')) : target.query(sql, params);
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  const store = new ContentStore(flaky);
  await t.rejects(store.byIds(['acme-cloud-basics', 'acme-cloud-first-steps'], { preview: false }), /connection lost/);
  fail = false;
  t.same((await store.byIds(['acme-cloud-basics', 'acme-cloud-first-steps'], { preview: false })).map((e) => e.id), ['acme-cloud-basics', 'acme-cloud-first-steps'], 'the next read tries again');
});
