/**
 * The helpdesk's side (issue "Delivery to the vendor's helpdesk"): statuses come back through
 * POST /api/requests/{reference}/status, and GET /api/requests/{reference} reads a request, both with
 * `Authorization: Bearer HELPDESK_TOKEN`. Without the token (or with HELPDESK_TOKEN unset) every call is
 * a 401 before anything else is looked at, so the endpoint tells nobody which references exist.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Config } from '../../config.ts';
import { referencePattern } from './access.ts';
import { REQUEST_STATUSES, MAX_NOTE_LENGTH } from './statuses.ts';
import { MAX_REPLY_LENGTH } from './reply-body.ts';

export const StatusBodySchema = Type.Object({
  status: Type.Union(REQUEST_STATUSES.map((s) => Type.Literal(s))),
  note: Type.Optional(Type.String({ maxLength: MAX_NOTE_LENGTH })),
}, { additionalProperties: false });
type StatusBody = Static<typeof StatusBodySchema>;

export const CommentBodySchema = Type.Object({
  body: Type.String({ minLength: 1, maxLength: MAX_REPLY_LENGTH, description: 'The reply as the requester reads it (plain text).' }),
  name: Type.Optional(Type.String({ maxLength: 200, description: 'The name of the agent who wrote it, shown beside it.' })),
  id: Type.Optional(Type.String({
    minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._:-]+$',
    description: "The helpdesk's own id for the comment: the same id sent again stores the comment once.",
  })),
}, { additionalProperties: false });
type CommentBody = Static<typeof CommentBodySchema>;

const ParamsSchema = Type.Object({ reference: Type.String({ maxLength: 100 }) });
type Params = Static<typeof ParamsSchema>;

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The bearer token compared in constant time (both sides hashed first, so lengths say nothing either). */
export function bearerMatches(header: unknown, token: string | undefined): boolean {
  if (!token || typeof header !== 'string') return false;
  const match = /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(header);
  if (!match) return false;
  return timingSafeEqual(digest(match[1] as string), digest(token));
}

export default async function helpdeskApi(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  const reference = referencePattern(config.requestReferencePrefix);
  // Per client address, across both routes: a helpdesk updating many requests stays well under it.
  const rateLimit = {
    max: config.rateLimitMax * 10, timeWindow: config.rateLimitWindow * 1000,
    keyGenerator: (request: FastifyRequest) => `helpdesk-api|${request.ip}`,
  };

  async function authorize(request: FastifyRequest, reply: FastifyReply) {
    if (bearerMatches(request.headers.authorization, config.helpdeskToken)) return;
    request.log.info({ route: request.routeOptions.url, configured: config.helpdeskToken !== undefined }, 'helpdesk call refused: no valid token');
    return reply.code(401).header('www-authenticate', 'Bearer').send({
      statusCode: 401, error: 'UNAUTHORIZED', message: 'A valid helpdesk token is required (Authorization: Bearer …).',
    });
  }

  const notFound = (reply: FastifyReply) =>
    reply.code(404).send({ statusCode: 404, error: 'NOT_FOUND', message: 'There is no request with this reference.' });

  app.get<{ Params: Params }>('/api/requests/:reference', {
    onRequest: authorize, config: { rateLimit },
    schema: {
      tags: ['helpdesk'], security: [{ helpdeskToken: [] }], params: ParamsSchema,
      summary: 'Read a support request',
      description: 'The request as stored: its fields, context, status, attachments (names, types, sizes), updates and replies. 401 without the token (before anything is looked up), 404 for an unknown reference.',
    },
  }, async (request, reply) => {
    const ref = request.params.reference;
    const stored = reference.test(ref) ? await app.supportRequests.get(ref) : undefined;
    if (!stored) return notFound(reply);
    const [attachments, updates, comments] = await Promise.all([
      app.supportRequests.attachments(ref), app.supportRequests.updates(ref), app.supportRequests.comments(ref),
    ]);
    return reply.send({ ...stored, attachments, updates, comments });
  });

  app.post<{ Params: Params; Body: StatusBody }>('/api/requests/:reference/status', {
    onRequest: authorize, bodyLimit: 16 * 1024, config: { rateLimit },
    schema: {
      tags: ['helpdesk'], security: [{ helpdeskToken: [] }], params: ParamsSchema, body: StatusBodySchema,
      summary: "Change a support request's status",
      description: 'Sets the status, with an optional note the requester sees on the request page. 401 without the token, 404 for an unknown reference, 400 for a status that is not one of the list.',
    },
  }, async (request, reply) => {
    const ref = request.params.reference;
    const { status } = request.body;
    const note = request.body.note?.trim() ?? '';
    const found = reference.test(ref) && await app.supportRequests.setStatus(ref, status, note, 'helpdesk');
    if (!found) return notFound(reply);
    request.log.info({ reference: ref, status, source: 'helpdesk' }, 'request status set');
    return reply.code(200).send({ reference: ref, status, note });
  });

  app.post<{ Params: Params; Body: CommentBody }>('/api/requests/:reference/comments', {
    onRequest: authorize, bodyLimit: 128 * 1024, config: { rateLimit },
    schema: {
      tags: ['helpdesk'], security: [{ helpdeskToken: [] }], params: ParamsSchema, body: CommentBodySchema,
      summary: 'Reply on a support request',
      description: "Adds the helpdesk's reply to the request's conversation, where the requester reads it. It is not delivered back to the helpdesk. With `id`, a call sent again stores the reply once (200 and `duplicate: true`). 401 without the token, 404 for an unknown reference, 400 for an empty or over-long body.",
    },
  }, async (request, reply) => {
    const ref = request.params.reference;
    const body = request.body.body.replace(/\r\n?/g, '\n').trim();
    if (!body) {
      return reply.code(400).send({ statusCode: 400, error: 'BAD_REQUEST', message: 'body: the reply has no text.' });
    }
    const saved = reference.test(ref) ? await app.supportRequests.addComment({
      reference: ref, author: 'helpdesk', name: request.body.name?.trim() ?? '', body, submissionKey: request.body.id, attachments: [],
    }) : undefined;
    if (!saved) return notFound(reply);
    request.log.info({ reference: ref, comment: saved.id, source: 'helpdesk', duplicate: saved.duplicate }, 'request reply stored');
    return reply.code(saved.duplicate ? 200 : 201).send({ reference: ref, id: saved.id, duplicate: saved.duplicate });
  });
}
