/** The widget's props for a page, when the widget shows there (server/flags/ai-widget.ts). */
import type { FastifyRequest } from 'fastify';
import { aiWidgetShown } from '../flags/ai-widget.ts';
import type { Visitor } from '../../views/view-model.ts';
import { ANSWER_STRINGS } from '../../views/islands/assistant-answer.tsx';
import type { AssistantWidgetProps } from '../../views/islands/assistant-widget.tsx';

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
  if (!(await aiWidgetShown({ visitor, path, partnerHost }, request.flags))) return undefined;
  return { pageHref: '/assistant', streamHref: '/assistant/stream', strings: WIDGET_STRINGS };
}
