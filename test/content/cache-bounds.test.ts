/**
 * Every cache is bounded (issue 8 item 11): made-up entry ids and paths, one per request, must not
 * grow memory for the life of the content version, nor push real pages out of the cache. The store is
 * what /version-switch?entry= and every page path read through.
 */
import t from 'tap';
import { ContentStore } from '../../server/content/store.ts';
import { LookupCache } from '../../server/content/lookup-cache.ts';
import { importContent } from '../../server/content/import.ts';
import { FIXTURE, testDb } from '../helpers/build.ts';

t.test('the store: made-up ids and paths stay within the bound of the cache of misses', async (t) => {
  const db = await testDb(t);
  await importContent(db, FIXTURE);
  const store = new ContentStore(db);
  t.ok(await store.byId('acme-cloud-first-steps', { preview: false }), 'a real entry is cached');
  t.ok(await store.byPath('/acme-cloud/docs/first-steps', { preview: false }), 'a real page is cached');
  // Past the bound of the cache of misses, through the real queries (what /version-switch?entry= does).
  for (let i = 0; i < 1200; i += 200) {
    await Promise.all(Array.from({ length: 200 }, (_, j) => store.byId(`unknown-${i + j}`, { preview: false })));
    await Promise.all(Array.from({ length: 200 }, (_, j) => store.byPath(`/unknown-${i + j}`, { preview: false })));
  }
  const sizes = store.cacheSizes();
  t.ok(sizes.ids.missing <= sizes.ids.maxMissing, `unknown ids: ${sizes.ids.missing} <= ${sizes.ids.maxMissing}`);
  t.ok(sizes.pages.missing <= sizes.pages.maxMissing, `unknown paths: ${sizes.pages.missing} <= ${sizes.pages.maxMissing}`);
  t.ok(sizes.ids.maxMissing < 1200, 'the bound was reached');
  t.equal(sizes.ids.found, 1, 'the real entry was not pushed out by the misses');
  t.equal(sizes.pages.found, 1, 'nor the real page');
  t.equal(sizes.ids.loading, 0);
  t.ok(sizes.shared.size <= sizes.shared.max && sizes.searches.size <= sizes.searches.max);
});

t.test('the lookup cache: 20 000 distinct unknown keys, found values kept, misses bounded', async (t) => {
  const cache = new LookupCache<string>(100, 50);
  for (let i = 0; i < 10; i++) await cache.get(`real-${i}`, async () => `value-${i}`);
  for (let i = 0; i < 20_000; i += 1000) {
    await Promise.all(Array.from({ length: 1000 }, (_, j) => cache.get(`unknown-${i + j}`, async () => undefined)));
  }
  t.same(cache.sizes, { found: 10, missing: 50, loading: 0, max: 100, maxMissing: 50 });
  let loads = 0;
  t.equal(await cache.get('real-3', async () => (loads++, 'again')), 'value-3', 'found values are still served from memory');
  t.equal(loads, 0);
  await Promise.all([cache.get('same', async () => (loads++, 'x')), cache.get('same', async () => (loads++, 'x'))]);
  t.equal(loads, 1, 'concurrent lookups of one key share one load');
  for (let i = 0; i < 500; i++) await cache.get(`more-${i}`, async () => `v${i}`);
  t.equal(cache.sizes.found, 100, 'found values are bounded too');
});
