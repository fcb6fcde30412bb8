import { BareDocument, type Stylesheets } from '../../layout/bare-document.tsx';
import { FormField } from './form-field.tsx';
/**
 * The embedded provider's "manage profile" page (issue "The embedded default", spec §2 account menu):
 * who is signed in, their roles, and a change-password form that works without JavaScript. Field errors
 * follow the usual pattern: a summary with role=alert linking to each field, then each field marked
 * aria-invalid and described by its own message.
 */
export interface ProfileModel {
  css: Stylesheets;
  name: string;
  email: string;
  /** Roles in words (spec §6), e.g. ['Signed-in customer', 'Author']. */
  roles: string[];
  /** Where the password form posts: {base}/account/password; absent when the account has no password here. */
  passwordAction?: string | undefined;
  /** Where the sign-out form posts: {base}/logout. */
  logoutAction: string;
  /** Shown after a change went through (post/redirect/get). */
  notice?: string | undefined;
  /** Field name → what is wrong with it, in the order the fields come. */
  errors?: Partial<Record<PasswordField, string>> | undefined;
}

export type PasswordField = 'currentPassword' | 'newPassword' | 'confirmPassword';

const FIELDS: { name: PasswordField; label: string; autoComplete: string; hint?: string }[] = [
  { name: 'currentPassword', label: 'Current password', autoComplete: 'current-password' },
  { name: 'newPassword', label: 'New password', autoComplete: 'new-password', hint: 'At least 10 characters, not a common password.' },
  { name: 'confirmPassword', label: 'New password again', autoComplete: 'new-password' },
];

export function ProfilePage({ css, name, email, roles, passwordAction, logoutAction, notice, errors = {} }: ProfileModel) {
  const failed = FIELDS.filter((f) => errors[f.name]);
  return (
    <BareDocument title={failed.length > 0 ? 'Error: Your profile' : 'Your profile'} css={css} className="profile-page"
      banner={{ className: 'profile-banner', content: <a href="/">Support home</a> }}>
      <h1>Your profile</h1>
      {notice ? <p className="profile-notice" role="status">{notice}</p> : null}
      <dl className="profile-details">
        <dt>Name</dt>
        <dd>{name || 'Not set'}</dd>
        <dt>E-mail</dt>
        <dd>{email}</dd>
        <dt>Roles</dt>
        <dd>{roles.join(', ')}</dd>
      </dl>
      {passwordAction ? (
        <section aria-labelledby="change-password-heading">
          <h2 id="change-password-heading">Change your password</h2>
          {failed.length > 0 ? (
            <div className="profile-errors" role="alert" aria-labelledby="profile-errors-heading">
              <h3 id="profile-errors-heading">The password was not changed</h3>
              <ul>
                {failed.map((f) => <li key={f.name}><a href={`#${f.name}`}>{`${f.label}: ${errors[f.name]}`}</a></li>)}
              </ul>
            </div>
          ) : null}
          <form method="post" action={passwordAction} className="profile-form">
            {FIELDS.map((f) => (
              <FormField key={f.name} prefix="profile" name={f.name} label={f.label} type="password" autoComplete={f.autoComplete} hint={f.hint}
                error={errors[f.name]} maxLength={1024} minLength={f.name === 'currentPassword' ? undefined : 10} focus={failed[0]?.name === f.name} />
            ))}
            <p><button type="submit">Change password</button></p>
          </form>
        </section>
      ) : null}
      <form method="post" action={logoutAction} className="profile-logout">
        <button type="submit" className="profile-secondary">Log out</button>
      </form>
    </BareDocument>
  );
}
