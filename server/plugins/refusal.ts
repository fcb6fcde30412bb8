import type { FastifyReply, FastifyRequest } from 'fastify';
import { isApiUrl } from '../http/http-error.ts';

/**
 * A request refused on purpose (too many posts, another site's form): a short page in the site's
 * words, never cached. The API gets the same message as JSON. Thrown from hooks and handled by the
 * app's error handler, or sent directly with sendRefusal.
 */
export class Refusal extends Error {
  override name = 'Refusal';
  constructor(readonly statusCode: number, message: string, readonly retryAfterSeconds?: number) {
    super(message);
  }
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function sendRefusal(request: FastifyRequest, reply: FastifyReply, refusal: Refusal): FastifyReply {
  reply.code(refusal.statusCode).header('cache-control', 'no-store');
  if (refusal.retryAfterSeconds !== undefined) reply.header('retry-after', String(refusal.retryAfterSeconds));
  if (isApiUrl(request.url)) {
    return reply.send({ statusCode: refusal.statusCode, error: refusal.statusCode === 429 ? 'TOO_MANY_REQUESTS' : 'FORBIDDEN', message: refusal.message });
  }
  // The no-JavaScript form lands here: say what happened and lead back to where the visitor was.
  const back = request.headers.referer && /^\/(?![/\\])/.test(safePath(request.headers.referer)) ? safePath(request.headers.referer) : '/';
  const title = refusal.statusCode === 429 ? 'Please wait a moment' : 'This form could not be sent';
  return reply.type('text/html; charset=utf-8').send(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escape(title)}</title></head><body><main><h1>${escape(title)}</h1><p role="alert">${escape(refusal.message)}</p>` +
    `<p><a href="${escape(back)}">Go back to the page</a></p></main></body></html>`,
  );
}

/** The path of the referring page, as a path of this site (a refusal page never links off-site). */
function safePath(referer: string): string {
  try {
    const url = new URL(referer);
    return `${url.pathname}${url.search}`;
  } catch {
    return '';
  }
}
