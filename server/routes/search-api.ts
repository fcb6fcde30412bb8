import type { FastifyInstance } from 'fastify';
import { queryProblem } from '../search/bounds.ts';
import { cachedSearch } from '../search/cached.ts';
import { SearchRequestSchema, SearchResponseSchema, type SearchRequest } from '../search/schemas.ts';

export const SEARCH_PATH = '/gateway/api/help-content/v2/search';

/** The search call of spec §7, for the results page's scripts and for other clients. */
export default async function searchApi(app: FastifyInstance) {
  app.post<{ Body: SearchRequest }>(SEARCH_PATH, {
    bodyLimit: 16 * 1024,
    config: { expensive: true },
    schema: {
      summary: 'Search published help content',
      tags: ['search'],
      body: SearchRequestSchema,
      response: { 200: SearchResponseSchema },
    },
  }, async (request, reply) => {
    // Nothing stored yet: an empty result would be untrue in a minute.
    if (app.contentStarting()) return reply.siteStarting();
    // The schema bounds the characters; the words are counted here, with the same kind of answer.
    const problem = queryProblem(request.body.query);
    if (problem) throw Object.assign(new Error(problem), { statusCode: 400, code: 'FST_ERR_VALIDATION' });
    const response = await cachedSearch(app, request.log, request.body);
    app.analytics.search(request, SEARCH_PATH, request.body.query, response, false);
    return reply.header('x-query-id', response.queryId).header('cache-control', 'no-store').send(response);
  });
}
