import t from 'tap';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importContent } from '../../server/content/import.ts';
import type { Db } from '../../server/db/driver.ts';
import { tempContent, testDb, editFile } from '../helpers/build.ts';

/** Small enough that a word in two documents has kept counts, so edits cross it both ways. */
const FREQUENT = 2;

/** Every table the import writes, as a fresh full import would leave it (content_imports aside). */
async function tables(db: Db) {
  return {
    entries: await db.query('select * from content_entries order by id'),
    routes: await db.query('select * from content_routes order by path'),
    documents: await db.query(`select id, facet_key, last_published, num_views, search_vector::text as search_vector,
      head_vector::text as head_vector from search_documents order by id`),
    facetKeys: await db.query('select * from search_facet_keys order by key'),
    termCounts: await db.query('select * from search_term_counts order by lexeme, facet_key'),
    vocabulary: await db.query('select * from search_vocabulary order by word'),
  };
}


t.test('an import writes only what changed and leaves the tables a full import would', async (t) => {
  const live = await testDb(t);
  const fresh = await testDb(t);
  const dir = await tempContent(t);
  const topic = (name: string) => join(dir, 'topics', name);
  const first = await importContent(live, dir, { frequentTerm: FREQUENT });
  t.ok(first.written.full, 'the first import writes everything');

  const steps: [string, () => Promise<void>, { full?: boolean; entries?: number; removed?: number }][] = [
    ['a body edited', () => editFile(topic('acme-cloud/first-steps.md'), 'Run the installer.', 'Run the installer twice.'), { entries: 1, removed: 0 }],
    ['a word reaches the kept-count threshold', () => editFile(topic('acme-data-center/upgrade.md'), 'Upgrade steps', 'Upgrade the installer steps'), { entries: 1 }],
    ['a topic added', async () => {
      await writeFile(topic('acme-cloud/new-one.md'), '---\nid: acme-cloud-new-one\ntitle: A new one\nslug: new-one\ncontext: acme-cloud\n---\nFresh installer text.\n');
      await editFile(join(dir, 'collections/acme-cloud-basics.yaml'), 'acme-cloud-draft]', 'acme-cloud-draft, acme-cloud-new-one]');
    }, { entries: 2 }],
    ['a slug renamed', () => editFile(topic('acme-cloud/new-one.md'), 'slug: new-one', 'slug: renamed-one'), {}],
    ['a draft published', () => editFile(topic('acme-cloud/draft.md'), 'published: false', 'published: true'), {}],
    ['a page unpublished', () => editFile(topic('acme-cloud/first-steps.md'), 'slug: first-steps', 'slug: first-steps\npublished: false'), {}],
    ['a version changed (a new facet combination)', () => editFile(topic('acme-data-center/upgrade.md'), 'versions: ["2.0"]', 'versions: ["1.0", "2.0"]'), {}],
    ['a word falls below the threshold', () => editFile(topic('acme-data-center/upgrade.md'), 'the installer ', ''), {}],
    ['a product changed', () => editFile(join(dir, 'products/acme-cloud.yaml'), 'productName: Acme', 'productName: Acme Online'), {}],
    ['a topic deleted', async () => {
      await rm(topic('acme-cloud/new-one.md'));
      await editFile(join(dir, 'collections/acme-cloud-basics.yaml'), ', acme-cloud-new-one]', ']');
    }, { removed: 1 }],
    ['the last document of a facet key unpublished', () => editFile(topic('acme-data-center/upgrade.md'), 'slug: upgrade', 'slug: upgrade\npublished: false'), {}],
  ];
  const kept: number[] = [];
  for (const [name, change, expected] of steps) {
    await change();
    const result = await importContent(live, dir, { frequentTerm: FREQUENT });
    t.ok(result.imported, `${name}: imported`);
    t.notOk(result.written.full, `${name}: only the difference is written`);
    for (const [key, value] of Object.entries(expected)) t.equal(result.written[key as 'entries'], value, `${name}: ${key}`);
    await importContent(fresh, dir, { force: true, frequentTerm: FREQUENT });
    const stored = await tables(live);
    t.same(stored, await tables(fresh), `${name}: the tables equal a full import's`);
    kept.push(stored.termCounts.length);
  }
  t.ok(kept.some((n) => n > 0) && kept.some((n, i) => i > 0 && n < (kept[i - 1] as number)), 'words gained and lost kept counts');
});

t.test('--force rewrites everything, an unchanged tree nothing', async (t) => {
  const db = await testDb(t);
  const dir = await tempContent(t);
  await importContent(db, dir);
  t.notOk((await importContent(db, dir)).imported);
  const forced = await importContent(db, dir, { force: true });
  t.ok(forced.written.full);
});
