/**
 * First-party analytics (spec §7, docs/ 'Analytics'): `app.analytics.record()` for the events the
 * server counts itself (page views here, searches, feedback, support requests and the widget where
 * they happen), POST /api/events for the island's, a batched writer, and the roll-up job. Nothing is
 * recorded for a request that says Do-Not-Track or Global Privacy Control, nor for an obvious bot; no
 * cookie is set, no IP address kept, and e-mail-like text is masked in every string stored.
 */
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Value } from 'typebox/value';
import type { Config } from '../config.ts';
import { isApiUrl } from '../http/http-error.ts';
import { maskEmails } from '../search/highlight.ts';
import { stringsFor } from '../../views/i18n/catalogue.tsx';
import type { EventType } from './catalogue.ts';
import { BatchSchema, MAX_BATCH_BYTES, MAX_BATCH_EVENTS, checkEvent, type Refusal, VISIT_ID } from './schemas.ts';
import { EventWriter, type EventRow, type WriterOptions } from './store.ts';
import { rollUp } from './rollup.ts';
import { NetworkAllowance } from './allowance.ts';
import { HttpError } from '../http/http-error.ts';
import { findString } from '../plugins/request-guard.ts';

export const EVENTS_PATH = '/api/events';

/** How far a browser's clock may be from the server's: an event's time is kept within this window. */
export const CLOCK_WINDOW_MS = 60 * 60 * 1000;
/** How often the roll-up and retention job runs. */
const ROLLUP_EVERY_MS = 60 * 60 * 1000;
const ROLLUP_FIRST_MS = 60 * 1000;

/** User agents that announce themselves as robots, crawlers or scripts. */
const BOT = /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|embedly|preview|monitor|curl\/|wget\/|python-|httpclient|java\/|go-http|axios|node-fetch|lighthouse|pingdom|uptime/i;

export interface ServerEvent {
  type: EventType;
  path: string;
  entryId?: string | null;
  product?: string;
  term?: string;
  queryId?: string | null;
  key?: string;
  value?: number | null;
  data?: Record<string, unknown>;
  /** The visit, when the page's analytics script told it (a form it added it to); checked as the script's ids are. */
  sessionId?: string | null;
}

export interface SearchOutcome {
  queryId: string;
  pagination: { total: number };
  metadata: { query: { rewrittenQuery: string | null } };
}

/** Searches remembered by query id: a results page answered from the page cache counts its search again. */
const REMEMBERED_SEARCHES = 2000;

export interface Analytics {
  readonly enabled: boolean;
  /** Counts a search (and its spelling rewrite) for this request. */
  search(request: FastifyRequest, path: string, term: string, response: SearchOutcome, exact: boolean): void;
  /** Whether anything may be recorded for this request (analytics on, no DNT/GPC, not a bot). */
  counts(request: FastifyRequest): boolean;
  /** Counts a server-side event for this request, when it may be recorded. */
  record(request: FastifyRequest, event: ServerEvent): void;
  readonly writer: EventWriter;
  /** ANALYTICS_RATE_LIMIT's counts per client network (tests flush it). */
  readonly allowance: NetworkAllowance;
  /** Rolls complete days up and applies the retention (the periodic job; tests call it with a fixed time). */
  rollUp(now?: Date): ReturnType<typeof rollUp>;
}

declare module 'fastify' {
  interface FastifyInstance {
    analytics: Analytics;
  }
}

/** The visitor asked not to be tracked: Do-Not-Track or Global Privacy Control. */
export function optedOut(headers: FastifyRequest['headers']): boolean {
  return headers.dnt === '1' || headers['sec-gpc'] === '1';
}

export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOT.test(userAgent);
}

/** A string as stored: e-mail-like text masked, cut to `max` characters. */
export function clean(text: string | undefined, max = 500): string {
  return text === undefined ? '' : maskEmails(text).slice(0, max);
}

