import type { Stylesheets } from '../../layout/bare-document.tsx';
import { IdentityDocument } from './identity-document.tsx';

export interface SignInModel {
  siteName: string;
  css: Stylesheets;
  /** Where the form posts: {base}/interaction/{uid}/login. */
  action: string;
  /** The e-mail address as the visitor typed it, kept when the form comes back with an error. */
  email?: string | undefined;
  /** Why the last attempt failed, shown above the form and tied to both fields. */
  error?: string | undefined;
  /** Set when an application other than the site itself asked for the sign-in. */
  clientName?: string | undefined;
  status?: number | undefined;
  /** The 'Forgot password?' page, when reset links can be e-mailed. */
  forgotHref?: string | undefined;
  /** The sign-up page, when people may open an account themselves. */
  signUpHref?: string | undefined;
}

export const SIGN_IN_ERROR_ID = 'sign-in-error';

/** The embedded provider's sign-in screen (issue "The embedded default"): e-mail, password, one button. */
export function SignInPage({ siteName, css, action, email, error, clientName, status, forgotHref, signUpHref }: SignInModel) {
  const invalid = error ? { 'aria-invalid': true as const, 'aria-describedby': SIGN_IN_ERROR_ID } : {};
  return (
    <IdentityDocument title="Sign in" siteName={siteName} css={css} status={status ?? 200}>
      <h1>{`Sign in to ${siteName}`}</h1>
      {clientName ? <p>{`${clientName} asks you to sign in with your ${siteName} account.`}</p> : null}
      {error ? <p id={SIGN_IN_ERROR_ID} className="identity-error" role="alert">{error}</p> : null}
      <form method="post" action={action} className="identity-form">
        <p className="identity-field">
          <label htmlFor="email">E-mail</label>
          <input id="email" name="email" type="email" autoComplete="username" required maxLength={254}
            defaultValue={email ?? ''} {...invalid} />
        </p>
        <p className="identity-field">
          <label htmlFor="password">Password</label>
          <input id="password" name="password" type="password" autoComplete="current-password" required maxLength={1024} {...invalid} />
        </p>
        <p><button type="submit">Sign in</button></p>
      </form>
      {forgotHref || signUpHref ? (
        <p className="identity-links">
          {forgotHref ? <a href={forgotHref}>Forgot password?</a> : null}
          {signUpHref ? <a href={signUpHref}>Create an account</a> : null}
        </p>
      ) : null}
      <p><a href="/">{`Back to ${siteName}`}</a></p>
    </IdentityDocument>
  );
}
