import type { FastifyInstance } from 'fastify';
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

/** An answer in JSON was asked for (the island's fetch), rather than the page (a form post). */
const wantsJson = (accept: string | undefined): boolean => /(^|,)\s*application\/json\b/i.test(accept ?? '');

/**
 * Was-this-helpful as a plain form: the answer is stored before the response, then the visitor is
 * sent back to the page (post/redirect/get). One answer per visitor and page: repeating it updates it.
 * The feedback island posts the same form with `Accept: application/json` and gets, after the same
 * checks, `{ state: 'reasons' | 'thanks', reason? }` instead of the redirect.
 *
 * What a burst cannot buy: helpfulness lifts search rank (entry_stats.helpful_count),
 * so it counts distinct (client network, day) pairs among the helpful answers of *established*
 * visitors only. A visitor is established once it comes back with the signed visitor cookie this
 * route gave it; its answers (earlier ones too) count from then on. So:
 * - posts without a cookie, or with a made-up one, are stored but count for nothing, however many;
 * - many visitors minted from one address are one network and count once a day at most;
 * - the route is rate-limited per client (config.stateChanging), and the form token expires.
 * The engine then dampens the count (ln(1 + n), server/search/engine.ts).
 */
export default async function feedback(app: FastifyInstance) {
  app.post<{ Body: FeedbackBody }>('/feedback', {
    bodyLimit: 4096,
    schema: { body: FeedbackBodySchema },
    config: { stateChanging: { crossSiteMessage: 'Feedback can only be sent from this site.' } },
  }, async (request, reply) => {
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
    let visitor = app.visitorIds.verify(request.cookies[VISITOR_COOKIE]);
    const established = visitor !== undefined;
    if (!visitor) {
      const created = app.visitorIds.create();
      visitor = created.id;
      reply.setCookie(VISITOR_COOKIE, created.cookie, {
        path: '/', httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', maxAge: 365 * 24 * 3600,
      });
    }
    const network = app.visitorIds.networkKey(request.ip);
    // A reason sent after this visitor's 'No' (the reasons form, with scripts or without) completes that
    // answer: the analytics must not count a second 'No' (spec §4 Feedback: one answer per visitor and page).
    let followsNo = false;
    await app.db.transaction(async (tx) => {
      // The answer before this one comes back from the same statement (the CTE reads the row as it was).
      const [stored] = await tx.query<{ previous: boolean | null }>(
        `with before as (select helpful from feedback where entry_id = $1 and visitor_key = $2)
         insert into feedback (entry_id, visitor_key, helpful, reason, network_key, counted) values ($1, $2, $3, $4, $5, $6)
         on conflict (entry_id, visitor_key) do update set helpful = excluded.helpful, reason = excluded.reason,
           network_key = excluded.network_key, counted = excluded.counted, updated_at = now()
         returning (select helpful from before) as previous`,
        [entryId, visitor, helpful === 'yes', helpful === 'no' ? (reason ?? null) : null, network, established],
      );
      followsNo = helpful === 'no' && !!reason && stored?.previous === false;
      // An established visitor's earlier answers count from now on too.
      const entries = established
        ? (await tx.query<{ entry_id: string }>(
            `update feedback set counted = true where visitor_key = $1 and not counted returning entry_id`, [visitor],
          )).map((r) => r.entry_id)
        : [];
      // helpfulCount is a search trust factor: recount the entries whose counted answers changed.
      await tx.query(
        `insert into entry_stats (entry_id, helpful_count)
         select u.entry, (select count(distinct (f.network_key, f.answered_on))::int from feedback f
                          where f.entry_id = u.entry and f.helpful and f.counted)
         from unnest($1::text[]) as u(entry)
         on conflict (entry_id) do update set helpful_count = excluded.helpful_count`,
        [[...new Set([entryId, ...entries])]],
      );
    });
    request.log.info({ entryId, helpful, reason, established }, 'feedback stored');
    app.analytics.record(request, {
      type: 'was_this_helpful_click', path: route.path, entryId, key: followsNo ? 'reason' : helpful, ...(reason ? { data: { reason } } : {}),
    });
    reply.header('cache-control', 'no-store');
    // The feedback island posts with Accept: application/json and stays on the page: the state to show.
    if (wantsJson(request.headers.accept)) {
      return reply.send({ state: helpful === 'no' && !reason ? 'reasons' : 'thanks', ...(helpful === 'no' && reason ? { reason } : {}) });
    }
    const next = helpful === 'no' && !reason ? 'reasons' : helpful === 'no' ? `thanks&reason=${reason}` : 'thanks';
    return reply.redirect(`${route.path}?feedback=${next}#feedback`, 303);
  });
}
