import type { Chrome } from '../../view-model.ts';
import { Document } from '../../layout/document.tsx';
import { stringsFor, type Strings } from '../../i18n/catalogue.tsx';
import { dateOf, statusLabel } from './requests-parts.tsx';

export interface RequestDetail {
  reference: string;
  subject: string;
  status: string;
  product?: string | undefined;
  version?: string | undefined;
  severity?: string | undefined;
  name: string;
  email: string;
  formId: string;
  language: string;
  createdAt: string;
  updatedAt: string;
  /** Every field the form sent, by its name, as sent. */
  /** Each field with the label its form gives it (undefined when the form is no longer published). */
  fields: { name: string; label?: string | undefined; value: string | string[] | boolean }[];
  /** The page, product and reason it came from. */
  context: { key: string; value: string }[];
  attachments: { id: number; filename: string; size: number; href: string }[];
  history: { status: string; note: string; source: string; at: string }[];
}

export interface DeliveryLine {
  channel: string;
  state: string;
  attempts: number;
  lastError?: string | undefined;
  deliveredAt?: string | undefined;
}

export interface StatusForm {
  action: string;
  csrf: string;
  statuses: string[];
  /** After a refused post: what is wrong, the field it is about (none for an expired form), the note typed. */
  error?: string | undefined;
  errorField?: 'status' | 'note' | undefined;
  note?: string | undefined;
}

/** One reply of the conversation. */
export interface CommentLine {
  id: number;
  author: string;
  name: string;
  body: string;
  at: string;
  attachments: { id: number; filename: string; size: number; href: string }[];
}

/** The reply form: for the requester, a named contact, staff, or whoever holds the request's link. */
export interface ReplyForm {
  action: string;
  csrf: string;
  /** A random key per rendered form: sent twice, the reply is stored once. */
  submissionKey: string;
  /** The private link's key, carried by a link holder's form. */
  linkKey?: string | undefined;
  /** The attachment rules in words; undefined when files are not taken. */
  filesHelp?: string | undefined;
  accept?: string | undefined;
  maxLength: number;
  /** After a refused post: why, the field it is about, and what was typed. */
  errors?: { field: 'body' | 'files' | 'form'; message: string }[] | undefined;
  body?: string | undefined;
  /** Closed: the form is replaced by a note. */
  closed?: boolean | undefined;
}

export interface RequestDetailModel {
  chrome: Chrome;
  request: RequestDetail;
  listHref: string;
  /** Staff only: where delivery to the helpdesk stands ([] when no channel is configured). */
  delivery?: DeliveryLine[] | undefined;
  /** Staff only: set the status from here. */
  statusForm?: StatusForm | undefined;
  notice?: string | undefined;
  comments: CommentLine[];
  replyForm?: ReplyForm | undefined;
  /** Read through the private link: says so. */
  viaLink?: boolean | undefined;
}

const fieldLabel = (name: string) => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[-_]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

function valueText(t: Strings, value: string | string[] | boolean): string {
  if (typeof value === 'boolean') return value ? t.requests.yes : t.requests.no;
  if (Array.isArray(value)) return value.join(', ');
  return value;
}

function deliveryText(t: Strings, line: DeliveryLine): string {
  const channel = t.requests.deliveryChannels[line.channel] ?? line.channel;
  if (line.state === 'delivered') return t.requests.deliveryDelivered(channel, line.deliveredAt ? dateOf(t, line.deliveredAt) : '');
  if (line.state === 'failed') return t.requests.deliveryFailed(channel, line.attempts);
  return t.requests.deliveryPending(channel, line.attempts);
}

