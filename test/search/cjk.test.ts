import t from 'tap';
import type { Db, Queryable } from '../../server/db/driver.ts';
import { migrate } from '../../server/db/migrate.ts';
import { importContent } from '../../server/content/import.ts';
import { search } from '../../server/search/engine.ts';
import { documentGrams, MAX_CJK_GRAMS } from '../../server/search/cjk.ts';
import type { SearchRequest } from '../../server/search/schemas.ts';
import { testDb, SAMPLE_CONTENT } from '../helpers/build.ts';

const idOf = (r: { content: { contentAri: string } }) => r.content.contentAri.split('/').pop() ?? '';

/** 240 characters of Japanese and Chinese, as a visitor (or an attacker) might paste them. */
const LONG_SPACED = Array.from({ length: 60 }, (_, i) => `設定${String.fromCharCode(0x4e00 + i * 7)}`).join(' ').slice(0, 240);
const LONG_UNBROKEN = Array.from({ length: 240 }, (_, i) => String.fromCharCode(0x4e00 + ((i * 37) % 5000))).join('');

interface PlanNode { 'Node Type': string; 'Index Name'?: string; 'Relation Name'?: string; 'Index Cond'?: string; Filter?: string; Plans?: PlanNode[] }
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Runs a search and returns the plan of every statement it sent (the statements run again under EXPLAIN). */
async function plansOf(db: Db, request: SearchRequest) {
  const statements: { sql: string; params: unknown[] }[] = [];
  const recording: Db = Object.create(db);
  recording.transaction = (fn) => db.transaction((tx) => {
    const seen: Queryable = Object.create(tx);
    seen.query = (sql: string, params: unknown[] = []) => {
      statements.push({ sql, params });
      return tx.query(sql, params);
    };
    return fn(seen as never);
  });
  const response = await search(recording, request);
  const plans: { sql: string; nodes: PlanNode[] }[] = [];
  for (const { sql, params } of statements.filter((s) => /search_documents/.test(s.sql))) {
    const [row] = await db.transaction(async (tx) => {
      await tx.exec('set local enable_seqscan = off; set local max_parallel_workers_per_gather = 0');
      return tx.query<{ 'QUERY PLAN': unknown }>(`explain (format json) ${sql}`, params);
    });
    const json = row?.['QUERY PLAN'];
    const plan = (typeof json === 'string' ? JSON.parse(json) : json) as { Plan: PlanNode }[];
    plans.push({ sql, nodes: nodesOf(plan[0]?.Plan as PlanNode) });
  }
  return { response, plans };
}

t.test('Japanese and Chinese search over the sample content', async (t) => {
  const db = await testDb(t);
  await importContent(db, SAMPLE_CONTENT, { force: true });

  t.test('a 240-character CJK query asks the GIN index for a bounded number of pairs, never for substrings row by row', async (t) => {
    for (const query of [LONG_SPACED, LONG_UNBROKEN, 'SAML シングルサインオン 設定']) {
      const { plans } = await plansOf(db, { query, language: 'ja', highlights: { enable: true } });
      t.ok(plans.length > 0, 'the search read search_documents');
      for (const { sql, nodes } of plans) {
        const label = sql.replace(/\s+/g, ' ').slice(0, 60);
        t.notOk(nodes.some((n) => /~~\*|~~/.test(`${n.Filter ?? ''}${n['Index Cond'] ?? ''}`)), `${label}: no substring (ILIKE) matching`);
        t.notOk(nodes.some((n) => n['Relation Name'] === 'content_entries' && !/\bid\b/.test(n['Index Cond'] ?? '')),
          `${label}: no content rows read except the page's, by id`);
        // The count goes through the GIN index (its tsquery is not known when planning, so no table is small enough to scan).
        if (/^\s*with query as/.test(sql)) {
          t.ok(nodes.some((n) => n['Node Type'] === 'Bitmap Index Scan' && n['Index Name'] === 'search_documents_search_idx'),
            `${label}: counted through the vectors' GIN index`);
        }
        const asked = (JSON.stringify(nodes).match(/'(?:[^']|'')*'::tsquery/g) ?? []).map((q) => (q.match(/''[^']+''/g) ?? []).length);
        t.ok(Math.max(0, ...asked) <= MAX_CJK_GRAMS + 1, `${label}: at most ${Math.max(0, ...asked)} lexemes asked for`);
      }
    }
  });

  t.test('Japanese queries find their pages', async (t) => {
    const first = async (query: string) => (await search(db, { query, language: 'ja', pagination: { from: 0, size: 10 } })).results.map(idOf);
    t.equal((await first('SAML シングルサインオン 設定'))[0], 'keyward-cloud-set-up-saml-sso-ja');
    t.equal((await first('属性のマッピング'))[0], 'keyward-cloud-set-up-saml-sso-ja');
    t.equal((await first('退職者 アカウント 無効化'))[0], 'keyward-cloud-provision-users-with-scim-ja');
    t.ok((await first('属性')).includes('keyward-cloud-set-up-saml-sso-ja'), 'a word inside a longer run is found');
    t.ok((await first('設')).length > 0, 'one character is found');
    t.same(await first('設定属性のマッピングプロビジョニング退職者アカウント無効化'.repeat(8)), [], 'a long run found nowhere finds nothing');
    const long = await search(db, { query: LONG_SPACED, language: 'ja' });
    t.ok(long.pagination.total >= 0, 'a long spaced query answers');
  });

  t.test('the pairs stored are the pairs of the text', async (t) => {
    const text = 'SAMLシングル・サインオンの設定、属性 a設b';
    const [row] = await db.query<{ grams: string }>('select search_cjk_grams($1) as grams', [text]);
    t.same(row?.grams.split(' '), documentGrams(text));
    t.same(documentGrams(text), ['シン', 'ング', 'グル', 'ル', 'サイ', 'イン', 'ンオ', 'オン', 'ンの', 'の設', '設定', '定', '属性', '性', '設']);
  });
});

t.test('migration 6 makes the stored CJK documents searchable by pairs', async (t) => {
  const db = await testDb(t);
  await importContent(db, SAMPLE_CONTENT, { force: true });
  // A database from before: vectors as migration 4 made them, migration 6 not applied.
  await db.exec(`
    update search_documents d set
      head_vector = setweight(to_tsvector('english', coalesce(e.title, '')), 'A') || setweight(to_tsvector('english', coalesce(e.description, '')), 'B'),
      search_vector = setweight(to_tsvector('english', coalesce(e.title, '')), 'A') || setweight(to_tsvector('english', coalesce(e.description, '')), 'B')
        || setweight(to_tsvector('english', coalesce(e.search_text, '')), 'C')
      from content_entries e where e.id = d.id;
    drop function search_vector_of(text, "char");
    drop function search_cjk_grams(text);
    delete from schema_migrations where version = 6;
  `);
  const before = await search(db, { query: 'マッピ', language: 'ja' });
  t.equal(before.pagination.total, 0, 'the old vectors hold no pairs');
  const english = await search(db, { query: 'configure' });
  t.same(await migrate(db), [6]);
  const after = await search(db, { query: 'マッピ', language: 'ja' });
  t.ok(after.results.map(idOf).includes('keyward-cloud-set-up-saml-sso-ja'));
  t.same((await search(db, { query: 'configure' })).pagination, english.pagination, 'English documents unchanged');
});
