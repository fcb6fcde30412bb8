import type { Stylesheets } from '../../layout/bare-document.tsx';
import { IdentityDocument } from './identity-document.tsx';

export interface IdentityErrorModel {
  siteName: string;
  css: Stylesheets;
  status: number;
  title: string;
  message: string;
  /** Where to start again (the site's sign-in link), when that helps. */
  restartHref?: string | undefined;
}

/** A sign-in that cannot go on (expired or unknown step, a refused request): what happened, and a way back. */
export function IdentityErrorPage({ siteName, css, status, title, message, restartHref }: IdentityErrorModel) {
  return (
    <IdentityDocument title={title} siteName={siteName} css={css} status={status}>
      <h1>{title}</h1>
      <p>{message}</p>
      {restartHref ? <p><a href={restartHref}>Sign in again</a></p> : null}
      <p><a href="/">{`Go to ${siteName}`}</a></p>
    </IdentityDocument>
  );
}
