/**
 * The assistant's routes (issue 16): /assistant, the page that works without JavaScript (a GET
 * form and the server-rendered, cited answer), and /assistant/stream, the same answer as
 * server-sent events for the widget and the summary dialog (`text` pieces while a model streams,
 * `reset` when its answer is abandoned for the passages, then one `answer` with the whole answer).
 * Every question counts against its account's and its network's hourly limits (429 past them, before
 * any retrieval or model call), and model calls at once are bounded per instance (issue 25 item 8).
 * Passages are published content, read like search from a replica when one is fit (app.dbRead); the
 * question counters stay on the primary.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { DatabaseUnavailableError } from '../db/unavailable.ts';
import { Gate, Overloaded } from '../http/gate.ts';
import { HttpError } from '../http/http-error.ts';
import { databaseStore } from '../plugins/rate-limit.ts';
import { buildChrome } from '../pages/chrome.ts';
import { maskEmails } from '../search/highlight.ts';
import type { AnswerView } from '../../views/islands/assistant-answer.tsx';
import { AssistantPage } from '../../views/pages/assistant-page.tsx';
import { answer, MAX_QUESTION, type Answer } from './answer.ts';
import { assistantAccess, summaryAccess, type AssistantAccess } from './access.ts';
import type { ModelConfig } from './generate.ts';
import { assistantLanguage, ASSISTANT_LANGUAGES, type AssistantLanguage } from './widget.ts';
import { stringsFor } from '../../views/i18n/catalogue.tsx';

export type AssistantConfig = Pick<Config, 'publicUrl' | 'identityUrl' | 'staffDomain' | 'partnerHosts'
  | 'aiBaseUrl' | 'aiModel' | 'aiApiKey' | 'aiTimeoutMs' | 'aiMaxConcurrent' | 'assistantRateLimit' | 'assistantNetworkRateLimit'>;

export const ASSISTANT_PATH = '/assistant';
export const SUMMARY_PATH = '/assistant/summary';
const HOUR_MS = 3_600_000;


/** The model the operator configured, if any: nothing is sent anywhere without one. */
export function modelOf(config: AssistantConfig): ModelConfig | undefined {
  return config.aiBaseUrl && config.aiModel
    ? { baseUrl: config.aiBaseUrl, model: config.aiModel, apiKey: config.aiApiKey, timeoutMs: config.aiTimeoutMs }
    : undefined;
}

export function answerView(a: Answer, lang: AssistantLanguage = 'en'): AnswerView {
  return { question: a.question, mode: a.mode, text: a.text, citations: a.citations,
    notice: a.notice ? stringsFor(lang).assistant.notices[a.notice] : undefined, contactHref: a.contactHref, searchHref: a.searchHref };
}

const QuerySchema = {
  type: 'object',
  additionalProperties: true,
  properties: {
    q: { type: 'string', maxLength: MAX_QUESTION * 4 },
    lang: { type: 'string', enum: ASSISTANT_LANGUAGES },
  },
} as const;

type AskQuery = { q?: string; lang?: AssistantLanguage };
type AskRequest = FastifyRequest<{ Querystring: AskQuery }>;

