import type { Chrome } from '../view-model.ts';
import { Document } from '../layout/document.tsx';
import { AssistantAnswer, type AnswerStrings, type AnswerView } from '../islands/assistant-answer.tsx';

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
  /** The page's language when not English: kept by the form. */
  lang?: string | undefined;
  strings: AssistantPageStrings;
}

export interface AssistantPageStrings {
  title: string;
  intro: string;
  label: string;
  submit: string;
  answerHeading: string;
  answer: AnswerStrings;
}

/** The assistant without JavaScript (issue 16): a question form and the server-rendered, cited answer. */
export function AssistantPage({ chrome, title, action = '/assistant', question, answer, error, lang, strings }: AssistantPageModel) {
  const s = { ...strings, ...(title ? { title } : {}) };
  return (
    <Document chrome={chrome}>
      <article className="assistant-page">
        <h1>{s.title}</h1>
        <p>{s.intro}</p>
        <form method="get" action={action} className="assistant-form" role="search" aria-label={s.title}>
          {lang ? <input type="hidden" name="lang" value={lang} /> : null}
          <label htmlFor="assistant-question">{s.label}</label>
          <input id="assistant-question" name="q" type="text" defaultValue={question} maxLength={500} required />
          <button type="submit">{s.submit}</button>
        </form>
        {error ? <p role="alert">{error}</p> : null}
        {answer ? (
          <section aria-labelledby="assistant-answer-heading">
            <h2 id="assistant-answer-heading">{s.answerHeading}</h2>
            <AssistantAnswer answer={answer} strings={s.answer} headingLevel={3} />
          </section>
        ) : null}
      </article>
    </Document>
  );
}
