import fp from 'fastify-plugin';
import { Gate, type GateOptions } from '../http/gate.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The bound on searches running and waiting in this instance (SEARCH_MAX_CONCURRENT, SEARCH_QUEUE_*). */
    searchGate: Gate;
  }
}

/**
 * The queue in front of the database, where the work a visitor can multiply is: searches (the results
 * page, the search API, the assistant's retrieval). Every distinct search is a response-cache miss, and
 * unbounded they queue for the pool (PostgreSQL) or the one database thread (PGlite) until every answer
 * takes seconds; bounded, the excess is shed at once with 503 and Retry-After (DESIGN "Running safely").
 */
export default fp<GateOptions>(async (app, opts) => {
  app.decorate('searchGate', new Gate('searches', opts));
}, { name: 'search-gate' });
