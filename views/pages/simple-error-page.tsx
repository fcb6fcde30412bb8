import { BareDocument, type Stylesheets } from '../layout/bare-document.tsx';

/**
 * The error page for requests the site refuses before any content is read (bad input, a method the
 * path does not have): no header, footer or data from the database, so it can always be shown.
 */
export interface SimpleErrorModel {
  status: number;
  title: string;
  message: string;
  css: Stylesheets;
  /** A way on from here, e.g. 'Try signing in again'; shown before the home link. */
  action?: { label: string; href: string } | undefined;
}

export function SimpleErrorPage({ status, title, message, css, action }: SimpleErrorModel) {
  return (
    <BareDocument title={title} css={css} className="simple-error" status={status}>
      <h1>{title}</h1>
      <p>{message}</p>
      {action ? <p><a href={action.href}>{action.label}</a></p> : null}
      <p><a href="/">Go to the support home page</a></p>
    </BareDocument>
  );
}
