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

/**
 * The site's session has ended; the issuer's (an external one) ends next. The browser goes on to the
 * issuer's end-session endpoint at once, without a script; the link is there for a browser that does not.
 */
export function SiteSignedOutPage({ siteName, css, issuer }: {
  siteName: string; css: Stylesheets;
  /** The issuer's end-session address and its host name, when the issuer's session is still to end. */
  issuer?: { href: string; host: string } | undefined;
}) {
  return (
    <IdentityDocument title="Signed out" siteName={siteName} css={css} continueTo={issuer?.href}>
      <h1>{`You are signed out of ${siteName}`}</h1>
      {issuer ? (
        <>
          <p>{`You are now being signed out of your account at ${issuer.host} as well, so nobody else can sign in as you on this device.`}</p>
          <p><a href={issuer.href}>{`Continue signing out at ${issuer.host}`}</a></p>
        </>
      ) : null}
      <p><a href="/">{`Go to ${siteName}`}</a></p>
    </IdentityDocument>
  );
}
