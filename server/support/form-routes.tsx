/**
 * The support forms' POSTs and their confirmation (issue 'Forms that work without JavaScript', 'Errors
 * and safety'): every form posts to its own page's path. Invalid input comes back 422 with every value
 * kept; a refusal (expired form, honeypot, rate limit, a reused key, the database away) comes back with
 * what was typed and says what happened; a stored request answers 303 to a confirmation page that shows
 * its reference. Nothing is acknowledged that was not committed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { Config } from '../config.ts';
import { HttpError } from '../http/http-error.ts';
import { loaderContext } from '../pages/loaders/shared.ts';
import { databaseStore } from '../plugins/rate-limit.ts';
import { SupportFormPage, type SupportFormModel, VISIT_FIELD } from '../../views/pages/support/support-form-page.tsx';
import { RequestSentPage } from '../../views/pages/support/request-sent-page.tsx';
import { stringsFor } from '../../views/i18n/catalogue.tsx';
import { SubmissionKeyConflict, type NewAttachment, type NewRequest } from './store.ts';
import { checkForm, one, type FieldError, type Posted } from './forms/validate.ts';
import { fileProblem, sizeText, storedAttachment } from './forms/attachments.ts';
import {
  aboutOf, formPageModel, langOf, prepare, targetOf, REPORT_PROBLEM_FORM, REPORT_PROBLEM_PATH,
  type FormState, type FormTarget, type Prepared,
} from './forms/page.tsx';
import { formsById } from './forms/definition.ts';
import { FIXED_PATHS, FORM_PAGE_TYPES } from '../content/resolve.ts';

/** Where the confirmation lives: /request-sent/{reference}?token=… */
export const SENT_PATH = '/request-sent';
const HOUR_MS = 60 * 60 * 1000;
export const URLENCODED_LIMIT = 512 * 1024;
/** A submission key as the form page makes them (a UUID), or anything of that shape and size. */
const SUBMISSION_KEY = /^[A-Za-z0-9-]{16,64}$/;

interface ParsedBody {
  posted: Posted;
  attachments: NewAttachment[];
  fileErrors: FieldError[];
  /** Whether files were chosen: they must be chosen again when the form comes back. */
  hadFiles: boolean;
}

/** A multipart body refused part-way (a file too many, or too large): what was read before the refusal. */
class CutShort extends Error {
  constructor(readonly body: ParsedBody) {
    super('multipart body refused part-way');
  }
}

/** An answer given before the body was read to its end: the connection cannot carry another request. */
const CLOSE = { connection: 'close' };
/** Room for each file part's own head (name, file name, type) and its boundary. */
const PART_HEAD_BYTES = 1024;