/** A page's path as stored: no query or fragment, e-mail-like text masked. */
export function cleanPath(path: string): string {
  return clean(path.split(/[?#]/)[0] ?? '', 500);
}

function cleanData(data: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(data ?? {})) out[clean(name, 40)] = typeof value === 'string' ? clean(value, 200) : value;
  return out;
}

export interface EventsOptions {
  config: Pick<Config, 'analytics' | 'analyticsRetentionDays' | 'analyticsRateLimit' | 'identityUrl'>;
  clock?: (() => number) | undefined;
  writer?: WriterOptions;
}

async function events(app: FastifyInstance, opts: EventsOptions) {
  const { config } = opts;
  const now = opts.clock ?? Date.now;
  const writer = new EventWriter(() => app.db, app.log as FastifyBaseLogger, opts.writer);
  const searched = new WeakSet<FastifyRequest>();
  const remembered = new Map<string, ServerEvent[]>();
  const allowance = new NetworkAllowance(() => app.db, app.log as FastifyBaseLogger, { max: config.analyticsRateLimit, clock: now });
  const counts = (request: FastifyRequest) => config.analytics && !optedOut(request.headers) && !isBot(request.headers['user-agent']);

  const analytics: Analytics = {
    enabled: config.analytics,
    counts,
    writer,
    allowance,
    record(request, event) {
      if (!counts(request)) return;
      writer.record({
        occurredAt: new Date(now()), type: event.type, source: 'server', path: cleanPath(event.path),
        sessionId: event.sessionId && VISIT_ID.test(event.sessionId) ? event.sessionId : null,
        entryId: event.entryId ?? null, product: clean(event.product, 200), term: clean(event.term, 200),
        queryId: event.queryId ?? null, key: clean(event.key, 200), value: event.value ?? null, data: cleanData(event.data),
      });
    },
    search(request, path, term, response, exact) {
      searched.add(request);
      const total = response.pagination.total;
      const events: ServerEvent[] = [{ type: 'search', path, term, queryId: response.queryId, key: total > 0 ? 'results' : 'no_results', value: total }];
      const rewritten = response.metadata.query.rewrittenQuery;
      if (rewritten) events.push({ type: 'spelling_rewrite', path, term, queryId: response.queryId, key: 'shown', data: { rewritten } });
      else if (exact) events.push({ type: 'spelling_rewrite', path, term, queryId: response.queryId, key: 'declined' });
      for (const event of events) analytics.record(request, event);
      remembered.set(response.queryId, events);
      if (remembered.size > REMEMBERED_SEARCHES) remembered.delete(remembered.keys().next().value as string);
    },
    rollUp: (at = new Date(now())) => rollUp(app.db, { now: at, retentionDays: config.analyticsRetentionDays }),
  };
  app.decorate('analytics', analytics);

  // Page views, counted as the page goes out (also from the page cache): successful HTML GETs only, a
  // 304 included. Pages are revalidated on every use (render.ts), so a repeated view within minutes
  // reaches the server as a 304 and counts too, with scripts or without, behind a shared cache as well.
  const excluded = (path: string) => isApiUrl(path) || path.startsWith('/assets/') || path.startsWith('/health')
    || path.startsWith('/preview') || path === config.identityUrl || path.startsWith(`${config.identityUrl}/`);
  app.addHook('onResponse', async (request, reply) => {
    if (request.method !== 'GET' || (reply.statusCode !== 200 && reply.statusCode !== 304) || !config.analytics) return;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return;
    // A results page from the page cache: its search, as counted when the page was made.
    const queryId = reply.getHeader('x-query-id');
    if (typeof queryId === 'string' && !searched.has(request)) {
      for (const event of remembered.get(queryId) ?? []) analytics.record(request, event);
    }
    // An htmx region (a filter or page of results) is not a page view.
    if (request.headers['hx-request'] === 'true') return;
    const path = (request.originalUrl ?? request.url).split(/[?#]/)[0] ?? '/';
    if (excluded(path)) return;
    // The locale prefix: a first segment that names a page language other than the default one.
    const segment = /^\/([a-z]{2})(?:\/|$)/.exec(path)?.[1];
    const locale = segment && segment !== 'en' && stringsFor(segment) !== stringsFor('en') ? segment : '';
    analytics.record(request, { type: 'page_view', path, key: locale });
  });

  // The island's batches: JSON, or text/plain (what sendBeacon sends), in a scope of their own where
  // text/plain is parsed as JSON by the JSON parser. So both are the same object by the time the request
  // guard looks at bodies (a NUL written "\u0000" in the JSON text is a NUL in a field either way).
  await app.register(async (scope) => {
    const json = scope.getDefaultJsonParser('error', 'error');
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('text/plain', { parseAs: 'string' }, (request, text, done) => {
      json(request, text.toString(), (error, parsed) => {
        // A raw NUL is no JSON either; it is named, as the request guard names it in other bodies.
        if (error) done(new HttpError(400, 'FST_ERR_VALIDATION', text.includes('\u0000') ? 'body: must not contain a NUL character' : 'body: not JSON'), undefined);
        else done(null, parsed);
      });
    });
    // Under overload a batch is shed before any page render: counts matter less than readers, and the
    // client keeps nothing waiting on the answer (a beacon's is never read, a fetch's failure is logged).
    scope.post(EVENTS_PATH, {
      bodyLimit: MAX_BATCH_BYTES, config: { expensive: true },
      schema: {
        tags: ['analytics'], summary: 'Record a batch of analytics events',
        description: `What the analytics script sends (as JSON, or as text/plain holding JSON, as \`navigator.sendBeacon\` sends it): \`{sessionId?, persistentId?, events: [{type, at?, path, key?, value?, term?, queryId?, data?}]}\`, at most ${MAX_BATCH_EVENTS} events and ${MAX_BATCH_BYTES / 1024} KB. 202 with how many were accepted and why others were refused (each by index, reason and field); 204 when the visitor is not counted (Do-Not-Track, Global Privacy Control, a bot, analytics off); 400 for a body that is not a batch. Only the event types the script records are accepted (see the analytics page).`,
      },
    }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!counts(request)) return reply.code(204).send();
      const body: unknown = request.body;
      // PostgreSQL refuses a lone surrogate in jsonb (and text would keep U+FFFD in its place).
      const unpaired = findLoneSurrogate(body, 'body');
      if (unpaired) return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: `${unpaired}: must not contain a lone surrogate (not well-formed Unicode)` });
      const [problem] = Value.Errors(BatchSchema, body);
      if (problem) {
        const field = problem.instancePath.slice(1) || 'body';
        return reply.code(400).send({ statusCode: 400, error: 'Bad Request', message: `${field}: ${problem.message}` });
      }
      const batch = body as { sessionId?: string; persistentId?: string; events: unknown[] };
      const refused: Partial<Record<Refusal | 'buffer_full' | 'rate_limited', number>> = {};
      const problems: { index: number; reason: string; field?: string; message: string }[] = [];
      let accepted = 0;
      const at = now();
      // What this client's network (its /24, or IPv6 /64) may still send this minute; the rest of the batch
      // is refused and counted. The secrets plugin registers after this one: its key is looked up per request.
      const allowed = await allowance.take(app.visitorIds.networkKey(request.ip, 64), batch.events.length);
      if (allowed < batch.events.length) refused.rate_limited = batch.events.length - allowed;
      batch.events.slice(0, allowed).forEach((raw, index) => {
        const checked = checkEvent(raw);
        if (!checked.ok) {
          refused[checked.reason] = (refused[checked.reason] ?? 0) + 1;
          if (problems.length < 10) problems.push({ index, reason: checked.reason, message: checked.message, ...(checked.field ? { field: checked.field } : {}) });
          return;
        }
        const e = checked.event;
        const row: EventRow = {
          // The browser's clock, kept within the server's window.
          occurredAt: new Date(Math.min(at, Math.max(at - CLOCK_WINDOW_MS, e.at ?? at))),
          type: e.type, source: 'client', sessionId: batch.sessionId ?? null, persistentId: batch.persistentId ?? null,
          path: cleanPath(e.path), term: clean(e.term, 200), queryId: e.queryId ?? null, key: clean(e.key, 200),
          value: e.value ?? null, data: cleanData(e.data),
        };
        if (writer.record(row)) accepted += 1;
        else refused.buffer_full = (refused.buffer_full ?? 0) + 1;
      });
      return reply.code(202).send({ accepted, refused, ...(problems.length > 0 ? { problems } : {}) });
    });
  });

  // Roll-up and retention, every hour on every instance (the work is idempotent).
  let timer: NodeJS.Timeout | undefined;
  let first: NodeJS.Timeout | undefined;
  if (config.analytics) {
    const run = () => analytics.rollUp().catch((error: unknown) => app.log.warn({ err: error }, 'analytics roll-up failed'));
    app.addHook('onReady', async () => {
      // A minute after start (a restart does not wait an hour for it), then every hour.
      first = setTimeout(run, ROLLUP_FIRST_MS);
      first.unref();
      timer = setInterval(run, ROLLUP_EVERY_MS);
      timer.unref();
    });
  }
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    if (first) clearTimeout(first);
    await allowance.close();
    await writer.close();
  });
}

export default fp(events, { name: 'signpost-events', dependencies: ['db'] });

/** In Unicode mode a surrogate pair is one code point: what matches stands alone. */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATE_ALL = /\p{Cs}/gu;

/** A string (value or key) holding a lone surrogate, as `body/events/0/data/x`. */
export function findLoneSurrogate(value: unknown, root: string): string | undefined {
  return findString(value, root, (s) => LONE_SURROGATE.test(s), (key) => key.replace(LONE_SURROGATE_ALL, '\uFFFD'));
}
