import type { IncomingMessage } from 'node:http';

/** Set on a request whose path is not valid percent-encoded UTF-8; the request guard refuses it. */
export const MALFORMED_PATH = Symbol('signpost.malformedPath');

type Marked = IncomingMessage & { [MALFORMED_PATH]?: boolean };

/**
 * Fastify's `rewriteUrl`: a path that does not percent-decode (`/%`, `/%E0%A4%A`) would be answered by
 * the router itself, before any hook, without security headers. It is routed as `/` instead and marked,
 * so the app answers it like any bad input: a 400 naming the path, through the normal hooks.
 * The original URL stays in `request.originalUrl` (and in the log).
 */
export function rewriteUrl(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  try {
    decodeURIComponent(q < 0 ? url : url.slice(0, q));
    return url;
  } catch {
    (req as Marked)[MALFORMED_PATH] = true;
    return '/';
  }
}

export function isMalformedPath(req: IncomingMessage): boolean {
  return (req as Marked)[MALFORMED_PATH] === true;
}
