import type { Chrome } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { AssistantAnswer, type AnswerView } from '../islands/assistant-answer.tsx';

export interface AssistantPageModel {
  chrome: Chrome;
  /** The page's heading; the assistant's by default. */
  title?: string | undefined;
  /** Where the form asks (the assistant, or the results' summary). */
  action?: string | undefined;
  question: string;
  answer: AnswerView | null;
  /** Said when the question could not be answered at all (the search failed). */
  error?: string | undefined;
}

export const ASSISTANT_PAGE_STRINGS = {
  title: 'Ask the help centre',
  intro: 'Ask a question in your own words. Answers come from our help content, with links to the pages they quote.',
  label: 'Your question',
  submit: 'Ask',
  answerHeading: 'Answer',
};

/** The assistant without JavaScript (issue 16): a question form and the server-rendered, cited answer. */
export function AssistantPage({ chrome, title, action = '/assistant', question, answer, error }: AssistantPageModel) {
  const s = { ...ASSISTANT_PAGE_STRINGS, ...(title ? { title } : {}) };
  return (
    <Document chrome={chrome}>
      <article className="assistant-page">
        <h1>{s.title}</h1>
        <p>{s.intro}</p>
        <form method="get" action={action} className="assistant-form" role="search" aria-label={s.title}>
          <label htmlFor="assistant-question">{s.label}</label>
          <input id="assistant-question" name="q" type="text" defaultValue={question} maxLength={500} required />
          <button type="submit">{s.submit}</button>
        </form>
        {error ? <p role="alert">{error}</p> : null}
        {answer ? (
          <section aria-labelledby="assistant-answer-heading">
            <h2 id="assistant-answer-heading">{s.answerHeading}</h2>
            <AssistantAnswer answer={answer} headingLevel={3} />
          </section>
        ) : null}
      </article>
    </Document>
  );
}
