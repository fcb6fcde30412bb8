import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { search } from '../search/engine.ts';
import { maskEmails } from '../search/highlight.ts';
import { SearchRequestSchema, SearchResponseSchema, type SearchRequest } from '../search/schemas.ts';

export const SEARCH_PATH = '/gateway/api/help-content/v2/search';

/** The search call of spec §7, for the results page's scripts and for other clients. */
export default async function searchApi(app: FastifyInstance) {
  app.post<{ Body: SearchRequest }>(SEARCH_PATH, {
    bodyLimit: 16 * 1024,
    schema: {
      summary: 'Search published help content',
      tags: ['search'],
      body: SearchRequestSchema,
      response: { 200: SearchResponseSchema },
    },
  }, async (request, reply) => {
    const started = performance.now();
    const cached = await app.content.cachedSearch(JSON.stringify(request.body), () => search(app.db, request.body, { memo: (key, load) => app.content.cachedSearch(key, load) }));
    // Each response has its own query id, also when the results came from the cache.
    const response = { ...cached, queryId: randomUUID() };
    request.log.info({
      queryId: response.queryId, term: maskEmails(request.body.query), total: response.pagination.total,
      rewritten: response.metadata.query.rewrittenQuery !== null, ms: Math.round(performance.now() - started),
    }, 'search');
    return reply.header('x-query-id', response.queryId).header('cache-control', 'no-store').send(response);
  });
}
