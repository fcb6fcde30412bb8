import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useAnswerStream } from './assistant-stream.ts';
import { useHydrated } from './use-hydrated.ts';
import { AssistantAnswer, type AnswerStrings } from './assistant-answer.tsx';

export interface AssistantWidgetProps {
  /** The assistant's page: the widget's link without JavaScript, and its fallback. */
  pageHref: string;
  /** Where answers stream from (server-sent events). */
  streamHref: string;
  /** The page's language when not English: the page and the stream answer in it. */
  lang?: string | undefined;
  strings: {
    open: string;
    close: string;
    title: string;
    label: string;
    submit: string;
    thinking: string;
    failed: string;
    openPage: string;
    answer: AnswerStrings;
  };
}

/**
 * The AI assistant widget (spec §4 'AI widget'). Without JavaScript, and before hydration, it is a
 * link to the assistant's page. Hydrated, a button opens a panel with the question form; the answer
 * streams in over server-sent events (the generated text as it comes, then the cited answer) into a
 * polite live region. Escape closes the panel and returns focus to the button.
 */
export function AssistantWidget({ pageHref, streamHref, lang, strings }: AssistantWidgetProps) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const [state, stream] = useAnswerStream();
  const input = useRef<HTMLInputElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  // Before hydration the link opens the assistant's page; its first click (data-replay) waits for the
  // island and opens the panel instead (islands/main.ts).
  if (!hydrated) {
    return <aside className="assistant-widget" aria-label={strings.title}><a className="assistant-widget-toggle" href={pageHref} data-replay="assistant-widget-toggle">{strings.open}</a></aside>;
  }

  const ask = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const question = input.current?.value.trim() ?? '';
    if (!question) return;
    stream(`${streamHref}${streamHref.includes('?') ? '&' : '?'}${new URLSearchParams({ q: question })}`);
  };

  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  return (
    <aside className="assistant-widget" aria-label={strings.title}
      onKeyDown={(e) => { if (e.key === 'Escape' && open) close(); }}>
      <button ref={toggle} type="button" className="assistant-widget-toggle" data-replay="assistant-widget-toggle" aria-expanded={open} aria-controls="assistant-widget-panel"
        onClick={() => (open ? close() : setOpen(true))}>
        {open ? strings.close : strings.open}
      </button>
      <div id="assistant-widget-panel" className="assistant-widget-panel" hidden={!open}>
        <form className="assistant-form" action={pageHref.split('?')[0]} method="get" onSubmit={ask}>
          {lang ? <input type="hidden" name="lang" value={lang} /> : null}
          <label htmlFor="assistant-widget-question">{strings.label}</label>
          <input ref={input} id="assistant-widget-question" name="q" type="text" maxLength={500} required />
          <button type="submit">{strings.submit}</button>
        </form>
        <div className="assistant-widget-answer" aria-live="polite" aria-busy={state.kind === 'streaming'}>
          {state.kind === 'streaming' ? <p>{state.text || strings.thinking}</p> : null}
          {state.kind === 'done' ? <AssistantAnswer answer={state.answer} strings={strings.answer} headingLevel={2} /> : null}
          {state.kind === 'failed' ? <p>{strings.failed} <a href={pageHref}>{strings.openPage}</a></p> : null}
        </div>
      </div>
    </aside>
  );
}
