import type { Chrome, Link } from '../../view-model.ts';
import { Document } from '../../layout/document.tsx';
import { LinkList } from '../../parts/links.tsx';
import { stringsFor } from '../../i18n/catalogue.tsx';
import { SupportFormFields, type SupportField } from '../../parts/support-form-fields.tsx';

export type SupportFormKind = 'contact' | 'hotContact' | 'partnerContact' | 'statusPageContact' | 'fileDownload' | 'reportProblem';

/** The form field the analytics script puts the visit's session id in, so a request joins its visit. */
export const VISIT_FIELD = '_visit';

export interface SupportFormModel {
  chrome: Chrome;
  kind: SupportFormKind;
  title: string;
  tagline?: string | undefined;
  /** The form, unless the page asks the visitor to sign in first (hot contact, spec §6). */
  form?: {
    title: string;
    intro?: string | undefined;
    submitLabel?: string | undefined;
    /** Where it posts: the page's own path. */
    action: string;
    csrf: string;
    /** Fresh on every render: a double submit or a reload of the POST stores one request. */
    submission: string;
    fields: SupportField[];
    values: Record<string, string | boolean>;
    errors: { field: string; message: string }[];
    /** Hidden context the form carries back (the page asked about, the feedback reason). */
    hidden: Record<string, string>;
    multipart: boolean;
    /** The attachment rules in words, and whether files chosen before must be chosen again. */
    files?: { help: string; chooseAgain: boolean } | undefined;
  } | undefined;
  /** Why the last attempt was not sent (a refusal), shown as an alert above the form. */
  notice?: string | undefined;
  /** Signed-in visitors: who the request is from, not editable. */
  signedInAs?: { name: string; email: string } | undefined;
  /** What the request is about, when it came from a page (report a problem, feedback). */
  about?: { page?: string | undefined; product?: string | undefined; reason?: string | undefined } | undefined;
  /** Hot contact for anonymous visitors: where to sign in. */
  signInHref?: string | undefined;
  partnerPortalHref?: string | undefined;
  /** A product or context with its own external form (customSupportForm…): a link to it. */
  ownForm?: { product: string; href: string } | undefined;
  otherContacts?: Link[] | undefined;
}

export const ERROR_SUMMARY_ID = 'error-summary';
export const fieldId = (name: string) => `field-${name}`;

/**
 * A support form page (issue 'Forms that work without JavaScript'): a plain POST form with
 * post/redirect/get. On an error it comes back with every value kept, an error summary (role=alert, a
 * focus target, a link to each field) and each field marked invalid and tied to its message.
 */
export function SupportFormPage(model: SupportFormModel) {
  const { chrome, kind, title, tagline, form, notice, signedInAs, about, signInHref, partnerPortalHref, ownForm, otherContacts } = model;
  const t = stringsFor(chrome.lang).supportForm;
  const errors = form?.errors ?? [];
  return (
    <Document chrome={chrome}>
      <div className={`support-form-page support-form-${kind}`} data-island="support-form" data-hydrate="load">
        <h1>{title}</h1>
        {tagline ? <p className="tagline">{tagline}</p> : null}
        {errors.length > 0 ? (
          <div className="error-summary" id={ERROR_SUMMARY_ID} role="alert" tabIndex={-1} aria-labelledby="error-summary-title">
            <h2 id="error-summary-title">{t.errorSummary}</h2>
            <p>{t.errorCount(errors.length)}</p>
            <ul>
              {errors.map((e) => <li key={e.field}><a href={`#${fieldId(e.field)}`}>{e.message}</a></li>)}
            </ul>
          </div>
        ) : notice ? (
          <div className="error-summary" id={ERROR_SUMMARY_ID} role="alert" tabIndex={-1}><p>{notice}</p></div>
        ) : null}
        {errors.length > 0 && notice ? <p className="form-notice" role="status">{notice}</p> : null}
        {ownForm ? (
          <p className="own-form">{t.ownForm(ownForm.product)}: <a href={ownForm.href}>{t.openOwnForm}</a></p>
        ) : null}
        {signInHref ? (
          <div className="sign-in-gate">
            <p>{t.hotContactSignIn}</p>
            <p><a className="button-link" href={signInHref}>{t.logInToContact}</a></p>
          </div>
        ) : null}
        {form ? (
          <form method="post" action={form.action} data-support-form="" noValidate className="support-form"
            {...(form.multipart ? { encType: 'multipart/form-data' } : {})} aria-labelledby="support-form-title">
            <h2 id="support-form-title">{form.title}</h2>
            {form.intro ? <p className="form-intro">{form.intro}</p> : null}
            <input type="hidden" name="_csrf" value={form.csrf} />
            <input type="hidden" name="submission" value={form.submission} />
            {Object.entries(form.hidden).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
            {/* The visit, filled in by the analytics script when it runs (islands/analytics.ts): empty otherwise. */}
            <input type="hidden" name={VISIT_FIELD} value="" data-analytics-visit="" />
            {/* Left empty by people: hidden from sight and from assistive technology (the honeypot). */}
            <div className="hp-field" aria-hidden="true">
              <label htmlFor="field-website">Website</label>
              <input type="text" id="field-website" name="website" defaultValue="" tabIndex={-1} autoComplete="off" />
            </div>
            {about && (about.page || about.product || about.reason) ? (
              <dl className="form-about">
                {about.page ? <><dt>{t.pageLabel}</dt><dd>{about.page}</dd></> : null}
                {about.product ? <><dt>{t.productLabel}</dt><dd>{about.product}</dd></> : null}
                {about.reason ? <><dt>{t.reasonLabel}</dt><dd>{about.reason}</dd></> : null}
              </dl>
            ) : null}
            {signedInAs ? <p className="signed-in-as">{t.signedInAs(signedInAs.name, signedInAs.email)}</p> : null}
            <SupportFormFields fields={form.fields} values={form.values} errors={form.errors} files={form.files} lang={chrome.lang} />
            <p><button type="submit">{form.submitLabel ?? t.sendDefault}</button></p>
          </form>
        ) : null}
        {kind === 'partnerContact' && partnerPortalHref
          ? <p><a className="button-link secondary" href={partnerPortalHref}>{stringsFor(chrome.lang).forms.partnerPortal}</a></p>
          : null}
        {otherContacts && otherContacts.length > 0 ? (
          <section className="other-contacts" aria-labelledby="other-contacts-heading">
            <h2 id="other-contacts-heading">{stringsFor(chrome.lang).forms.otherWays}</h2>
            <LinkList links={otherContacts} />
          </section>
        ) : null}
      </div>
    </Document>
  );
}
