import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';
import { SimpleErrorPage } from '../../views/pages/simple-error-page.tsx';

/** A refused request as visitors see it: the simple error page, never stored by any cache. */
export function sendErrorPage(reply: FastifyReply, status: number, message: string, css: string): FastifyReply {
  return reply.page(<SimpleErrorPage status={status} title={STATUS_CODES[status] ?? 'Error'} message={message} css={css} />,
    { status, cache: 'private' });
}
