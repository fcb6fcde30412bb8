/** The widget's props for a page, when the widget shows there (server/flags/ai-widget.ts). */
import type { FastifyRequest } from 'fastify';
import { aiWidgetShown, widgetAllowedAt } from '../flags/ai-widget.ts';
import type { Visitor } from '../../views/view-model.ts';
import { ANSWER_STRINGS } from '../../views/islands/assistant-answer.tsx';
import type { AssistantWidgetProps } from '../../views/islands/assistant-widget.tsx';
import type { AssistantSummaryProps } from '../../views/islands/assistant-summary.tsx';

export const WIDGET_STRINGS: AssistantWidgetProps['strings'] = {
  open: 'Ask the help centre',
  close: 'Close the assistant',
  title: 'Help centre assistant',
  label: 'Your question',
  submit: 'Ask',
  thinking: 'Looking through the help content…',
  failed: 'The assistant cannot answer right now.',
  openPage: 'Try the assistant page',
  answer: ANSWER_STRINGS,
};

export async function assistantWidgetOf(request: FastifyRequest, visitor: Visitor, path: string, partnerHost: boolean): Promise<AssistantWidgetProps | undefined> {
  // The assistant's own page has the form already.
  if (path === '/assistant') return undefined;
  const shown = await aiWidgetShown({ visitor, path, partnerHost }, request.flags);
  // Counted where the flag was asked (analytics: how often the experiment shows the widget).
  if (widgetAllowedAt({ visitor, path, partnerHost })) {
    request.server.analytics.record(request, { type: 'widget_evaluation', path, key: `ai-widget:${shown ? 'shown' : 'hidden'}` });
  }
  if (!shown) return undefined;
  return { pageHref: '/assistant', streamHref: '/assistant/stream', strings: WIDGET_STRINGS };
}

export const SUMMARY_STRINGS: AssistantSummaryProps['strings'] = {
  summary: 'AI summary of these results',
  read: 'Read the AI summary',
  thinking: 'Summarising the top results…',
  failed: 'The summary cannot be shown right now.',
  answer: ANSWER_STRINGS,
};

/** The summary dialog's props for a search term (server/assistant/routes.tsx serves both addresses). */
export function summaryPropsOf(term: string): AssistantSummaryProps {
  const q = new URLSearchParams({ q: term });
  return { pageHref: `/assistant/summary?${q}`, streamHref: `/assistant/summary/stream?${q}`, strings: SUMMARY_STRINGS };
}
