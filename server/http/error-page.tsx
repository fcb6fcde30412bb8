import { STATUS_CODES } from 'node:http';
import type { FastifyReply } from 'fastify';
import { SimpleErrorPage } from '../../views/pages/simple-error-page.tsx';
import type { Stylesheets } from '../../views/layout/bare-document.tsx';

/** A refused request as visitors see it: the simple error page, never stored by any cache. */
export function sendErrorPage(reply: FastifyReply, status: number, message: string, css: Stylesheets): FastifyReply {
  return reply.page(<SimpleErrorPage status={status} title={STATUS_CODES[status] ?? 'Error'} message={message} css={css} />,
    { status, cache: 'private' });
}
