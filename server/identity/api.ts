/**
 * The calls of spec §7 that the site serves itself, from the session: who is signed in, the account's
 * cohort attributes, and the session heartbeat. Every answer is the caller's own: private, no-store.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AccountStore } from './accounts.ts';

export interface ApiOptions {
  /** The embedded provider's accounts: fresh cohort attributes by account id. Unset with an external issuer. */
  accounts?: AccountStore | undefined;
}

function privateReply(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'private, no-store').header('vary', 'Cookie');
}

function unauthorized(reply: FastifyReply) {
  return privateReply(reply).code(401).send({ statusCode: 401, error: 'UNAUTHORIZED', message: 'You are not signed in.' });
}

/** Spec §7: attributes with null values dropped. */
function withoutNulls(attributes: Record<string, unknown> | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes ?? {})) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') out[key] = value;
  }
  return out;
}

export default async function customerContextApi(app: FastifyInstance, opts: ApiOptions) {
  app.get('/gateway/api/customer-context/user/auth', { schema: { tags: ['session'], summary: 'The signed-in visitor', description: "Who is signed in (name, e-mail, account, roles) as the pages' scripts need it; 401 when nobody is. `Cache-Control: private, no-store`." } }, async (request, reply) => {
    const user = request.user;
    if (!user) return unauthorized(reply);
    return privateReply(reply).send({
      data: {
        userName: user.email, id: user.sub, displayName: user.name || user.email,
        photos: user.picture ? [{ value: user.picture }] : [],
      },
    });
  });

  // Spec §8: on any failure the page uses an empty object, so a failure here answers one too.
  app.get('/gateway/api/customer-context/customer/cohort/csm-experiment', { schema: { tags: ['session'], summary: "The signed-in visitor's experiment attributes", description: 'The attributes the flag rules read for the signed-in account; 401 when nobody is signed in.' } }, async (request, reply) => {
    const user = request.user;
    if (!user) return unauthorized(reply);
    let attributes: Record<string, string | number | boolean> = {};
    try {
      const account = opts.accounts ? await opts.accounts.byId(user.sub) : undefined;
      attributes = withoutNulls(account ? account.attributes : user.cohort);
    } catch (error) {
      request.log.warn({ err: { name: (error as Error).name, message: (error as Error).message } }, 'cohort attributes unavailable; answered empty');
    }
    return privateReply(reply).send({ data: { attributes } });
  });

  app.get('/gateway/api/session/heartbeat', { schema: { tags: ['session'], summary: 'Is the session still on', description: "204 while the session is valid, 401 once it has ended (signed out elsewhere, expired): the pages' session watch tells the visitor." } }, async (request, reply) => {
    if (!request.user) return unauthorized(reply);
    return privateReply(reply).code(204).send();
  });
}
