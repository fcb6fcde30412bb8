import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type {} from '@fastify/cookie';

export const FeedbackBodySchema = Type.Object({
  _csrf: Type.String({ minLength: 1, maxLength: 200 }),
  entryId: Type.String({ minLength: 1, maxLength: 200 }),
  returnTo: Type.String({ pattern: '^/(?!/)', maxLength: 500 }),
  helpful: Type.Union([Type.Literal('yes'), Type.Literal('no')]),
  reason: Type.Optional(Type.Union([Type.Literal('not-accurate'), Type.Literal('not-clear'), Type.Literal('not-relevant')])),
}, { additionalProperties: false });
type FeedbackBody = Static<typeof FeedbackBodySchema>;

const VISITOR_COOKIE = 'sp_visitor';

/** A POST from another site (spec §4 Feedback: a forged cross-site POST is refused). */
function crossSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site === 'cross-site') return true;
  const origin = request.headers.origin;
  if (origin && origin !== 'null') {
    try {
      return new URL(origin).host !== request.headers.host;
    } catch {
      return true;
    }
  }
  return origin === 'null';
}

/**
 * Was-this-helpful as a plain form: the answer is stored before the response, then the visitor is
 * sent back to the page (post/redirect/get). One answer per visitor and page: repeating it updates it.
 */
export default async function feedback(app: FastifyInstance) {
  app.post<{ Body: FeedbackBody }>('/feedback', {
    bodyLimit: 4096,
    schema: { body: FeedbackBodySchema },
  }, async (request, reply) => {
    if (crossSite(request)) {
      request.log.warn({ origin: request.headers.origin }, 'cross-site feedback refused');
      return reply.code(403).type('text/plain; charset=utf-8').send('Feedback can only be sent from this site.');
    }
    const { entryId, returnTo, helpful, reason } = request.body;
    if (!app.formTokens.verify(`feedback:${entryId}`, request.body._csrf)) {
      return reply.code(403).type('text/plain; charset=utf-8').send('This form has expired. Reload the page and try again.');
    }
    const [route] = await app.db.query<{ path: string }>(
      `select r.path from content_routes r join content_entries e on e.id = r.entry_id
       where r.entry_id = $1 and r.path = $2 and e.published`,
      [entryId, returnTo.split(/[?#]/)[0]],
    );
    if (!route) {
      return reply.code(400).type('text/plain; charset=utf-8').send('body/returnTo: not a page of this entry');
    }
    let visitor = request.cookies[VISITOR_COOKIE];
    if (!visitor || !/^[A-Za-z0-9_-]{16,64}$/.test(visitor)) {
      visitor = randomBytes(18).toString('base64url');
      reply.setCookie(VISITOR_COOKIE, visitor, {
        path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', maxAge: 365 * 24 * 3600,
      });
    }
    await app.db.transaction(async (tx) => {
      await tx.query(
        `insert into feedback (entry_id, visitor_key, helpful, reason) values ($1, $2, $3, $4)
         on conflict (entry_id, visitor_key) do update set helpful = excluded.helpful, reason = excluded.reason, updated_at = now()`,
        [entryId, visitor, helpful === 'yes', helpful === 'no' ? (reason ?? null) : null],
      );
      // helpfulCount is a search trust factor: recount this entry's answers.
      await tx.query(
        `insert into entry_stats (entry_id, helpful_count)
         select $1, count(*) filter (where helpful)::int from feedback where entry_id = $1
         on conflict (entry_id) do update set helpful_count = excluded.helpful_count`,
        [entryId],
      );
    });
    request.log.info({ entryId, helpful, reason }, 'feedback stored');
    const next = helpful === 'no' && !reason ? 'reasons' : 'thanks';
    return reply.header('cache-control', 'no-store').redirect(`${route.path}?feedback=${next}#feedback`, 303);
  });
}
