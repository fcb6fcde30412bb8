import { BareDocument, type Stylesheets } from '../layout/bare-document.tsx';

export interface StartingPageProps {
  css: Stylesheets;
  /** Where "Try again" leads: the page that was asked for. */
  retryHref: string;
  retryAfterSeconds: number;
}

/**
 * What a visitor sees while a new site imports its content for the first time (DESIGN "Running
 * safely"): the page they asked for may well exist once the import is done, so it says the site is
 * starting, never that the page does not exist.
 */
export function StartingPage({ css, retryHref, retryAfterSeconds }: StartingPageProps) {
  return (
    <BareDocument title="The help centre is starting" css={css} className="unavailable" status={503}>
      <h1>The help centre is starting</h1>
      <p>Its content is being loaded for the first time, which can take a few minutes. Please try again in {retryAfterSeconds} seconds or so.</p>
      <p><a href={retryHref}>Try again</a></p>
    </BareDocument>
  );
}
