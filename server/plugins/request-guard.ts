import fp from 'fastify-plugin';
import type { FastifyRequest, RouteOptions } from 'fastify';
import { isMalformedPath } from '../http/bad-url.ts';
import { HttpError } from '../http/http-error.ts';

const NUL = '\u0000';
const nulError = (where: string) => new HttpError(400, 'FST_ERR_VALIDATION', `${where}: must not contain a NUL character`);

/**
 * The first string (value or key) that `bad` finds wrong, as `body/a/0/b`; iterative, so a deeply
 * nested body cannot exhaust the stack. A key is shown through `show`, which makes it printable.
 */
export function findString(value: unknown, root: string, bad: (s: string) => boolean, show: (key: string) => string): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [v, where] = stack.pop() as [unknown, string];
    if (typeof v === 'string') {
      if (bad(v)) return where;
    } else if (v !== null && typeof v === 'object') {
      for (const [key, child] of Object.entries(v)) {
        if (bad(key)) return `${where}/${show(key)}`;
        stack.push([child, `${where}/${key}`]);
      }
    }
  }
  return undefined;
}

/** A string value or key holding a NUL, as `body/a/0/b`. */
export function findNul(value: unknown, root: string): string | undefined {
  return findString(value, root, (s) => s.includes(NUL), (key) => key.replaceAll(NUL, '\\0'));
}

/**
 * A number that is not finite, as `querystring/page`: a route schema's integer or number coerces
 * `Infinity` or `1e309` from a query string to Infinity and Ajv's minimum and maximum skip it, so
 * `?page=Infinity` would reach the database (issue 25 item 5). Iterative, like findNul.
 */
export function findNonFinite(value: unknown, root: string): string | undefined {
  const stack: [unknown, string][] = [[value, root]];
  while (stack.length > 0) {
    const [v, where] = stack.pop() as [unknown, string];
    if (typeof v === 'number' && !Number.isFinite(v)) return where;
    if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [key, child] of Object.entries(v)) stack.push([child, `${where}/${key}`]);
    }
  }
  return undefined;
}

/** Path, then query: the first part holding a NUL (raw or %00), named as the visitor wrote it. */
function nulInUrl(request: FastifyRequest): string | undefined {
  const url = request.originalUrl ?? request.url;
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  if (decodeURIComponent(path).includes(NUL)) return 'path';
  for (const [key, value] of Object.entries((request.query ?? {}) as Record<string, unknown>)) {
    if (key.includes(NUL)) return 'query';
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.includes(NUL))) return key;
  }
  return undefined;
}

/** A route pattern (`/preview/:id`, `/*`) as a matcher of request paths. */
function matcherOf(url: string): RegExp {
  const source = url.split('/').map((part) => part === '*' ? '.*' : part.startsWith(':') ? '[^/]+'
    : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\*$/, '.*')).join('/');
  return new RegExp(`^${source}$`);
}

/**
 * Input no route should ever see (DESIGN 'Safety by construction': bad input is a 400 naming what is
 * wrong, never a 500): a malformed percent-encoding in the path, a NUL character anywhere (PostgreSQL
 * text cannot hold one), and a method the path does not have (405 with `Allow`, not the HTML 404).
 */
export default fp(async (app) => {
  const routes: { method: string; url: string; match: RegExp }[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, match: matcherOf(route.url) });
  });

  /** The methods some route answers at this path (only routes written for exactly this path, with `exact`). */
  const allowed = (path: string, exact = false) => [...new Set(routes
    .filter((r) => (exact ? r.url === path && !/[:*]/.test(r.url) : r.match.test(path))).map((r) => r.method))].sort();

  // The pages' catch-all answers GET anywhere: where it finds no page at a path that has a route of its
  // own (POST /feedback), it asks this which methods that path has.
  app.decorate('methodsAt', (path: string) => allowed(path, true));

  app.addHook('onRequest', async (request) => {
    if (isMalformedPath(request.raw)) throw new HttpError(400, 'FST_ERR_VALIDATION', 'path: malformed percent-encoding');
    const nul = nulInUrl(request);
    if (nul) throw nulError(nul);
    if (request.is404) {
      const path = (request.originalUrl ?? request.url).split('?')[0] ?? '/';
      const methods = allowed(path);
      if (methods.length > 0 && !methods.includes(request.method)) {
        throw new HttpError(405, 'METHOD_NOT_ALLOWED', `${request.method} is not allowed here; use ${methods.join(' or ')}`, { allow: methods.join(', ') });
      }
    }
  });

  // Bodies are checked once parsed, whatever their type (JSON, form, text).
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined) return;
    const where = findNul(request.body, 'body');
    if (where) throw nulError(where);
  });

  // After each route's schema has validated (and coerced) its input: a 400 naming the parameter.
  app.addHook('preHandler', async (request) => {
    const where = findNonFinite(request.query, 'querystring') ?? findNonFinite(request.params, 'params') ?? findNonFinite(request.body, 'body');
    if (where) throw new HttpError(400, 'FST_ERR_VALIDATION', `${where} must be a finite number`);
  });
}, { name: 'request-guard' });

declare module 'fastify' {
  interface FastifyInstance {
    /** The methods routes written for exactly this path answer (no parameters, no wildcard). */
    methodsAt(path: string): string[];
  }
}
