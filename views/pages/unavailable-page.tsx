import { BareDocument, type Stylesheets } from '../layout/bare-document.tsx';

/**
 * What a visitor sees while the database is away (DESIGN "Running safely"): a whole document that
 * needs nothing stored (no header menus, no footer links), the site's stylesheet, and a way to retry.
 */
export interface UnavailablePageProps {
  css: Stylesheets;
  /** Where "Try again" leads: the page that was asked for, or the page a form was sent from. */
  retryHref: string;
  /** A form was sent: say plainly that it was not saved. */
  notSaved: boolean;
  retryAfterSeconds: number;
}

export function UnavailablePage({ css, retryHref, notSaved, retryAfterSeconds }: UnavailablePageProps) {
  return (
    <BareDocument title="Unavailable for a moment" css={css} className="unavailable">
      <h1>This page is unavailable for a moment</h1>
      <p>We can&apos;t reach our help content right now. Please try again in {retryAfterSeconds} seconds or so.</p>
      {notSaved ? <p>What you sent has not been saved. Please send it again once the page is back.</p> : null}
      <p><a href={retryHref}>Try again</a></p>
    </BareDocument>
  );
}
