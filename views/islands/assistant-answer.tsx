/**
 * An assistant's answer as the page, the widget and the summary dialog show it: the generated text
 * or the quoted passages, always with the pages cited; nothing relevant says so and links to the
 * contact form with the question filled in. Pure props: the server and the widget render it alike.
 */

export interface AnswerCitationView {
  title: string;
  heading: string | null;
  url: string;
  quote: string;
}

export interface AnswerView {
  question: string;
  mode: 'generated' | 'extractive' | 'nothing';
  text?: string | undefined;
  citations: AnswerCitationView[];
  /** Why the model's answer is not shown, in words. */
  notice?: string | undefined;
  contactHref?: string | undefined;
  /** The results page for the question, offered with a refusal. */
  searchHref?: string | undefined;
  /** The question's id as counted (analytics): the page's script reports the answer shown with it. */
  id?: string | undefined;
}

export interface AnswerStrings {
  sources: string;
  fromTheHelpContent: string;
  nothingFound: string;
  askSupport: string;
  searchInstead: string;
}

export function AssistantAnswer({ answer, strings, headingLevel = 2 }: {
  answer: AnswerView; strings: AnswerStrings; headingLevel?: 2 | 3 | 4;
}) {
  const Heading = headingLevel === 2 ? 'h2' : headingLevel === 3 ? 'h3' : 'h4';
  if (answer.mode === 'nothing') {
    return (
      <div className="assistant-answer" data-assistant-id={answer.id}>
        <p>{strings.nothingFound}</p>
        {answer.searchHref ? <p><a href={answer.searchHref}>{strings.searchInstead}</a></p> : null}
        {answer.contactHref ? <p><a href={answer.contactHref}>{strings.askSupport}</a></p> : null}
      </div>
    );
  }
  return (
    <div className="assistant-answer" data-assistant-id={answer.id}>
      {answer.notice ? <p className="assistant-notice" role="status">{answer.notice}</p> : null}
      {answer.mode === 'generated' && answer.text
        ? answer.text.split(/\n{2,}/).map((p, i) => <p key={i}>{p}</p>)
        : <p>{strings.fromTheHelpContent}</p>}
      <Heading className="assistant-sources-heading">{strings.sources}</Heading>
      <ol className="assistant-sources">
        {answer.citations.map((c) => (
          <li key={c.url}>
            <a href={c.url}>{c.heading ? `${c.title}: ${c.heading}` : c.title}</a>
            {answer.mode === 'extractive' ? <blockquote cite={c.url}><p>{c.quote}</p></blockquote> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
