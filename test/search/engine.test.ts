import t from 'tap';
import { testDb, SAMPLE_CONTENT } from '../helpers/build.ts';
import { migrate } from '../../server/db/migrate.ts';
import { importContent } from '../../server/content/import.ts';
import { rebuildSearchDocuments } from '../../server/search/documents.ts';
import { search, type SearchOptions } from '../../server/search/engine.ts';
import type { SearchRequest } from '../../server/search/schemas.ts';

const idOf = (r: { content: { contentAri: string } }) => r.content.contentAri.split('/').pop() ?? '';

t.test('the search engine over the sample content', async (t) => {
  const db = await testDb(t);
  await migrate(db);
  await importContent(db, SAMPLE_CONTENT, { force: true });

  /** Every result of a search, page by page. */
  const all = async (request: SearchRequest, options: SearchOptions = {}) => {
    const ids: string[] = [];
    const dates: (string | null)[] = [];
    let total = Infinity;
    for (let from = 0; from < total; from += 10) {
      const page = await search(db, { ...request, pagination: { from, size: 10 } }, options);
      total = page.pagination.total;
      ids.push(...page.results.map(idOf));
      dates.push(...page.results.map((r) => r.content.metadata.lastPublishedAt));
    }
    return { ids, dates, total };
  };
  const headMatches = async (text: string) => new Set((await db.query<{ id: string }>(
    `select id from search_documents where head_vector @@ websearch_to_tsquery('english', $1)`, [text])).map((r) => r.id));

  t.test('a broad query ranks its newest title and description matches, then lists every other match newest first', async (t) => {
    const options = { rankAllLimit: 5, broadCandidates: 6 };
    const narrow = await all({ query: 'configure' });
    const broad = await all({ query: 'configure' }, options);
    t.ok(narrow.total > 20, `${narrow.total} matches`);
    t.equal(broad.total, narrow.total);
    t.same([...broad.ids].sort(), [...narrow.ids].sort(), 'the same documents, each once, across the pages');
    const head = await headMatches('configure');
    const ranked = broad.ids.slice(0, 6);
    t.ok(ranked.every((id) => head.has(id)), 'the first results match in title or description');
    const rest = broad.dates.slice(6).map((d) => d ?? '');
    t.same(rest, [...rest].sort().reverse(), 'the rest newest first');
  });

  t.test('a broad query finds the same pages whether it walks the table newest first or collects its matches', async (t) => {
    const requests: SearchRequest[] = [
      { query: 'configure' },
      { query: 'configure', facetFilters: { contentTypes: ['kb_article', 'topic'] } },
      { query: 'configure -cluster' },
    ];
    for (const request of requests) {
      const walked = await all(request, { rankAllLimit: 5, broadCandidates: 6, broadRest: 'walk' });
      const collected = await all(request, { rankAllLimit: 5, broadCandidates: 6, broadRest: 'collect' });
      t.ok(walked.total > 10, `${request.query}: ${walked.total} matches`);
      t.equal(new Set(walked.ids).size, walked.total, `${request.query}: every match once`);
      t.same(collected.ids, walked.ids, `${request.query}${request.facetFilters ? ' (filtered)' : ''}: the same pages in the same order`);
    }
    const auto = await all({ query: 'configure' }, { rankAllLimit: 5, broadCandidates: 6 });
    t.same(auto.ids, (await all({ query: 'configure' }, { rankAllLimit: 5, broadCandidates: 6, broadRest: 'walk' })).ids, 'and the default agrees');
  });

  t.test('a broad query that excludes a word never returns a document holding it', async (t) => {
    const broad = await all({ query: 'configure -cluster' }, { rankAllLimit: 2, broadCandidates: 4 });
    t.ok(broad.total > 0);
    const holding = await db.query<{ id: string }>(
      `select id from search_documents where id = any($1::text[]) and search_vector @@ to_tsquery('english', 'cluster')`, [broad.ids]);
    t.same(holding, []);
  });

  t.test('counts kept for frequent words equal the counts of the matches themselves', async (t) => {
    const requests: SearchRequest[] = [
      { query: 'configure' },
      { query: 'Cluster', facetFilters: { contentTypes: ['kb_article'] } },
      { query: 'backup', facetFilters: { products: [{ platform: 'data_center', key: 'tracklight', versions: ['10.4'] }] } },
      { query: 'permissions', language: 'en' },
    ];
    const counted = await Promise.all(requests.map((r) => search(db, r)));
    await db.transaction((tx) => rebuildSearchDocuments(tx, 3));
    const [{ kept } = { kept: 0 }] = await db.query<{ kept: number }>('select count(distinct lexeme)::int as kept from search_term_counts');
    t.ok(kept > 100, `${kept} frequent words kept`);
    const stored = await Promise.all(requests.map((r) => search(db, r)));
    for (const [i, response] of stored.entries()) {
      t.same(response.pagination, counted[i]?.pagination, `${requests[i]?.query}: the same total`);
      t.same(response.facets, counted[i]?.facets, `${requests[i]?.query}: the same facets`);
      t.same(response.results.map(idOf), counted[i]?.results.map(idOf), `${requests[i]?.query}: the same results`);
    }
  });

  t.test('the language filter keeps one language', async (t) => {
    const ja = await search(db, { query: 'SCIM', language: 'ja' });
    const en = await search(db, { query: 'SCIM', language: 'en' });
    const both = await search(db, { query: 'SCIM' });
    t.ok(ja.pagination.total > 0 && en.pagination.total > 0, `${ja.pagination.total} Japanese, ${en.pagination.total} English`);
    const languages = async (ids: string[]) => [...new Set((await db.query<{ language: string }>(
      'select language from content_entries where id = any($1::text[])', [ids])).map((r) => r.language))];
    t.same(await languages(ja.results.map(idOf)), ['ja-JP'], 'only Japanese pages');
    t.same(await languages(en.results.map(idOf)), ['en-US'], 'only English pages');
    t.equal(ja.pagination.total + en.pagination.total, both.pagination.total);
  });
});
