import type { Stylesheets } from '../../layout/bare-document.tsx';
import { IdentityDocument } from './identity-document.tsx';

export interface SignOutModel {
  siteName: string;
  css: Stylesheets;
  /** The provider's end-session confirmation endpoint, and the one-time value it checks. */
  action: string;
  xsrf: string;
}

/** "Sign out of <site>?": one form, one button, no script. */
export function SignOutPage({ siteName, css, action, xsrf }: SignOutModel) {
  return (
    <IdentityDocument title="Sign out" siteName={siteName} css={css}>
      <h1>{`Sign out of ${siteName}?`}</h1>
      <form method="post" action={action}>
        <input type="hidden" name="xsrf" value={xsrf} />
        <button type="submit" name="logout" value="yes">Sign out</button>
      </form>
      <p><a href="/">{`Stay signed in and go to ${siteName}`}</a></p>
    </IdentityDocument>
  );
}

/** After signing out when no application asked to be returned to. */
export function SignedOutPage({ siteName, css }: { siteName: string; css: Stylesheets }) {
  return (
    <IdentityDocument title="Signed out" siteName={siteName} css={css}>
      <h1>You are signed out</h1>
      <p><a href="/">{`Go to ${siteName}`}</a></p>
    </IdentityDocument>
  );
}
