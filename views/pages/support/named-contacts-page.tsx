import type { Chrome } from '../../view-model.ts';
import { Document } from '../../layout/document.tsx';
import { stringsFor } from '../../i18n/catalogue.tsx';

export type NamedContactField = 'name' | 'email';

export interface NamedContactsModel {
  chrome: Chrome;
  /** Anonymous visitors are asked to sign in instead. */
  signInHref?: string | undefined;
  contacts: { id: number; name: string; email: string }[];
  action: string;
  csrf: string;
  /** What was typed, kept after a refusal. */
  values: Record<NamedContactField, string>;
  /** Field -> what is wrong with it, in the order the fields come. */
  errors: Partial<Record<NamedContactField, string>>;
  /** A refusal that belongs to no one field (the limit, an expired form). */
  formError?: string | undefined;
  notice?: string | undefined;
}

const FIELDS: { name: NamedContactField; type: 'text' | 'email'; autoComplete: string }[] = [
  { name: 'name', type: 'text', autoComplete: 'off' },
  { name: 'email', type: 'email', autoComplete: 'off' },
];

/** The account's named support contacts (spec §2 account menu): a list with remove buttons, and an add form. */
export function NamedContactsPage(model: NamedContactsModel) {
  const { chrome } = model;
  const t = stringsFor(chrome.lang);
  const failed = FIELDS.filter((f) => model.errors[f.name]);
  const label = (f: NamedContactField) => (f === 'name' ? t.requests.name : t.requests.email);
  const hasErrors = failed.length > 0 || model.formError !== undefined;
  return (
    <Document chrome={hasErrors ? { ...chrome, title: `${t.requests.errorPrefix} ${chrome.title}` } : chrome}>
      <div className="named-contacts">
        <h1>{t.requests.contactsTitle}</h1>
        {model.signInHref ? (
          <>
            <p>{t.requests.contactsSignIn}</p>
            <p><a className="button-link" href={model.signInHref}>{t.requests.signIn}</a></p>
          </>
        ) : (
          <>
            <p>{t.requests.contactsIntro}</p>
            {model.notice ? <p className="requests-notice" role="status">{model.notice}</p> : null}
            {model.contacts.length === 0 ? <p>{t.requests.contactsEmpty}</p> : (
              <div className="table-scroll" role="region" aria-label={t.requests.contactsCaption} tabIndex={0}>
                <table className="requests-table">
                  <caption className="visually-hidden">{t.requests.contactsCaption}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t.requests.name}</th>
                      <th scope="col">{t.requests.email}</th>
                      <th scope="col">{t.requests.actions}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {model.contacts.map((c) => (
                      <tr key={c.id}>
                        <th scope="row">{c.name}</th>
                        <td>{c.email}</td>
                        <td>
                          <form method="post" action={model.action} className="named-contact-remove">
                            <input type="hidden" name="_csrf" value={model.csrf} />
                            <input type="hidden" name="id" value={String(c.id)} />
                            <button type="submit" name="intent" value="remove" className="secondary-button">
                              {t.requests.remove(c.name)}
                            </button>
                          </form>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <section aria-labelledby="add-contact-heading">
              <h2 id="add-contact-heading">{t.requests.addContact}</h2>
              {hasErrors ? (
                <div className="requests-error" role="alert" aria-labelledby="contact-errors-heading">
                  <h3 id="contact-errors-heading">{t.requests.notAdded}</h3>
                  <ul>
                    {model.formError ? <li>{model.formError}</li> : null}
                    {failed.map((f) => <li key={f.name}><a href={`#contact-${f.name}`}>{`${label(f.name)}: ${model.errors[f.name]}`}</a></li>)}
                  </ul>
                </div>
              ) : null}
              <form method="post" action={model.action} className="named-contact-add" noValidate>
                <input type="hidden" name="_csrf" value={model.csrf} />
                {FIELDS.map((f) => {
                  const error = model.errors[f.name];
                  return (
                    <p className="requests-field" key={f.name}>
                      <label htmlFor={`contact-${f.name}`}>{label(f.name)}</label>
                      {error ? <span id={`contact-${f.name}-error`} className="requests-field-error">{error}</span> : null}
                      <input id={`contact-${f.name}`} name={f.name} type={f.type} autoComplete={f.autoComplete} required
                        maxLength={f.name === 'name' ? 200 : 254} defaultValue={model.values[f.name]}
                        {...(error ? { 'aria-invalid': true as const, 'aria-describedby': `contact-${f.name}-error` } : {})}
                        {...(failed[0]?.name === f.name ? { autoFocus: true } : {})} />
                    </p>
                  );
                })}
                <p><button type="submit" name="intent" value="add">{t.requests.add}</button></p>
              </form>
            </section>
          </>
        )}
      </div>
    </Document>
  );
}
