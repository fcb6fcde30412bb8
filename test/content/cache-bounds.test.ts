/**
 * Every cache is bounded (issue 8 item 11): made-up entry ids and paths, one per request, must not
 * grow memory for the life of the content version, nor push real pages out of the cache. The store is
 * what /version-switch?entry= and every page path read through.
 */
import t from 'tap';
import { ContentStore } from '../../server/content/store.ts';
import { importContent } from '../../server/content/import.ts';
import { FIXTURE, testDb } from '../helpers/build.ts';

t.test('20 000 distinct unknown ids leave every cache within its bound', async (t) => {
  const db = await testDb(t);
  await importContent(db, FIXTURE);
  const store = new ContentStore(db);
  t.ok(await store.byId('acme-cloud-first-steps', { preview: false }), 'a real entry is cached');
  const ids = Array.from({ length: 20_000 }, (_, i) => `unknown-${i}`);
  for (let i = 0; i < ids.length; i += 500) {
    await Promise.all(ids.slice(i, i + 500).map((id) => store.byId(id, { preview: false })));
    if (i < 2000) await Promise.all(ids.slice(i, i + 500).map((id) => store.byPath(`/${id}`, { preview: false })));
  }
  const sizes = store.cacheSizes();
  t.ok(sizes.ids.missing <= sizes.ids.maxMissing, `unknown ids: ${sizes.ids.missing} <= ${sizes.ids.maxMissing}`);
  t.ok(sizes.pages.missing <= sizes.pages.maxMissing, `unknown paths: ${sizes.pages.missing} <= ${sizes.pages.maxMissing}`);
  t.ok(sizes.ids.maxMissing <= 1000, 'misses have a small cache');
  t.equal(sizes.ids.found, 1, 'the real entry was not pushed out by the misses');
  t.equal(sizes.ids.loading, 0);
  t.ok(sizes.shared.size <= sizes.shared.max && sizes.searches.size <= sizes.searches.max);
});
