/**
 * A search as the routes run it: through the instance's one-minute cache (dropped on import),
 * counts shared by the pages, sorts and filters of one search, a fresh query id per response, and
 * one log line with the term's e-mail-like text masked (none for a probe: a search a page makes to
 * learn whether a link it offers finds anything, which nobody asked for).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { search } from './engine.ts';
import { maskEmails } from './highlight.ts';
import type { SearchRequest, SearchResponse } from './schemas.ts';

export async function cachedSearch(
  app: FastifyInstance, log: FastifyBaseLogger, request: SearchRequest, options: { suggest?: boolean; probe?: boolean } = {},
): Promise<SearchResponse> {
  const started = performance.now();
  const suggest = options.suggest !== false;
  const memo = <T>(key: string, load: () => Promise<T>) => app.content.cachedSearch(key, load);
  // Only a cache miss takes a place in the queue in front of the database (server/plugins/search-gate.ts).
  const cached = await memo(JSON.stringify(['response', request, suggest]), () => app.searchGate.run(() => search(app.dbRead, request, { suggest, memo })))
    .catch((error: unknown) => {
      // PostgreSQL cancelled a statement at the search's time limit: the service is busy, not broken.
      if ((error as { code?: string }).code === '57014') throw Object.assign(new Error('The search took too long.'), { statusCode: 503, cause: error });
      throw error;
    });
  // Each response has its own query id, also when the results came from the cache.
  const response = { ...cached, queryId: randomUUID() };
  if (options.probe) return response;
  log.info({
    queryId: response.queryId, term: maskEmails(request.query), total: response.pagination.total,
    rewritten: response.metadata.query.rewrittenQuery !== null, ms: Math.round(performance.now() - started),
  }, 'search');
  return response;
}
