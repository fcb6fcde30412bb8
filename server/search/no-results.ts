/**
 * What a search without results offers instead (issue 30 'No dead ends'): the spelling suggestion
 * when the corrected search finds something, the assistant's answer to the same words for whoever
 * may ask the assistant, and the contact form with the search filled in. Each is a plain link or
 * server-rendered text, so the page leads on with scripts and without.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { answer, contactHrefOf } from '../assistant/answer.ts';
import { answerView } from '../assistant/routes.tsx';
import { assistantLanguage } from '../assistant/widget.ts';
import { aiSummaryDialog } from '../flags/features.ts';
import { cachedSearch } from './cached.ts';
import { spellingSuggestion } from './engine.ts';
import { maskEmails } from './highlight.ts';
import { hrefOf, requestFor, reset } from './page-state.ts';
import type { Chrome, NoResultsWays, SearchState } from '../../views/view-model.ts';

/** The assistant's answer here is short: its best passage and the page it cites. */
const ANSWER_CITATIONS = 1;

export async function noResultsWays(app: FastifyInstance, request: FastifyRequest, chrome: Chrome, state: SearchState): Promise<NoResultsWays> {
  // Neither is needed for the page to say there are no results: a failure leaves it out, never the page.
  const [suggestion, answered] = await Promise.all([
    suggestionOf(app, request, state).catch((err: unknown) => left(request, state, 'spelling suggestion', err)),
    answerOf(app, request, chrome, state.searchTerm).catch((err: unknown) => left(request, state, 'assistant answer', err)),
  ]);
  return { suggestion, answer: answered, contactHref: contactHrefOf(state.searchTerm, state.searchTerm) };
}

function left(request: FastifyRequest, state: SearchState, what: string, err: unknown): undefined {
  request.log.warn({ err, term: maskEmails(state.searchTerm) }, `no-results page: ${what} left out`);
  return undefined;
}

/**
 * The corrected words, linked to the search the visitor would get by following the link (the same
 * cached search, so following it costs nothing more): with the filters kept when that finds
 * something, else with them reset. A suggestion that finds nothing either way is not offered.
 */
async function suggestionOf(app: FastifyInstance, request: FastifyRequest, state: SearchState): Promise<NoResultsWays['suggestion']> {
  const term = await app.content.cachedSearch(JSON.stringify(['suggestion', state.searchTerm]),
    () => app.searchGate.run(() => spellingSuggestion(app.dbRead, state.searchTerm)));
  if (!term) return undefined;
  const kept = { ...state, searchTerm: term, page: 1 };
  const unfiltered = reset(kept);
  for (const candidate of hrefOf(unfiltered) === hrefOf(kept) ? [kept] : [kept, unfiltered]) {
    const found = await cachedSearch(app, request.log, requestFor(candidate), { probe: true });
    if (found.pagination.total > 0) return { term, href: hrefOf(candidate) };
  }
  return undefined;
}

/**
 * Whoever may ask the assistant here (its widget shows on this page, or the results' AI summary is on
 * for the account) gets its answer to the same words: the extractive answer, never a model call, so
 * the page takes no longer than a search; 'nothing found' is not shown (the contact link is there).
 */
async function answerOf(app: FastifyInstance, request: FastifyRequest, chrome: Chrome, term: string): Promise<NoResultsWays['answer']> {
  if (!chrome.assistant && !(await aiSummaryDialog(request.flags, chrome.visitor))) return undefined;
  const lang = assistantLanguage(chrome.lang);
  const found = await app.content.cachedSearch(JSON.stringify(['answer', term, lang]),
    () => answer(app.dbRead, term, { language: lang, limit: ANSWER_CITATIONS, searches: app.searchGate, memo: app.content.cachedSearch.bind(app.content), log: request.log }));
  return found.mode === 'nothing' ? undefined : answerView(found, lang);
}
