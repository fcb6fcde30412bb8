/**
 * Requests the visitor can follow (issue "Requests the visitor can follow"; spec §2 account menu, §6):
 * 'View requests' at /requests, a request's page, its attachments, the account's named contacts, the
 * staff list of every request, and the helpdesk's status endpoint. All of it is private: `private,
 * no-store`, and only the owner account, staff, or the helpdesk's token read a request; anybody else
 * gets a 404 that does not say whether the reference exists.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Config } from '../config.ts';
import { stringsFor } from '../../views/i18n/catalogue.tsx';
import { RequestsListPage, type RequestsTab } from '../../views/pages/support/requests-list-page.tsx';
import { RequestDetailPage, type ReplyForm, type RequestDetailModel } from '../../views/pages/support/requests-detail-page.tsx';
import { canRead, owns, readerOf, referencePattern, type Reader } from './requests/access.ts';
import { NamedContactStore } from './requests/named-contacts.ts';
import { readReply, MAX_REPLY_LENGTH, type ReplyProblem } from './requests/reply-body.ts';
import { sizeText } from './forms/attachments.ts';
import multipart from '@fastify/multipart';
import { randomUUID } from 'node:crypto';
import { PAGE_SIZE, cspWithNonce, pageKit } from './requests/page-kit.tsx';
import { requestsPortal } from './requests/portal-variant.ts';
import { listDeliveries } from './delivery/outbox.ts';
import { formsById, type Severity } from './forms/definition.ts';
import { REQUEST_STATUSES, isRequestStatus, MAX_NOTE_LENGTH } from './requests/statuses.ts';
import { attachmentHeaders } from './requests/attachment-headers.ts';
import namedContactRoutes from './requests/named-contact-routes.tsx';
import staffRoutes from './requests/staff-routes.tsx';
import helpdeskApi from './requests/helpdesk-api.ts';
import type { StoredRequest } from './store.ts';

export const ListQuerySchema = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
  view: Type.Optional(Type.Union([Type.Literal('mine'), Type.Literal('partner')])),
}, { additionalProperties: true });
type ListQuery = Static<typeof ListQuerySchema>;

export const LIST_PATH = '/requests';

export default async function requestRoutes(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  const kit = pageKit(app, config);
  const reference = referencePattern(config.requestReferencePrefix);
  const t = stringsFor('en');
  const contacts = new NamedContactStore(app.db);
  const rules = { maxFiles: config.attachmentMaxFiles, maxBytes: config.attachmentMaxBytes, types: config.attachmentTypes };
  // Replies take files as the forms do, with the same limits (a part more than allowed is let through,
  // to be named in the refusal).
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: rules.maxBytes, files: rules.maxFiles + 1, fields: 10, fieldSize: 200_000, parts: 20, headerPairs: 100 },
  });

  // The one page with an inline script (the legacy hash form) names its nonce in its CSP.
  app.addHook('onSend', async (request, reply, payload) => {
    const csp = cspWithNonce(request);
    if (csp) reply.header('content-security-policy', csp);
    // Request data is private whoever asks, signed in or not (issue "Errors and safety").
    reply.header('cache-control', 'private, no-store');
    return payload;
  });

  /** The content entry at /requests gives the page's title and description (pageType myRequests). */
  const listEntry = async () => app.content.byPath(LIST_PATH, { preview: false });

  async function list(request: FastifyRequest<{ Querystring: ListQuery }>, reply: FastifyReply) {
    const reader = await readerOf(app, request, config);
    const entry = await listEntry();
    const partnerView = reader.visitor.partner && request.query.view === 'partner';
    const title = entry?.title ?? (reader.visitor.partner ? t.requests.partnerTitle : t.requests.title);
    const chrome = await kit.chrome(request, {
      title, path: LIST_PATH, language: entry?.language, description: entry?.fields.metaDescription as string | undefined,
    });
    const portal = await requestsPortal(request.flags, reader.visitor);
    const base = {
      chrome, title, signInHref: kit.signInHref(LIST_PATH), contactHref: chrome.header.contactHref,
      variant: portal.variant, showUpdated: portal.showUpdated, nonce: kit.nonceFor(request),
      list: partnerView ? 'partner' as const : 'mine' as const,
    };
    if (!reader.accountId) {
      return reply.page(<RequestsListPage {...base} state="signIn" rows={[]} total={0} />, { cache: 'private' });
    }
    const page = request.query.page ?? 1;
    // Partner users on a partner host keep their own and their partner requests apart (spec §2, §6); everybody
    // else sees every request of theirs in one list.
    const partner = reader.visitor.partner ? partnerView : undefined;
    const { requests, total } = await app.supportRequests.listForAccount(reader.accountId, {
      verifiedEmail: reader.verifiedEmail, partner, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE,
    });
    const hrefOf = (n: number) => {
      const query = new URLSearchParams();
      if (partnerView) query.set('view', 'partner');
      if (n > 1) query.set('page', String(n));
      const q = query.toString();
      return q ? `${LIST_PATH}?${q}` : LIST_PATH;
    };
    const pagination = kit.pagination(page, total, hrefOf);
    if (requests.length === 0 && total > 0) return reply.redirect(hrefOf(pagination.pages), 303);
    const [names, changed] = await Promise.all([
      kit.productNames(requests.map((r) => r.product)),
      app.supportRequests.changedSince(reader.accountId, requests.map((r) => r.reference)),
    ]);
    const strings = stringsFor(chrome.lang).requests;
    const tabs: RequestsTab[] | undefined = reader.visitor.partner
      ? [
          { label: strings.yourRequests, href: LIST_PATH, current: !partnerView },
          { label: strings.partnerRequests, href: `${LIST_PATH}?view=partner`, current: partnerView },
        ]
      : undefined;
    return reply.page(
      <RequestsListPage {...base} state="list" tabs={tabs} rows={requests.map((r) => ({ ...kit.row(r, names), changed: changed.has(r.reference) }))}
        total={total} pagination={pagination} />,
      { cache: 'private' },
    );
  }
  app.get<{ Querystring: ListQuery }>(LIST_PATH, { schema: { querystring: ListQuerySchema } }, list);
  // `/requests/#!/SR-1` arrives as /requests/: the same page, whose script follows the hash form.
  app.get<{ Querystring: ListQuery }>(`${LIST_PATH}/`, { schema: { querystring: ListQuerySchema } }, list);


  /**
   * How this visitor may read and answer a request: as its owner, as staff, as a named contact of its
   * account (signed in with that verified address), or holding its private link. Undefined for anybody
   * else, with one answer whether the reference exists or not.
   */
  async function accessOf(reader: Reader, ref: string, key: unknown): Promise<Access | undefined> {
    if (!reference.test(ref)) return undefined;
    const stored = await app.supportRequests.get(ref);
    if (!stored) return undefined;
    if (owns(reader, stored)) return { stored, as: 'owner' };
    if (reader.visitor.staff) return { stored, as: 'staff' };
    if (stored.accountId && reader.verifiedEmail && await contacts.isContact(stored.accountId, reader.verifiedEmail)) return { stored, as: 'contact' };
    if (app.requestLinks.verify(stored.reference, key)) return { stored, as: 'link' };
    return undefined;
  }

  /** The request's address for this visitor: a link holder's carries the key. */
  const pathFor = (access: Access, suffix = '', query: Record<string, string> = {}) => {
    const params = new URLSearchParams(query);
    if (access.as === 'link') params.set('key', app.requestLinks.key(access.stored.reference));
    const q = params.toString();
    return `${LIST_PATH}/${access.stored.reference}${suffix}${q ? `?${q}` : ''}`;
  };

  async function detail(request: FastifyRequest, reply: FastifyReply, reader: Reader, access: Access,
    extra: { status?: number; notice?: string; statusError?: string; errorField?: 'status' | 'note'; note?: string; replyErrors?: ReplyForm['errors']; replyBody?: string } = {}) {
    const { stored } = access;
    const [attachments, updates, names, forms, comments] = await Promise.all([
      app.supportRequests.attachments(stored.reference), app.supportRequests.updates(stored.reference),
      kit.productNames([stored.product]), formsById(app), app.supportRequests.comments(stored.reference),
    ]);
    // Each field under the label its form gave it, in the language it was sent in (the name, if the form is gone).
    const formFields = forms.get(stored.formId)?.fields ?? [];
    const labelOf = (name: string) => {
      const field = formFields.find((f) => f.name === name);
      return field ? (stored.language === 'ja-JP' ? field.labels?.['ja-JP'] ?? field.label : field.label) : undefined;
    };
    // Values under the words the form offered them by (a product's name, a severity's, an option's label).
    const sentIn = stringsFor(stored.language === 'ja-JP' ? 'ja' : 'en').supportForm;
    const valueOf = (name: string, value: string | string[] | boolean) => {
      const field = formFields.find((f) => f.name === name);
      if (!field || typeof value !== 'string') return value;
      if (field.type === 'product') return names.get(value) ?? value;
      if (field.type === 'severity') return sentIn.severity[value as Severity] ?? value;
      const option = field.type === 'select' ? field.options?.find((o) => o.value === value) : undefined;
      return option ? (stored.language === 'ja-JP' ? option.labels?.['ja-JP'] ?? option.label : option.label) : value;
    };
    const path = `${LIST_PATH}/${stored.reference}`;
    const chrome = await kit.chrome(request, { title: t.requests.detailTitle(stored.reference), path });
    const shownIn = stringsFor(chrome.lang).supportForm;
    const staff = reader.visitor.staff;
    const fileHref = (id: number) => pathFor(access, `/attachments/${id}`);
    const model: RequestDetailModel = {
      chrome,
      listHref: staff && !canReadAsOwner(reader, stored) ? '/staff/requests' : LIST_PATH,
      notice: extra.notice,
      viaLink: access.as === 'link',
      comments: comments.map((c) => ({
        id: c.id, author: c.author, name: c.name, body: c.body, at: c.createdAt.toISOString(),
        attachments: c.attachments.map((a) => ({ id: a.id, filename: a.filename, size: a.size, href: fileHref(a.id) })),
      })),
      replyForm: {
        action: `${path}/comments`, csrf: app.formTokens.issue(`request-reply:${stored.reference}`), submissionKey: randomUUID(),
        linkKey: access.as === 'link' ? app.requestLinks.key(stored.reference) : undefined,
        filesHelp: rules.maxFiles > 0 ? stringsFor(chrome.lang).supportForm.filesHelp(rules.maxFiles, sizeText(rules.maxBytes), rules.types.join(', ')) : undefined,
        accept: rules.types.map((x) => `.${x}`).join(','),
        maxLength: MAX_REPLY_LENGTH, errors: extra.replyErrors, body: extra.replyBody, closed: stored.status === 'closed',
      },
      request: {
        reference: stored.reference, subject: stored.subject, status: stored.status,
        product: stored.product ? names.get(stored.product) ?? stored.product : undefined,
        version: stored.version ?? undefined,
        severity: stored.severity ? shownIn.severity[stored.severity as Severity] ?? stored.severity : undefined,
        name: stored.name, email: stored.email, formId: stored.formId, language: stored.language,
        createdAt: stored.createdAt.toISOString(), updatedAt: stored.updatedAt.toISOString(),
        fields: Object.entries(stored.fields).map(([name, value]) => ({ name, label: labelOf(name), value: valueOf(name, value) })),
        context: Object.entries(stored.context).filter(([, v]) => typeof v === 'string' && v !== '').map(([key, value]) => ({ key, value: String(value) })),
        attachments: attachments.map((a) => ({ id: a.id, filename: a.filename, size: a.size, href: fileHref(a.id) })),
        history: updates.map((u) => ({ status: u.status, note: u.note, source: u.source, at: u.createdAt.toISOString() })),
      },
      delivery: staff
        ? (await listDeliveries(app.db, stored.reference)).map((d) => ({
            // Errors are the receiver's words: kept short on the page.
            channel: d.channel, state: d.state, attempts: d.attempts, lastError: d.lastError?.slice(0, 300) ?? undefined,
            deliveredAt: d.deliveredAt?.toISOString(),
          }))
        : undefined,
      statusForm: staff
        ? {
            action: `${path}/status`, csrf: app.formTokens.issue(`request-status:${stored.reference}`),
            statuses: [...REQUEST_STATUSES], error: extra.statusError, errorField: extra.errorField, note: extra.note,
          }
        : undefined,
    };
    return reply.page(<RequestDetailPage {...model} />, { status: extra.status ?? 200, cache: 'private' });
  }

  type Access = { stored: StoredRequest; as: 'owner' | 'staff' | 'contact' | 'link' };

  const canReadAsOwner = (reader: Reader, stored: StoredRequest) => canRead({ ...reader, visitor: { ...reader.visitor, staff: false } }, stored);

  const notices: Record<string, string> = { status: t.requests.statusSaved, reply: t.requests.replySent, reopened: t.requests.replyReopened };
  app.get<{ Params: { reference: string }; Querystring: { done?: string; key?: string } }>(`${LIST_PATH}/:reference`, async (request, reply) => {
    const reader = await readerOf(app, request, config);
    const access = await accessOf(reader, request.params.reference, request.query.key);
    if (!access) return kit.requestNotFound(request, reply, reader);
    // The list marks what changed since the account last opened the request.
    if (reader.accountId && (access.as === 'owner' || access.as === 'contact')) await app.supportRequests.markSeen(reader.accountId, access.stored.reference);
    const done = request.query.done;
    return detail(request, reply, reader, access, done && Object.hasOwn(notices, done) ? { notice: notices[done] } : {});
  });

  // A reply (post/redirect/get), by whoever may read the request; the same limits and checks on its
  // files as the forms'. Nothing is stored unless all of it is.
  app.post<{ Params: { reference: string }; Querystring: { key?: string } }>(`${LIST_PATH}/:reference/comments`, {
    bodyLimit: 256 * 1024, config: { stateChanging: { crossSiteMessage: 'Replies can only be sent from this site.' } },
  }, async (request, reply) => {
    const reader = await readerOf(app, request, config);
    const read = await readReply(request, rules, stringsFor('en').supportForm.errors);
    const access = await accessOf(reader, request.params.reference, read.fields.key ?? request.query.key);
    if (!access) return kit.requestNotFound(request, reply, reader);
    const { stored } = access;
    const strings = t.requests;
    const body = (read.fields.body ?? '').replace(/\r\n?/g, '\n').trim();
    const again = (status: number, errors: NonNullable<ReplyForm['errors']>) =>
      detail(request, reply, reader, access, { status, replyErrors: errors, replyBody: body });
    if (!app.formTokens.verify(`request-reply:${stored.reference}`, read.fields._csrf)) {
      return again(403, [{ field: 'form', message: strings.replyExpired }]);
    }
    if (stored.status === 'closed') return again(409, [{ field: 'form', message: strings.replyClosed }]);
    const messages: Record<ReplyProblem, string> = {
      required: strings.replyRequired, tooLong: strings.replyTooLong(MAX_REPLY_LENGTH), control: strings.replyControl,
    };
    const errors: NonNullable<ReplyForm['errors']> = [
      ...read.bodyProblems(body).map((p) => ({ field: 'body' as const, message: messages[p] })),
      ...read.fileErrors.map((message) => ({ field: 'files' as const, message })),
    ];
    if (errors.length > 0) return again(422, errors);
    const author = access.as === 'staff' ? 'staff' : access.as === 'contact' ? 'contact' : 'requester';
    const name = author === 'requester' ? stored.name : request.user?.name ?? '';
    const key = read.fields.submissionKey;
    const saved = await app.supportRequests.addComment({
      reference: stored.reference, author, accountId: reader.accountId, name, body, attachments: read.attachments,
      submissionKey: key && /^[A-Za-z0-9-]{16,64}$/.test(key) ? key : undefined,
    });
    if (!saved) return kit.requestNotFound(request, reply, reader);
    // Their own reply is no news to them: the list does not mark it.
    if (reader.accountId && (access.as === 'owner' || access.as === 'contact')) await app.supportRequests.markSeen(reader.accountId, stored.reference);
    request.log.info({ reference: stored.reference, comment: saved.id, author, files: read.attachments.length,
      duplicate: saved.duplicate, reopened: saved.reopened }, saved.duplicate ? 'request reply sent again; stored once' : 'request reply stored');
    return reply.redirect(`${pathFor(access, '', { done: saved.reopened ? 'reopened' : 'reply' })}#comment-${saved.id}`, 303);
  });

  // Attachments download, never display inline: a file a visitor sent is not a page of this site.
  app.get<{ Params: { reference: string; id: string }; Querystring: { key?: string } }>(`${LIST_PATH}/:reference/attachments/:id`, async (request, reply) => {
    const reader = await readerOf(app, request, config);
    const stored = (await accessOf(reader, request.params.reference, request.query.key))?.stored;
    const id = /^[1-9][0-9]{0,14}$/.test(request.params.id) ? Number(request.params.id) : undefined;
    const file = stored && id !== undefined ? await app.supportRequests.attachment(stored.reference, id) : undefined;
    if (!stored || !file) return kit.requestNotFound(request, reply, reader);
    request.log.info({ reference: stored.reference, attachment: file.id }, 'attachment downloaded');
    return reply.headers(attachmentHeaders(file.filename, file.contentType)).send(file.data);
  });

  // Staff set a status from the request's page (post/redirect/get); to anybody else there is no such form.
  app.post<{ Params: { reference: string } }>(`${LIST_PATH}/:reference/status`, {
    bodyLimit: 32 * 1024, config: { stateChanging: true },
  }, async (request, reply) => {
    const reader = await readerOf(app, request, config);
    const access = reader.visitor.staff ? await accessOf(reader, request.params.reference, undefined) : undefined;
    if (!access) return kit.requestNotFound(request, reply, reader);
    const { stored } = access;
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    const status = typeof body.status === 'string' ? body.status : '';
    const note = typeof body.note === 'string' ? body.note.trim() : '';
    const strings = t.requests;
    if (!app.formTokens.verify(`request-status:${stored.reference}`, body._csrf)) {
      return detail(request, reply, reader, access, { status: 403, statusError: strings.formExpired, note });
    }
    if (!isRequestStatus(status)) return detail(request, reply, reader, access, { status: 422, statusError: strings.statusError, errorField: 'status', note });
    if (note.length > MAX_NOTE_LENGTH) return detail(request, reply, reader, access, { status: 422, statusError: strings.noteTooLong, errorField: 'note', note });
    await app.supportRequests.setStatus(stored.reference, status, note, 'staff');
    request.log.info({ reference: stored.reference, status, source: 'staff' }, 'request status set');
    return reply.redirect(`${LIST_PATH}/${stored.reference}?done=status`, 303);
  });

  await app.register(namedContactRoutes, { config, kit });
  await app.register(staffRoutes, { config, kit });
  await app.register(helpdeskApi, { config });
}
