import type { Stylesheets } from '../../layout/bare-document.tsx';
import { IdentityDocument } from './identity-document.tsx';
import { FormField } from './form-field.tsx';

/**
 * The embedded provider's self-service screens (sign-up, forgotten password, new password): one form
 * that works without JavaScript. Errors follow the profile page's pattern: a summary with role=alert
 * linking to each field, each field marked aria-invalid and described by its own message, the first
 * one focused.
 */
export interface AccountField {
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  autoComplete: string;
  hint?: string | undefined;
  /** Kept when the form comes back with errors (never a password). */
  value?: string | undefined;
  required?: boolean | undefined;
  minLength?: number | undefined;
  maxLength: number;
}

export interface AccountLink {
  href: string;
  label: string;
}

export interface AccountFormModel {
  siteName: string;
  css: Stylesheets;
  status?: number | undefined;
  title: string;
  /** What the form is for, under the heading. */
  intro?: string | undefined;
  action: string;
  fields: AccountField[];
  /** Hidden fields (the link's token of a password reset). */
  hidden?: Record<string, string> | undefined;
  submit: string;
  /** Field name → what is wrong with it. */
  errors?: Record<string, string> | undefined;
  /** A problem with the form as a whole (too many requests), shown above it. */
  notice?: string | undefined;
  links?: AccountLink[] | undefined;
}

export function AccountFormPage({ siteName, css, status, title, intro, action, fields, hidden, submit, errors = {}, notice, links = [] }: AccountFormModel) {
  const failed = fields.filter((f) => errors[f.name]);
  return (
    <IdentityDocument title={failed.length > 0 || notice ? `Error: ${title}` : title} siteName={siteName} css={css} status={status ?? 200}>
      <h1>{title}</h1>
      {intro ? <p>{intro}</p> : null}
      {notice ? <p className="identity-error" role="alert">{notice}</p> : null}
      {failed.length > 0 ? (
        <div className="identity-error" role="alert" aria-labelledby="account-errors-heading">
          <h2 id="account-errors-heading">There is a problem</h2>
          <ul>
            {failed.map((f) => <li key={f.name}><a href={`#${f.name}`}>{`${f.label}: ${errors[f.name]}`}</a></li>)}
          </ul>
        </div>
      ) : null}
      <form method="post" action={action} className="identity-form">
        {Object.entries(hidden ?? {}).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
        {fields.map((f) => (
          <FormField key={f.name} prefix="identity" {...f} error={errors[f.name]} focus={failed[0]?.name === f.name} />
        ))}
        <p><button type="submit">{submit}</button></p>
      </form>
      {links.length > 0 ? (
        <p className="identity-links">{links.map((l) => <a key={l.href} href={l.href}>{l.label}</a>)}</p>
      ) : null}
    </IdentityDocument>
  );
}

/** A self-service step's outcome (mail sent, address confirmed, a link that cannot be used): what happened, and where next. */
export function AccountMessagePage({ siteName, css, status, title, message, links = [] }: {
  siteName: string; css: Stylesheets; status?: number | undefined; title: string; message: string; links?: AccountLink[] | undefined;
}) {
  return (
    <IdentityDocument title={title} siteName={siteName} css={css} status={status ?? 200}>
      <h1>{title}</h1>
      <p role={status && status >= 400 ? undefined : 'status'}>{message}</p>
      <p className="identity-links">
        {links.map((l) => <a key={l.href} href={l.href}>{l.label}</a>)}
        <a href="/">{`Go to ${siteName}`}</a>
      </p>
    </IdentityDocument>
  );
}
