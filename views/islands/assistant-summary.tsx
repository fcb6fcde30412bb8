import type { SyntheticEvent } from 'react';
import { useHydrated } from './use-hydrated.ts';
import { AssistantAnswer, type AnswerStrings } from './assistant-answer.tsx';
import { useAnswerStream } from './assistant-stream.ts';

export interface AssistantSummaryProps {
  /** The summary as a page, for the search term: what works without JavaScript. */
  pageHref: string;
  /** The same summary streamed (server-sent events). */
  streamHref: string;
  strings: { summary: string; read: string; thinking: string; failed: string; answer: AnswerStrings };
}

/**
 * The AI summary dialog of the results page (spec §4): a disclosure above the results. Without
 * JavaScript it holds a link to the summary's page; hydrated, opening it streams the summary of the
 * top results, with citations, into it (a polite live region), the link staying as the fallback.
 */
export function AssistantSummary({ pageHref, streamHref, strings }: AssistantSummaryProps) {
  const hydrated = useHydrated();
  const [state, stream] = useAnswerStream();
  const toggled = (event: SyntheticEvent<HTMLDetailsElement>) => {
    if (event.currentTarget.open && state.kind === 'idle') stream(streamHref);
  };
  return (
    <details className="ai-summary" onToggle={hydrated ? toggled : undefined}>
      <summary>{strings.summary}</summary>
      {hydrated ? (
        <div className="ai-summary-body" aria-live="polite" aria-busy={state.kind === 'streaming'}>
          {state.kind === 'streaming' ? <p>{state.text || strings.thinking}</p> : null}
          {state.kind === 'done' ? <AssistantAnswer answer={state.answer} strings={strings.answer} headingLevel={3} /> : null}
          {state.kind === 'failed' ? <p>{strings.failed} <a href={pageHref}>{strings.read}</a></p> : null}
        </div>
      ) : <p><a href={pageHref}>{strings.read}</a></p>}
    </details>
  );
}