/** One request: everything it carries, its history, and for staff where its delivery stands. */
export function RequestDetailPage({ chrome, request: r, listHref, delivery, statusForm, notice, comments, replyForm, viaLink }: RequestDetailModel) {
  const t = stringsFor(chrome.lang);
  const invalid = (field: 'status' | 'note') =>
    statusForm?.errorField === field ? { 'aria-invalid': true as const, 'aria-describedby': 'status-error' } : {};
  return (
    <Document chrome={chrome}>
      <div className="request-detail">
        {viaLink ? <p className="requests-notice">{t.requests.replyLinkNote}</p> : <p><a href={listHref}>{t.requests.backToList}</a></p>}
        <h1>{`${t.requests.detailTitle(r.reference)}: ${r.subject}`}</h1>
        {notice ? <p className="requests-notice" role="status">{notice}</p> : null}
        <section aria-labelledby="request-details-heading">
          <h2 id="request-details-heading">{t.requests.details}</h2>
          <dl className="request-facts">
            <dt>{t.requests.reference}</dt><dd>{r.reference}</dd>
            <dt>{t.requests.status}</dt><dd><span className={`request-status request-status-${r.status}`}>{statusLabel(t, r.status)}</span></dd>
            <dt>{t.requests.subject}</dt><dd>{r.subject}</dd>
            <dt>{t.requests.product}</dt><dd>{r.product ?? t.requests.none}</dd>
            {r.version ? <><dt>{t.requests.version}</dt><dd>{r.version}</dd></> : null}
            {r.severity ? <><dt>{t.requests.severity}</dt><dd>{r.severity}</dd></> : null}
            <dt>{t.requests.name}</dt><dd>{r.name || t.requests.none}</dd>
            <dt>{t.requests.email}</dt><dd>{r.email}</dd>
            <dt>{t.requests.form}</dt><dd>{r.formId}</dd>
            <dt>{t.requests.date}</dt><dd><time dateTime={r.createdAt}>{dateOf(t, r.createdAt)}</time></dd>
            <dt>{t.requests.updated}</dt><dd><time dateTime={r.updatedAt}>{dateOf(t, r.updatedAt)}</time></dd>
          </dl>
        </section>
        {r.fields.length > 0 ? (
          <section aria-labelledby="request-fields-heading">
            <h2 id="request-fields-heading">{t.requests.whatYouSent}</h2>
            <dl className="request-fields">
              {r.fields.map((f) => (
                <div key={f.name}>
                  <dt>{f.label ?? fieldLabel(f.name)}</dt>
                  <dd className="request-field-value">{valueText(t, f.value)}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        {r.context.length > 0 ? (
          <section aria-labelledby="request-context-heading">
            <h2 id="request-context-heading">{t.requests.context}</h2>
            <dl className="request-fields">
              {r.context.map((c) => (
                <div key={c.key}>
                  <dt>{t.requests.contextLabels[c.key] ?? fieldLabel(c.key)}</dt>
                  <dd className="request-field-value">{c.value}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
        {r.attachments.length > 0 ? (
          <section aria-labelledby="request-attachments-heading">
            <h2 id="request-attachments-heading">{t.requests.attachments}</h2>
            <AttachmentList t={t} files={r.attachments} />
          </section>
        ) : null}
        <section aria-labelledby="request-history-heading">
          <h2 id="request-history-heading">{t.requests.history}</h2>
          <ol className="request-history">
            {r.history.map((h, i) => (
              <li key={i}>
                <time dateTime={h.at}>{dateOf(t, h.at)}</time>
                {' '}<span>{`${t.requests.historyBy[h.source] ?? h.source}: ${statusLabel(t, h.status)}`}</span>
                {h.note ? <p className="request-history-note">{h.note}</p> : null}
              </li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="request-conversation-heading">
          <h2 id="request-conversation-heading">{t.requests.conversation}</h2>
          {comments.length === 0 ? <p>{t.requests.noReplies}</p> : (
            <ol className="request-comments">
              {comments.map((c) => (
                <li key={c.id} id={`comment-${c.id}`} className={`request-comment request-comment-${c.author}`}>
                  <p className="request-comment-meta">
                    <strong>{c.name ? `${c.name} (${t.requests.commentBy[c.author] ?? c.author})` : t.requests.commentBy[c.author] ?? c.author}</strong>
                    {' '}<time dateTime={c.at}>{dateOf(t, c.at)}</time>
                  </p>
                  <p className="request-comment-body">{c.body}</p>
                  {c.attachments.length > 0 ? (
                    <AttachmentList t={t} files={c.attachments} />
                  ) : null}
                </li>
              ))}
            </ol>
          )}
        </section>
        {replyForm ? <ReplyFormSection form={replyForm} t={t} /> : null}
        {delivery ? (
          <section aria-labelledby="request-delivery-heading">
            <h2 id="request-delivery-heading">{t.requests.delivery}</h2>
            {delivery.length === 0 ? <p>{t.requests.deliveryNone}</p> : (
              <ul className="request-delivery">
                {delivery.map((d) => (
                  <li key={d.channel} className={`request-delivery-${d.state}`}>
                    {deliveryText(t, d)}
                    {d.lastError && d.state !== 'delivered' ? <> <span className="request-delivery-error">{t.requests.lastError(d.lastError)}</span></> : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
        ) : null}
        {statusForm ? (
          <section aria-labelledby="request-status-heading">
            <h2 id="request-status-heading">{t.requests.setStatus}</h2>
            {statusForm.error ? <p className="requests-error" role="alert" id="status-error">{statusForm.error}</p> : null}
            <form method="post" action={statusForm.action} className="request-status-form">
              <input type="hidden" name="_csrf" value={statusForm.csrf} />
              <p className="requests-field">
                <label htmlFor="status">{t.requests.status}</label>
                <select id="status" name="status" defaultValue={r.status} {...invalid('status')}>
                  {statusForm.statuses.map((s) => <option key={s} value={s}>{statusLabel(t, s)}</option>)}
                </select>
              </p>
              <p className="requests-field">
                <label htmlFor="note">{t.requests.note}</label>
                <textarea id="note" name="note" rows={3} maxLength={2000} defaultValue={statusForm.note ?? ''} {...invalid('note')} />
              </p>
              <p><button type="submit">{t.requests.saveStatus}</button></p>
            </form>
          </section>
        ) : null}
      </div>
    </Document>
  );
}

/** The reply form: a plain multipart form, so it works the same with scripts and without. */
function ReplyFormSection({ form, t }: { form: ReplyForm; t: Strings }) {
  if (form.closed) {
    return (
      <section aria-labelledby="request-reply-heading">
        <h2 id="request-reply-heading">{t.requests.reply}</h2>
        <p>{t.requests.replyClosed}</p>
      </section>
    );
  }
  const errorOf = (field: 'body' | 'files') => form.errors?.find((e) => e.field === field);
  const described = (field: 'body' | 'files', hint?: string) => {
    const ids = [hint, errorOf(field) ? `reply-${field}-error` : undefined].filter(Boolean).join(' ');
    return { ...(ids ? { 'aria-describedby': ids } : {}), ...(errorOf(field) ? { 'aria-invalid': true as const } : {}) };
  };
  return (
    <section aria-labelledby="request-reply-heading">
      <h2 id="request-reply-heading">{t.requests.reply}</h2>
      {form.errors && form.errors.length > 0 ? (
        <div className="requests-error" role="alert" tabIndex={-1} id="reply-errors">
          <p><strong>{t.requests.replyNotSent}</strong></p>
          <ul>
            {form.errors.map((e, i) => (
              <li key={i}>{e.field === 'form' ? e.message : <a href={`#reply-${e.field}`}>{e.message}</a>}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <form method="post" action={form.action} encType="multipart/form-data" className="request-reply-form">
        <input type="hidden" name="_csrf" value={form.csrf} />
        <input type="hidden" name="submissionKey" value={form.submissionKey} />
        {form.linkKey ? <input type="hidden" name="key" value={form.linkKey} /> : null}
        <p className="requests-field">
          <label htmlFor="reply-body">{t.requests.replyLabel}</label>
          {errorOf('body') ? <span className="requests-field-error" id="reply-body-error">{errorOf('body')!.message}</span> : null}
          <textarea id="reply-body" name="body" rows={6} required maxLength={form.maxLength} defaultValue={form.body ?? ''} {...described('body')} />
        </p>
        {form.filesHelp ? (
          <p className="requests-field">
            <label htmlFor="reply-files">{t.requests.replyFiles}</label>
            <span className="requests-field-hint" id="reply-files-hint">{form.filesHelp}</span>
            {errorOf('files') ? <span className="requests-field-error" id="reply-files-error">{errorOf('files')!.message}</span> : null}
            <input type="file" id="reply-files" name="files" multiple accept={form.accept} {...described('files', 'reply-files-hint')} />
          </p>
        ) : null}
        <p><button type="submit">{t.requests.sendReply}</button></p>
      </form>
    </section>
  );
}

/** Files as download links with their sizes. */
function AttachmentList({ t, files }: { t: Strings; files: RequestDetail['attachments'] }) {
  return (
    <ul className="request-attachments">
      {files.map((a) => (
        <li key={a.id}>
          <a href={a.href} download={a.filename}>{t.requests.download(a.filename)}</a>
          {' '}<span className="request-attachment-size">{`(${t.requests.bytes(a.size.toLocaleString(t.locale))})`}</span>
        </li>
      ))}
    </ul>
  );
}
