import type { Stylesheets } from '../../layout/bare-document.tsx';
import { IdentityDocument } from './identity-document.tsx';

export interface ConsentModel {
  siteName: string;
  css: Stylesheets;
  clientName: string;
  /** What the application asks for, in words. */
  asks: string[];
  /** The signed-in person, so they can see which account they would share. */
  email?: string | undefined;
  confirmAction: string;
  abortAction: string;
}

/** Asked of the applications other than the site itself (OIDC_PROVIDER_CLIENTS): share or not. */
export function ConsentPage({ siteName, css, clientName, asks, email, confirmAction, abortAction }: ConsentModel) {
  return (
    <IdentityDocument title="Allow access" siteName={siteName} css={css}>
      <h1>{`Allow ${clientName} to use your ${siteName} account?`}</h1>
      {email ? <p>You are signed in as <strong>{email}</strong>.</p> : null}
      <p>{`${clientName} asks to:`}</p>
      <ul className="identity-asks">
        {asks.map((ask) => <li key={ask}>{ask}</li>)}
      </ul>
      <div className="identity-actions">
        <form method="post" action={confirmAction}>
          <button type="submit">Allow</button>
        </form>
        <form method="post" action={abortAction}>
          <button type="submit" className="secondary-button">Cancel</button>
        </form>
      </div>
    </IdentityDocument>
  );
}
