/** The widget's and the summary dialog's props for a page, in the page's language (server/flags/ai-widget.ts decides where). */
import type { FastifyRequest } from 'fastify';
import { aiWidgetShown, widgetAllowedAt } from '../flags/ai-widget.ts';
import type { Visitor } from '../../views/view-model.ts';
import { stringsFor } from '../../views/i18n/catalogue.tsx';
import type { AssistantWidgetProps } from '../../views/islands/assistant-widget.tsx';
import type { AssistantSummaryProps } from '../../views/islands/assistant-summary.tsx';

/** The languages the assistant's page and stream speak: the catalogue's, English by default. */
export const ASSISTANT_LANGUAGES = ['en', 'ja'] as const;
export type AssistantLanguage = (typeof ASSISTANT_LANGUAGES)[number];

export function assistantLanguage(lang: string | undefined): AssistantLanguage {
  return lang === 'ja' ? 'ja' : 'en';
}

/** `?q=…` plus `lang` when not English, so the page and the stream answer in the page's language. */
function query(params: Record<string, string>, lang: AssistantLanguage): string {
  const q = new URLSearchParams(params);
  if (lang !== 'en') q.set('lang', lang);
  const s = q.toString();
  return s ? `?${s}` : '';
}

export async function assistantWidgetOf(request: FastifyRequest, visitor: Visitor, path: string, partnerHost: boolean,
  lang: AssistantLanguage = 'en'): Promise<AssistantWidgetProps | undefined> {
  // The assistant's own page has the form already.
  if (path === '/assistant') return undefined;
  const shown = await aiWidgetShown({ visitor, path, partnerHost }, request.flags);
  // Counted where the flag was asked (analytics: how often the experiment shows the widget).
  if (widgetAllowedAt({ visitor, path, partnerHost })) {
    request.server.analytics.record(request, { type: 'widget_evaluation', path, key: `ai-widget:${shown ? 'shown' : 'hidden'}` });
  }
  if (!shown) return undefined;
  const s = stringsFor(lang).assistant;
  return {
    pageHref: `/assistant${query({}, lang)}`, streamHref: `/assistant/stream${query({}, lang)}`,
    ...(lang === 'en' ? {} : { lang }),
    strings: { ...s.widget, answer: s.answer },
  };
}

/** The summary dialog's props for a search term (server/assistant/routes.tsx serves both addresses). */
export function summaryPropsOf(term: string, lang: AssistantLanguage = 'en'): AssistantSummaryProps {
  const s = stringsFor(lang).assistant;
  return {
    pageHref: `/assistant/summary${query({ q: term }, lang)}`, streamHref: `/assistant/summary/stream${query({ q: term }, lang)}`,
    strings: { ...s.summary, answer: s.answer },
  };
}
