import t from 'tap';
import { build, testDb, SAMPLE_CONTENT } from '../helpers/build.ts';
import { markHighlights, maskEmails } from '../../server/search/highlight.ts';

const URL = '/gateway/api/help-content/v2/search';

t.test('the search API', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, contentDir: SAMPLE_CONTENT });
  const post = (payload: unknown) => app.inject({ method: 'POST', url: URL, payload: payload as Record<string, unknown> });

  t.test('answers the request of spec §3 with the response of §3', async (t) => {
    const res = await post({ query: 'smart mirror', pagination: { from: 0, size: 3 }, highlights: { enable: true }, facets: { enable: true }, language: 'en', sort: { by: 'relevance' } });
    t.equal(res.statusCode, 200);
    const body = res.json();
    t.equal(res.headers['x-query-id'], body.queryId, 'queryId also in the X-Query-Id header');
    t.same(Object.keys(body).sort(), ['facets', 'metadata', 'pagination', 'queryId', 'results']);
    t.same(body.pagination, { from: 0, size: 3, total: body.pagination.total });
    t.ok(body.pagination.total >= 3);
    t.equal(body.results.length, 3);
    const first = body.results[0];
    t.match(first.content, {
      contentAri: /^ari:cloud:help::/, title: String, description: String, url: /^\//,
      products: [{ key: 'codebarn', name: 'Codebarn', platform: 'data_center' }],
      metadata: { lastPublishedAt: /^\d{4}-/, trustFactors: { helpfulCount: Number, numViews: Number } },
    });
    t.match(first.highlights.description, /<mark>[^<]+<\/mark>/);
    t.same(body.metadata, { query: { originalQuery: 'smart mirror', rewrittenQuery: null, searchedQuery: 'smart mirror' }, sort: { by: 'relevance' }, source: 'signpost-postgres-fts' });
    t.ok(body.facets.contentTypes.length > 0);
    t.match(body.facets.products[0], { platform: /cloud|data_center/, products: [{ key: String, name: String, count: Number }] });
  });

  t.test('result breadcrumbs name the product and the parent page', async (t) => {
    const body = (await post({ query: 'configure', pagination: { from: 0, size: 50 } })).json();
    const ids = body.results.map((r: { content: { contentAri: string } }) => r.content.contentAri.split('/').pop());
    const parents = new Map((await db.query<{ id: string; parent: string }>(
      `select e.id, p.title as parent from content_entries e join content_entries p on p.id = e.fields->>'parentId' where e.id = any($1::text[])`, [ids]))
      .map((r) => [r.id, r.parent]));
    t.ok(parents.size > 0, 'some results have a parent page');
    for (const r of body.results as { content: { contentAri: string; breadcrumbs: string[]; products: { name: string }[] } }[]) {
      const parent = parents.get(r.content.contentAri.split('/').pop() ?? '');
      if (parent) t.equal(r.content.breadcrumbs.at(-1), parent);
      if (r.content.products[0]) t.match(r.content.breadcrumbs[0], r.content.products[0].name);
    }
  });

  t.test('facets count the whole match set, not the page', async (t) => {
    const body = (await post({ query: 'configure', pagination: { from: 0, size: 1 } })).json();
    const sum = body.facets.contentTypes.reduce((a: number, c: { count: number }) => a + c.count, 0);
    t.equal(sum, body.pagination.total);
    t.equal(body.results.length, 1);
  });

  t.test('each product facet counts its documents once, whatever their versions', async (t) => {
    const body = (await post({ query: 'configure' })).json();
    const dc = body.facets.products.find((p: { platform: string }) => p.platform === 'data_center');
    t.ok(dc, 'data center products among the matches');
    for (const product of dc.products.slice(0, 3)) {
      t.ok(product.versions.length > 1, `${product.key} has several versions`);
      const filtered = (await post({ query: 'configure', facetFilters: { products: [{ platform: 'data_center', key: product.key }] } })).json();
      t.equal(filtered.pagination.total, product.count, `${product.key}: the facet count is the filtered total`);
    }
    // An article of both deployments counts under each: the counts of one deployment never exceed the matches.
    for (const platform of body.facets.products as { platform: string; products: { count: number }[] }[]) {
      const counted = platform.products.reduce((a, p) => a + p.count, 0);
      t.ok(counted <= body.pagination.total, `${platform.platform}: product counts never exceed the matches`);
    }
  });

  t.test('a KB article of several deployments is listed and counted under each deployment it names', async (t) => {
    const [article] = await db.query<{ id: string; family: string; covers: unknown[] }>(
      `select id, product_name_id as family, fields->'productVersions' as covers from content_entries where id = 'kb-plotline-capacity-shows-zero-for-team'`);
    t.equal(article?.covers.length, 2, 'the article names a product of each deployment (content/kb/plotline)');
    const query = 'capacity unscheduled estimation unit';
    const ids = (body: { results: { content: { contentAri: string } }[] }) => body.results.map((r) => r.content.contentAri.split('/').pop());
    const all = (await post({ query })).json();
    for (const platform of ['cloud', 'data_center']) {
      const facet = all.facets.products.find((p: { platform: string }) => p.platform === platform)?.products
        .find((p: { key: string }) => p.key === article?.family);
      t.ok(facet?.count >= 1, `${platform}: the product facet counts it`);
      const filtered = (await post({ query, facetFilters: { products: [{ platform, key: article?.family }] } })).json();
      t.ok(ids(filtered).includes(article?.id), `${platform}: it is listed`);
      t.equal(filtered.pagination.total, facet?.count, `${platform}: the facet count is the filtered total`);
    }
    const result = all.results.find((r: { content: { contentAri: string } }) => r.content.contentAri.endsWith(`/${article?.id}`));
    t.same(result?.content.products.map((p: { platform: string }) => p.platform).sort(), ['cloud', 'data_center'], 'the result names both');
  });

  t.test('with a content-type filter the total is the kept types, and the type facet still lists the others', async (t) => {
    const all = (await post({ query: 'configure' })).json();
    const kb = (await post({ query: 'configure', facetFilters: { contentTypes: ['kb_article', 'collection'] } })).json();
    const kept = all.facets.contentTypes.filter((c: { key: string }) => c.key === 'kb_article' || c.key === 'collection')
      .reduce((a: number, c: { count: number }) => a + c.count, 0);
    t.equal(kb.pagination.total, kept);
    t.same(kb.facets.contentTypes, all.facets.contentTypes);
    const off = (await post({ query: 'configure', facets: { enable: false }, facetFilters: { contentTypes: ['kb_article', 'collection'] } })).json();
    t.equal(off.pagination.total, kept, 'the same total when facets are off');
    t.same(off.facets, { contentTypes: [], products: [] });
  });

  t.test('filters: content types, product with platform and versions', async (t) => {
    const kb = (await post({ query: 'upgrade', facetFilters: { contentTypes: ['kb_article'] } })).json();
    t.ok(kb.results.length > 0);
    t.ok(kb.results.every((r: { content: { contentType: string } }) => r.content.contentType === 'kb_article'));
    const dc = (await post({ query: 'cluster', facetFilters: { products: [{ platform: 'data_center', key: 'tracklight', versions: ['10.4'] }] } })).json();
    t.ok(dc.results.length > 0);
    for (const r of dc.results) {
      t.match(r.content.products[0], { key: 'tracklight', platform: 'data_center' });
      t.ok(r.content.products[0].versions.includes('10.4'));
      t.match(r.content.url, /^\/tracklight(-data-center\/10\.4\/docs|\/kb)\//, 'links go to the filtered version');
    }
  });

  t.test('sort by last published', async (t) => {
    const body = (await post({ query: 'configure', sort: { by: 'last_published' }, pagination: { from: 0, size: 20 } })).json();
    const dates = body.results.map((r: { content: { metadata: { lastPublishedAt: string } } }) => r.content.metadata.lastPublishedAt);
    t.same(dates, [...dates].sort().reverse());
  });

  t.test('a misspelt query is searched as the corpus spells it', async (t) => {
    const body = (await post({ query: 'escalaton policy' })).json();
    t.same(body.metadata.query, { originalQuery: 'escalaton policy', rewrittenQuery: 'escalation policy', searchedQuery: 'escalation policy' });
    t.match(body.results[0].content.url, /escalation-policy/);
  });

  t.test('a query matching a section heading links to that section', async (t) => {
    const body = (await post({ query: 'round-robin for busy teams' })).json();
    const hit = body.results.find((r: { content: { url: string } }) => r.content.url.includes('escalation-policy'));
    t.same(hit?.content.section, { id: 'round-robin-for-busy-teams', title: 'Round-robin for busy teams' });
    t.match(hit?.content.url, /#round-robin-for-busy-teams$/);
  });

  t.test('helpful answers raise the trust factor', async (t) => {
    const before = (await post({ query: 'smart mirror' })).json().results;
    const id = before[0].content.contentAri.split('/').pop();
    await db.query('insert into entry_stats (entry_id, helpful_count) values ($1, 7)', [id]);
    // A different request, so the answer is not the one cached a moment ago.
    const after = (await post({ query: 'smart mirror', facets: { enable: false } })).json().results;
    t.equal(after.find((r: { content: { contentAri: string } }) => r.content.contentAri.endsWith(id)).content.metadata.trustFactors.helpfulCount, 7);
  });

  t.test('a malformed request is a 400 naming the field', async (t) => {
    for (const [payload, field] of [
      [{}, 'query'], [{ query: '' }, 'query'], [{ query: 'x', pagination: { from: -1, size: 10 } }, 'pagination/from'],
      [{ query: 'x', pagination: { from: 0, size: 500 } }, 'pagination/size'], [{ query: 'x', sort: { by: 'best' } }, 'sort/by'],
      [{ query: 'x', facetFilters: { products: [{ platform: 'mainframe', key: 'x' }] } }, 'platform'], [{ query: 'x', colour: 1 }, 'additional'],
      // A JSON body is typed: a number is not taken for text, nor a string for a number.
      [{ query: 5 }, 'body/query must be string'], [{ query: 'x', pagination: { from: '0', size: 10 } }, 'pagination/from must be integer'],
    ] as const) {
      const res = await post(payload);
      t.equal(res.statusCode, 400, JSON.stringify(payload));
      t.match(res.json().message, field);
    }
    const huge = await post({ query: 'x'.repeat(20_000) });
    t.equal(huge.statusCode, 413);
  });

  t.test('the schemas are published as OpenAPI', async (t) => {
    const doc = (await app.inject('/gateway/api/help-content/v2/openapi.json')).json();
    t.ok(doc.openapi);
    t.ok(doc.paths[URL].post.requestBody);
    t.ok(doc.paths[URL].post.responses['200']);
  });
});

t.test('highlights escape the text before marking it', async (t) => {
  t.equal(markHighlights('a <b>\u0002term\u0003</b> & "q"'), 'a &lt;b&gt;<mark>term</mark>&lt;/b&gt; &amp; &quot;q&quot;');
  t.equal(markHighlights('\u0002open'), '<mark>open</mark>', 'an unclosed mark is closed');
});

t.test('e-mail-like text is masked', async (t) => {
  t.equal(maskEmails('reset for jane.doe@example.com please'), 'reset for [email] please');
});