export default async function assistantRoutes(app: FastifyInstance, opts: { config: AssistantConfig }) {
  const { config } = opts;
  const model = modelOf(config);
  // One bound for the instance, whichever way the question came in (page, stream, summary).
  const modelCalls = new Gate('model calls', { max: config.aiMaxConcurrent, queueMax: 0, timeoutMs: 1 });
  // The rate limiter's database counters (server/plugins/rate-limit.ts), so every instance counts together.
  const Counter = databaseStore(app.db, app.log);
  const counter = new Counter();
  const count = (key: string) => new Promise<{ current: number; ttl: number }>((resolve) => {
    counter.incr(key, (_error, result) => resolve(result ?? { current: 0, ttl: 0 }), HOUR_MS);
  });

  /**
   * Counts a question against ASSISTANT_RATE_LIMIT (its account) and ASSISTANT_NETWORK_RATE_LIMIT (its
   * client network: the /24 or /48 support forms count by), before anything is retrieved or generated.
   * Over either, the seconds until the earliest window ends; otherwise undefined.
   */
  async function overLimit(request: AskRequest): Promise<number | undefined> {
    const account = request.user?.sub;
    const [network, mine] = await Promise.all([
      count(`assistant:network:${app.visitorIds.networkKey(request.ip)}`),
      account ? count(`assistant:account:${account}`) : undefined,
    ]);
    const over = [
      ...(network.current > config.assistantNetworkRateLimit ? [network] : []),
      ...(mine && mine.current > config.assistantRateLimit ? [mine] : []),
    ];
    if (over.length === 0) return undefined;
    request.log.info({ by: over.map((c) => (c === network ? 'network' : 'account')) }, 'assistant question refused: rate limit');
    return Math.max(1, Math.ceil(Math.max(...over.map((c) => c.ttl)) / 1000));
  }
  const options = { model, modelCalls, searches: app.searchGate, memo: app.content.cachedSearch.bind(app.content) };

  /**
   * The answer as shown, counted: an `assistant_question` (answered or not, the question masked) whose id
   * the answer carries, so the analytics script can tie the visit's next pages to it (insights).
   */
  function counted(request: AskRequest, a: Answer, lang: AssistantLanguage, path: string): AnswerView {
    const id = randomUUID();
    app.analytics.record(request, {
      type: 'assistant_question', path, term: maskEmails(a.question), queryId: id,
      key: a.mode === 'nothing' ? 'unanswered' : 'answered', value: a.citations.length,
    });
    return { ...answerView(a, lang), id };
  }

  /** Refuses whoever may not ask: sign-in for visitors, 404 for everyone else. */
  async function admit(request: AskRequest, reply: FastifyReply, access: AssistantAccess, page: string): Promise<boolean> {
    if (access === 'allowed') return true;
    if (access === 'sign-in') {
      const here = `${config.publicUrl}${request.url.split('?')[0]?.endsWith('/stream') ? page : request.url}`;
      await reply.header('cache-control', 'private, no-store').redirect(`${config.identityUrl}/login?continue=${encodeURIComponent(here)}`, 303);
      return false;
    }
    throw new HttpError(404, 'NOT_FOUND', 'There is no page at this address.');
  }

  /** The page (`path`) and its stream (`path/stream`) of one way in: the assistant, or the results' summary. */
  const routes = (path: string, title: 'title' | 'summaryTitle', access: (request: AskRequest) => Promise<AssistantAccess>) => {
    // Its retrieval waits in the searches' queue and its model calls in the model's (AI_MAX_CONCURRENT).
    app.get<{ Querystring: AskQuery }>(path, { schema: { querystring: QuerySchema }, config: { ownQueue: true } }, async (request, reply) => {
      if (!(await admit(request, reply, await access(request), path))) return reply;
      const question = (request.query.q ?? '').trim();
      const lang = assistantLanguage(request.query.lang);
      const strings = stringsFor(lang).assistant;
      let view: AnswerView | null = null;
      let error: string | undefined;
      const wait = question ? await overLimit(request) : undefined;
      if (wait !== undefined) {
        error = strings.rateLimited(Math.ceil(wait / 60));
        reply.header('retry-after', String(wait));
      } else if (question) {
        try {
          view = counted(request, await answer(app.dbRead, question, { ...options, log: request.log }), lang, path);
        } catch (err) {
          if (err instanceof DatabaseUnavailableError || err instanceof Overloaded) throw err;
          request.log.error({ err, question: maskEmails(question) }, 'assistant failed');
          error = strings.failed;
        }
      }
      const chrome = await buildChrome(app, request, config, {
        title: strings.page[title], path, language: lang === 'ja' ? 'ja-JP' : 'en-US', preview: false,
      });
      return reply.page(<AssistantPage chrome={chrome} title={strings.page[title]} action={path} question={question} answer={view}
        error={error} lang={lang === 'en' ? undefined : lang} strings={{ ...strings.page, answer: strings.answer }} />,
        { status: wait !== undefined ? 429 : error ? 503 : 200, cache: 'private' });
    });

    app.get<{ Querystring: AskQuery }>(`${path}/stream`, {
      config: { ownQueue: true },
      schema: {
        querystring: QuerySchema, tags: ['assistant'],
        summary: path === ASSISTANT_PATH ? "The assistant's answer to a question, streamed" : "The results' AI summary of a search, streamed",
        description: 'Server-sent events (`text/event-stream`): `text` pieces while a configured model streams, `reset` when its answer is abandoned for the quoted passages, then one `answer` with the whole answer and its citations; `failed` with a message when it cannot answer. Who may ask is decided by the flags: a visitor is sent to sign in (303), anyone else not allowed gets 404. 429 with `Retry-After` past the hourly limits, 400 without a question.',
      },
    }, async (request, reply) => {
      if (!(await admit(request, reply, await access(request), path))) return reply;
      const question = (request.query.q ?? '').trim();
      const lang = assistantLanguage(request.query.lang);
      if (!question) throw new HttpError(400, 'BAD_REQUEST', 'q: ask a question (the q parameter is empty)');
      const wait = await overLimit(request);
      if (wait !== undefined) {
        // EventSource does not read a body that is not a 200: the widget says the assistant cannot
        // answer and links to the page, which says why; other clients read the event.
        return reply.code(429).header('retry-after', String(wait)).header('cache-control', 'private, no-store')
          .type('text/event-stream; charset=utf-8')
          .send(`event: failed\ndata: ${JSON.stringify({ message: stringsFor(lang).assistant.rateLimited(Math.ceil(wait / 60)), retryAfter: wait })}\n\n`);
      }
      const abort = new AbortController();
      request.raw.on('close', () => abort.abort());
      reply.hijack();
      const out = reply.raw;
      out.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'private, no-store',
        'x-content-type-options': 'nosniff', 'x-accel-buffering': 'no',
      });
      const send = (event: string, data: unknown) => {
        if (!out.destroyed) out.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      };
      try {
        const a = await answer(app.dbRead, question, {
          ...options, log: request.log, signal: abort.signal,
          onText: (piece) => send('text', piece), onFallback: () => send('reset', null),
        });
        send('answer', counted(request, a, lang, path));
      } catch (err) {
        request.log.error({ err, question: maskEmails(question) }, 'assistant failed');
        send('failed', { message: stringsFor(lang).assistant.failed });
      }
      out.end();
    });
  };
  routes(ASSISTANT_PATH, 'title', (request) => assistantAccess(app, request, config));
  routes(SUMMARY_PATH, 'summaryTitle', (request) => summaryAccess(app, request, config));
}