export default async function formRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const ctx = loaderContext(app, config);
  const rules = { maxFiles: config.attachmentMaxFiles, maxBytes: config.attachmentMaxBytes, types: config.attachmentTypes };
  // Busboy's limits bound each part (one file more than allowed is let through, to be named in the
  // refusal); the body as a whole is bounded by multipartLimit: the files it may hold and the fields an
  // urlencoded form may have.
  await app.register(multipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: rules.maxBytes, files: rules.maxFiles + 1, fields: 60, fieldSize: 100_000, parts: 80, headerPairs: 100 },
  });
  const multipartLimit = rules.maxFiles * (rules.maxBytes + PART_HEAD_BYTES) + URLENCODED_LIMIT;
  const tooLarge = () => new HttpError(413, 'BODY_TOO_LARGE',
    `This form is larger than ${sizeText(multipartLimit)}, the most a support request can be; attach fewer or smaller files.`, CLOSE);
  // The rate limiter's database counters (server/plugins/rate-limit.ts), per client network and per account.
  const Counter = databaseStore(app.db, app.log);
  const counter = new Counter();
  const count = (key: string) => new Promise<{ current: number; ttl: number }>((resolve) => {
    counter.incr(key, (_error, result) => resolve(result ?? { current: 0, ttl: 0 }), HOUR_MS);
  });

  /** The form page at a path, or a 405/404 as for any page without a POST. */
  async function targetAt(request: FastifyRequest): Promise<FormTarget> {
    const path = (request.url.split('?')[0] ?? '/').replace(/(.)\/+$/, '$1');
    if (path === REPORT_PROBLEM_PATH) return reportTarget(request);
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      decoded = path;
    }
    const entry = await app.content.byPath(decoded, { preview: false });
    const target = entry?.type === 'page' ? targetOf(entry) : undefined;
    if (target) return target;
    if (entry) throw new HttpError(405, 'METHOD_NOT_ALLOWED', 'POST is not allowed here; use GET or HEAD', { allow: 'GET, HEAD' });
    throw new HttpError(404, 'NOT_FOUND', 'There is no form at this address.');
  }

  async function reportTarget(request: FastifyRequest): Promise<FormTarget> {
    const page = (request.query as { page?: unknown }).page ?? (request.body as Posted | undefined)?.page;
    // The report's page is in the language of the page it is about.
    const entry = typeof page === 'string' && page.startsWith('/') && !page.startsWith('//')
      ? await app.content.byPath(page.split(/[?#]/)[0] as string, { preview: false }) : undefined;
    const language = entry?.language ?? 'en-US';
    const form = (await formsById(app)).get(REPORT_PROBLEM_FORM);
    const lang = langOf(language);
    return {
      kind: 'reportProblem', formId: REPORT_PROBLEM_FORM, path: REPORT_PROBLEM_PATH, language,
      title: form ? (lang === 'ja' ? form.titles?.['ja-JP'] ?? form.title : form.title) : stringsFor(lang).supportForm.reportProblem,
    };
  }

  async function chromeFor(request: FastifyRequest, target: FormTarget) {
    return target.entry
      ? ctx.chromeOf(request, target.entry, false)
      : ctx.chrome(request, { title: target.title, path: target.path, language: target.language, preview: false });
  }

  /** The form page again: with what was sent and why it was not stored. */
  async function again(request: FastifyRequest, reply: FastifyReply, target: FormTarget, prepared: Prepared, status: number,
    state: FormState, about: Awaited<ReturnType<typeof aboutOf>>, headers: Record<string, string> = {}) {
    const chrome = await chromeFor(request, target);
    const extra: Partial<SupportFormModel> = target.kind === 'partnerContact' ? { partnerPortalHref: chrome.siteLinks.partnerPortal } : {};
    const model = await formPageModel(app, request, chrome, target, prepared, about, state, config, extra);
    // Error statuses are made no-store by the cache rules; the page is this visitor's alone either way.
    return reply.headers(headers).page(<SupportFormPage {...model} />, { status, cache: 'private' });
  }

  /**
   * The form's fields and files from a multipart body, refusing at once what no form of ours sends: a
   * file in a field that is not the form's file field, a file more than it takes, a file over its size,
   * a body over its bound. Those are answered before the rest of the body is read and the connection is
   * closed, so a body that never ends cannot hold the request open (issue 25 item 1); REQUEST_TIMEOUT_MS
   * cuts a body that stalls anywhere else.
   */
  async function readBody(request: FastifyRequest, prepared: Prepared, lang: 'en' | 'ja'): Promise<ParsedBody> {
    if (!request.isMultipart()) return { posted: (request.body ?? {}) as Posted, attachments: [], fileErrors: [], hadFiles: false };
    const t = stringsFor(lang).supportForm;
    const fileField = prepared.shown.fields.find((f) => f.type === 'file');
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > multipartLimit) throw tooLarge();
    const posted: Posted = {};
    const attachments: NewAttachment[] = [];
    const refused: string[] = [];
    let hadFiles = false;
    let tooMany = false;
    // The first refusal ends the reading: every wait below is raced against it.
    let stop: (error: Error) => void = () => {};
    const stopped = new Promise<never>((_resolve, reject) => (stop = reject));
    stopped.catch(() => {});
    const until = <T,>(work: Promise<T>) => Promise.race([work, stopped]);
    let bytes = 0;
    const count = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > multipartLimit) stop(tooLarge());
    };
    request.raw.on('data', count);
    const cutShort = (messages: string[]) => new CutShort({ posted, attachments, hadFiles: true, fileErrors: fileField ? [{ field: fileField.name, message: messages.join('. ') }] : [] });
    try {
      const parts = request.parts()[Symbol.asyncIterator]();
      for (let next = await until(parts.next()); !next.done; next = await until(parts.next())) {
        const part = next.value;
        if (part.type === 'field') {
          const value = typeof part.value === 'string' ? part.value : '';
          const before = posted[part.fieldname];
          posted[part.fieldname] = before === undefined ? value : [...[before].flat(), value];
          continue;
        }
        if (!part.filename) {
          // An empty file input: no file chosen. Its part is empty, so this read ends with the part.
          await until(part.toBuffer());
          continue;
        }
        hadFiles = true;
        if (!fileField) throw new HttpError(400, 'FILE_NOT_ALLOWED', 'This form takes no files; send it without any.', CLOSE);
        if (part.fieldname !== fileField.name) {
          throw new HttpError(400, 'FILE_NOT_ALLOWED', `“${part.fieldname}” is not a file field; files go in “${fileField.name}”.`, CLOSE);
        }
        if (attachments.length + refused.length >= rules.maxFiles) throw cutShort([...refused, t.errors.tooManyFiles(rules.maxFiles, part.filename)]);
        // Busboy may have met the limit before the part reached this loop (the whole file came in one
        // chunk): its 'limit' event is gone, but the stream says so.
        if (part.file.truncated) throw cutShort([...refused, t.errors.fileTooLarge(part.filename, sizeText(rules.maxBytes))]);
        const tooBig = new Promise<never>((_resolve, reject) => part.file.once('limit', () => reject(cutShort([...refused, t.errors.fileTooLarge(part.filename, sizeText(rules.maxBytes))]))));
        tooBig.catch(() => {});
        const data = await until(Promise.race([part.toBuffer(), tooBig]));
        if (part.file.truncated) throw cutShort([...refused, t.errors.fileTooLarge(part.filename, sizeText(rules.maxBytes))]);
        const problem = fileProblem(part.filename, data, rules);
        if (problem === 'type') refused.push(t.errors.fileType(part.filename, rules.types.join(', ')));
        else if (problem === 'mismatch') refused.push(t.errors.fileMismatch(part.filename));
        else attachments.push(storedAttachment(part.filename, data));
      }
    } catch (error) {
      if (error instanceof HttpError || error instanceof CutShort) throw error;
      // Nobody is left to answer (the body was cut at its deadline, or the client went away).
      if (request.raw.destroyed) throw error;
      // More parts than any form of ours has: the rest are not read.
      request.log.info({ err: error }, 'support form: multipart body cut short');
      tooMany = true;
    } finally {
      request.raw.off('data', count);
    }
    const messages = [...refused];
    if (tooMany) messages.push(t.errors.tooManyFiles(rules.maxFiles, '…'));
    const fileErrors = messages.length > 0 && fileField ? [{ field: fileField.name, message: messages.join('. ') }] : [];
    return { posted, attachments, fileErrors, hadFiles };
  }

  /**
   * The rest of a body refused for its files (one too many, one too large) when its length was
   * declared, as a browser declares it: read and dropped, so the person still sending gets the form
   * back with the reason rather than a connection reset. It is bounded by that length (at most
   * multipartLimit, checked before reading) and by REQUEST_TIMEOUT_MS, which ends a body that stalls.
   * A chunked body (no browser sends a form so) is answered at once, as `readBody` says.
   */
  async function drainDeclared(request: FastifyRequest): Promise<void> {
    const raw = request.raw;
    if (request.headers['content-length'] === undefined || raw.readableEnded || raw.destroyed) return;
    raw.unpipe();
    await new Promise<void>((resolve) => {
      raw.once('end', resolve).once('close', resolve).once('error', resolve);
      raw.resume();
    });
  }

  async function submit(request: FastifyRequest, reply: FastifyReply) {
    const target = await targetAt(request);
    const prepared = await prepare(app, request, target, config);
    if (!prepared) throw new HttpError(404, 'NOT_FOUND', 'There is no form at this address.');
    const lang = langOf(target.language);
    const t = stringsFor(lang).supportForm;
    let body: ParsedBody;
    try {
      body = await readBody(request, prepared, lang);
    } catch (error) {
      if (!(error instanceof CutShort)) throw error;
      // Only the files' refusal: the form's other checks wait for the whole form, which was not read.
      await drainDeclared(request);
      const { posted } = error.body;
      const about = await aboutOf(app, posted.page, posted.reason, posted.search);
      const { values } = checkForm(prepared.shown, posted, prepared.products, t);
      return again(request, reply, target, prepared, 422, { values, chooseFilesAgain: true, errors: error.body.fileErrors }, about, CLOSE);
    }
    const { posted } = body;
    const about = await aboutOf(app, posted.page, posted.reason, posted.search);
    const chooseFilesAgain = body.hadFiles;
    const user = prepared.signedIn ? request.user : undefined;
    const checked = checkForm(prepared.shown, posted, prepared.products, t);
    const keep = { values: checked.values, chooseFilesAgain };
    // Hot contact is for signed-in customers (spec §6): the sign-in prompt again.
    if (target.kind === 'hotContact' && !user) return again(request, reply, target, prepared, 403, {}, about);
    const submission = one(posted, 'submission');
    if (!app.formTokens.verify(`support:${prepared.shown.id}`, one(posted, '_csrf')) || !SUBMISSION_KEY.test(submission)) {
      request.log.info({ form: prepared.shown.id }, 'support form refused: expired or missing form token');
      return again(request, reply, target, prepared, 403, { ...keep, notice: t.refused.expired }, about);
    }
    // The honeypot: people never see it, so whatever filled it is not a person. Refused without storing,
    // in words that do not say why; a person whose browser filled it can send again (it comes back empty).
    if (one(posted, 'website') !== '') {
      request.log.info({ form: prepared.shown.id }, 'support form refused: honeypot filled');
      return again(request, reply, target, prepared, 422, { ...keep, notice: t.refused.honeypot }, about);
    }
    const errors = [...checked.errors, ...body.fileErrors];
    if (errors.length > 0) {
      // In the form's order, so the summary reads as the form does.
      const order = prepared.shown.fields.map((f) => f.name);
      errors.sort((a, b) => order.indexOf(a.field) - order.indexOf(b.field));
      return again(request, reply, target, prepared, 422, { ...keep, errors }, about);
    }
    // REQUEST_RATE_LIMIT per hour, per client network and per account: counted for requests about to be
    // stored, not for a form sent again (a reload, a double click), which finds the request it made.
    const resent = await app.supportRequests.hasSubmission(submission).catch(() => false);
    const counts = resent ? [] : await Promise.all([
      count(`support-request:network:${app.visitorIds.networkKey(request.ip)}`),
      ...(user ? [count(`support-request:account:${user.sub}`)] : []),
    ]);
    const over = counts.filter((c) => c.current > config.requestRateLimit);
    if (over.length > 0) {
      const waitMs = Math.max(...over.map((c) => c.ttl));
      const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
      request.log.info({ form: prepared.shown.id }, 'support form refused: rate limit');
      return again(request, reply, target, prepared, 429, { ...keep, notice: t.refused.rateLimited(minutes) }, about,
        { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
    }
    const fields = { ...checked.clean };
    const valueOf = (type: string) => {
      const field = prepared.shown.fields.find((f) => f.type === type);
      const value = field ? fields[field.name] : undefined;
      return typeof value === 'string' ? value : undefined;
    };
    const email = user ? user.email : valueOf('email') ?? '';
    const nameField = prepared.shown.fields.find((f) => f.name === 'name' && f.type === 'text');
    const name = user ? user.name : (nameField && typeof fields[nameField.name] === 'string' ? fields[nameField.name] as string : '');
    for (const f of prepared.shown.fields) if (f.type === 'email' || f === nameField) delete fields[f.name];
    const subjectField = prepared.shown.subjectField;
    const subject = subjectField && typeof fields[subjectField] === 'string'
      ? fields[subjectField] as string
      : [prepared.shown.title, about.context.pageUrl].filter(Boolean).join(': ');
    const productId = valueOf('product');
    const request_: NewRequest = {
      formId: prepared.shown.id,
      kind: target.kind,
      submissionKey: submission,
      accountId: user?.sub,
      email,
      name,
      partner: target.kind === 'partnerContact',
      subject,
      product: productId,
      version: valueOf('version'),
      severity: valueOf('severity'),
      fields,
      context: { ...about.context, host: request.hostname },
      language: target.language,
      attachments: body.attachments,
    };
    let stored: { reference: string; duplicate: boolean };
    try {
      stored = await app.supportRequests.create(request_);
    } catch (error) {
      if (error instanceof SubmissionKeyConflict) {
        request.log.info({ form: prepared.shown.id }, 'support form refused: submission key used for another request');
        return again(request, reply, target, prepared, 409, { ...keep, notice: t.refused.conflict }, about);
      }
      // Not stored, so not acknowledged: the form comes back with everything typed (issue 'Errors and safety').
      request.log.error({ err: error, form: prepared.shown.id }, 'support request not stored');
      return again(request, reply, target, prepared, 503, { ...keep, notice: t.refused.unavailable }, about, { 'retry-after': '5' });
    }
    request.log.info({ reference: stored.reference, form: prepared.shown.id, kind: target.kind, duplicate: stored.duplicate,
      attachments: request_.attachments.length, signedIn: Boolean(user) }, 'support request stored');
    if (!stored.duplicate) {
      app.analytics.record(request, {
        type: 'support_request', path: about.context.pageUrl ?? request.url, key: prepared.shown.id, product: productId ?? '',
        term: about.search ?? '', sessionId: one(posted, VISIT_FIELD) || null,
      });
    }
    const token = app.formTokens.issue(`sent:${stored.reference}`);
    return reply.header('cache-control', 'no-store').redirect(`${SENT_PATH}/${stored.reference}?token=${encodeURIComponent(token)}`, 303);
  }

  const routeOptions = {
    // An urlencoded form: its longest text (20 000 characters, up to 9 bytes each percent-encoded) and
    // the rest. A multipart body is bounded by multipartLimit above instead (its files and fields).
    bodyLimit: URLENCODED_LIMIT,
    config: { stateChanging: { crossSiteMessage: 'Support requests can only be sent from this site.' } },
  };
  // Every form posts to its own page: a form page lives at its type's path, or under a language segment
  // (/ja/contact), which the import checks; any other page at these paths answers 405 as before.
  for (const type of FORM_PAGE_TYPES) {
    const path = FIXED_PATHS[type as keyof typeof FIXED_PATHS] as string;
    app.post(path, routeOptions, submit);
    app.post(`/:locale${path}`, routeOptions, submit);
  }
  app.post(REPORT_PROBLEM_PATH, routeOptions, submit);

  // The report-a-problem page (spec §7 issue collector): ?page= names the page it is about.
  app.get<{ Querystring: { page?: string } }>(REPORT_PROBLEM_PATH, async (request, reply) => {
    const target = await reportTarget(request);
    const prepared = await prepare(app, request, target, config);
    if (!prepared) throw new HttpError(404, 'NOT_FOUND', 'There is no form at this address.');
    const about = await aboutOf(app, request.query.page, undefined);
    const chrome = await chromeFor(request, target);
    const model = await formPageModel(app, request, chrome, target, prepared, about, {}, config);
    return reply.page(<SupportFormPage {...model} />, { cache: 'private' });
  });

  // The confirmation: for whoever holds the signed link the POST answered with (anonymous visitors
  // too), for about two hours; and for the signed-in owner. Anyone else gets the not-found page.
  app.get<{ Params: { reference: string }; Querystring: { token?: string } }>(`${SENT_PATH}/:reference`, async (request, reply) => {
    const { reference } = request.params;
    const byToken = app.formTokens.verify(`sent:${reference}`, request.query.token);
    const stored = /^[A-Z0-9]{1,10}-\d{1,12}$/.test(reference) ? await app.supportRequests.get(reference) : undefined;
    const owner = Boolean(stored && stored.accountId && request.user?.sub === stored.accountId);
    // Not found either way: a reference is not confirmed to exist without the link or the account.
    if (!stored || !(byToken || owner)) throw new HttpError(404, 'NOT_FOUND', 'There is no such page.');
    const chrome = await ctx.chrome(request, { title: stringsFor(langOf(stored.language)).supportForm.sentTitle, path: null, language: stored.language, preview: false });
    const signedIn = Boolean(request.user?.sub);
    return reply.page(
      <RequestSentPage chrome={chrome} reference={stored.reference} subject={stored.subject}
        email={stored.email || undefined} report={stored.kind === 'reportProblem'}
        requestHref={owner && signedIn ? `/requests/${stored.reference}` : undefined}
        linkHref={`/requests/${stored.reference}?key=${app.requestLinks.key(stored.reference)}`}
        pageHref={stored.context.pageUrl} homeHref={chrome.lang === 'ja' ? '/ja' : '/'} />,
      { cache: 'private' },
    );
  });
}
