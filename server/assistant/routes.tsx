/**
 * The assistant's routes (issue 16): /assistant, the page that works without JavaScript (a GET
 * form and the server-rendered, cited answer), and /assistant/stream, the same answer as
 * server-sent events for the widget and the summary dialog (`text` pieces while a model streams,
 * `reset` when its answer is abandoned for the passages, then one `answer` with the whole answer).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { DatabaseUnavailableError } from '../db/unavailable.ts';
import { HttpError } from '../http/http-error.ts';
import { buildChrome } from '../pages/chrome.ts';
import { maskEmails } from '../search/highlight.ts';
import type { AnswerView } from '../../views/islands/assistant-answer.tsx';
import { AssistantPage } from '../../views/pages/assistant-page.tsx';
import { answer, MAX_QUESTION, type Answer } from './answer.ts';
import { assistantAccess, summaryAccess, type AssistantAccess } from './access.ts';
import type { ModelConfig } from './generate.ts';

export type AssistantConfig = Pick<Config, 'publicUrl' | 'identityUrl' | 'staffDomain' | 'partnerHosts'
  | 'aiBaseUrl' | 'aiModel' | 'aiApiKey' | 'aiTimeoutMs'>;

export const ASSISTANT_PATH = '/assistant';
export const SUMMARY_PATH = '/assistant/summary';

const NOTICES: Record<NonNullable<Answer['notice']>, string> = {
  slow: 'The AI model took too long to answer, so here are the most relevant passages from the help content.',
  unavailable: 'The AI model is unavailable right now, so here are the most relevant passages from the help content.',
  failed: 'The AI model could not answer, so here are the most relevant passages from the help content.',
};
const FAILED = 'The assistant cannot answer right now. Please try again in a moment, or search the help content.';

/** The model the operator configured, if any: nothing is sent anywhere without one. */
export function modelOf(config: AssistantConfig): ModelConfig | undefined {
  return config.aiBaseUrl && config.aiModel
    ? { baseUrl: config.aiBaseUrl, model: config.aiModel, apiKey: config.aiApiKey, timeoutMs: config.aiTimeoutMs }
    : undefined;
}

export function answerView(a: Answer): AnswerView {
  return { question: a.question, mode: a.mode, text: a.text, citations: a.citations,
    notice: a.notice ? NOTICES[a.notice] : undefined, contactHref: a.contactHref };
}

const QuerySchema = {
  type: 'object',
  additionalProperties: true,
  properties: { q: { type: 'string', maxLength: MAX_QUESTION * 4 } },
} as const;

type AskRequest = FastifyRequest<{ Querystring: { q?: string } }>;

export default async function assistantRoutes(app: FastifyInstance, opts: { config: AssistantConfig }) {
  const { config } = opts;
  const model = modelOf(config);

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
  const routes = (path: string, title: string, access: (request: AskRequest) => Promise<AssistantAccess>) => {
    app.get<{ Querystring: { q?: string } }>(path, { schema: { querystring: QuerySchema } }, async (request, reply) => {
      if (!(await admit(request, reply, await access(request), path))) return reply;
      const question = (request.query.q ?? '').trim();
      let view: AnswerView | null = null;
      let error: string | undefined;
      if (question) {
        try {
          view = answerView(await answer(app.db, question, { model, log: request.log }));
        } catch (err) {
          if (err instanceof DatabaseUnavailableError) throw err;
          request.log.error({ err, question: maskEmails(question) }, 'assistant failed');
          error = FAILED;
        }
      }
      const chrome = await buildChrome(app, request, config, {
        title, path, language: 'en-US', preview: false,
      });
      return reply.page(<AssistantPage chrome={chrome} title={title} action={path} question={question} answer={view} error={error} />,
        { status: error ? 503 : 200, cache: 'private' });
    });

    app.get<{ Querystring: { q?: string } }>(`${path}/stream`, { schema: { querystring: QuerySchema } }, async (request, reply) => {
      if (!(await admit(request, reply, await access(request), path))) return reply;
      const question = (request.query.q ?? '').trim();
      if (!question) throw new HttpError(400, 'BAD_REQUEST', 'q: ask a question (the q parameter is empty)');
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
        const a = await answer(app.db, question, {
          model, log: request.log, signal: abort.signal,
          onText: (piece) => send('text', piece), onFallback: () => send('reset', null),
        });
        send('answer', answerView(a));
      } catch (err) {
        request.log.error({ err, question: maskEmails(question) }, 'assistant failed');
        send('failed', { message: FAILED });
      }
      out.end();
    });
  };
  routes(ASSISTANT_PATH, 'Ask the help centre', (request) => assistantAccess(app, request, config));
  routes(SUMMARY_PATH, 'AI summary of search results', (request) => summaryAccess(app, request, config));
}
