/**
 * Support requests in the database (migration 8): a request, its attachments and its first history
 * line are written with one outbox row per configured delivery channel in a single transaction, so
 * nothing is acknowledged that was not stored and nothing stored is left undelivered. Reading is by
 * reference, by account, or (staff) across all requests with filters.
 */
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/driver.ts';

/** The page a request was sent from (spec §2 contact and other form pages), plus report-a-problem. */
export type RequestKind = 'contact' | 'hotContact' | 'partnerContact' | 'statusPageContact' | 'fileDownload' | 'reportProblem';

/**
 * Where a request is handed on: e-mail through SMTP_URL, a signed webhook to SUPPORT_WEBHOOK_URL; and
 * 'requester', the e-mail through SMTP_URL that tells the requester of a status change or an answer.
 */
export type Channel = 'email' | 'webhook' | 'requester';

/** A field's value as validated: text, the options picked, or a checkbox. */
export type FieldValue = string | string[] | boolean;

/** Where a request came from; every key optional. */
export interface RequestContext {
  /** The page the visitor asked about (report a problem, 'contact support about this page'). */
  pageUrl?: string;
  pageId?: string;
  productName?: string;
  /** The was-this-helpful reason that led here. */
  feedbackReason?: string;
  host?: string;
}

export interface NewAttachment {
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface NewRequest {
  formId: string;
  kind: RequestKind;
  /** The random key the rendered form carried (double submit, reload). */
  submissionKey: string;
  /** The signed-in account's id (the issuer's subject); undefined when anonymous. */
  accountId?: string | undefined;
  email: string;
  name: string;
  partner: boolean;
  subject: string;
  product?: string | undefined;
  version?: string | undefined;
  severity?: string | undefined;
  fields: Record<string, FieldValue>;
  context: RequestContext;
  language: string;
  attachments: NewAttachment[];
}

export interface StoredRequest {
  reference: string;
  formId: string;
  kind: RequestKind;
  accountId: string | null;
  email: string;
  name: string;
  partner: boolean;
  subject: string;
  product: string | null;
  version: string | null;
  severity: string | null;
  fields: Record<string, FieldValue>;
  context: RequestContext;
  language: string;
  status: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface AttachmentInfo {
  id: number;
  filename: string;
  contentType: string;
  size: number;
}

export interface RequestUpdate {
  status: string;
  note: string;
  source: 'visitor' | 'helpdesk' | 'staff';
  createdAt: Date;
}

/** Who wrote a reply: the requester, a named contact of the request's account, staff here, or the helpdesk. */
export type CommentAuthor = 'requester' | 'contact' | 'staff' | 'helpdesk';

export interface NewComment {
  reference: string;
  author: CommentAuthor;
  /** The signed-in account that wrote it; undefined for the helpdesk and for a link holder. */
  accountId?: string | undefined;
  name: string;
  body: string;
  /** The reply form's random key, or the helpdesk's id for the comment: sent twice, stored once. */
  submissionKey?: string | undefined;
  attachments: NewAttachment[];
}

export interface StoredComment {
  id: number;
  reference: string;
  author: CommentAuthor;
  accountId: string | null;
  name: string;
  body: string;
  createdAt: Date;
  attachments: AttachmentInfo[];
}

/** The same submission key came back with different contents: not a duplicate, and not to be merged. */
export class SubmissionKeyConflict extends Error {
  override name = 'SubmissionKeyConflict';
}

/** The NOTIFY channel a new delivery is announced on, so idle workers wake at once. */
export const DELIVERY_CHANNEL = 'support_deliveries';

export interface ListFilters {
  formId?: string | undefined;
  product?: string | undefined;
  status?: string | undefined;
  limit: number;
  offset: number;
}

type Row = {
  reference: string; form_id: string; kind: RequestKind; account_id: string | null; email: string; name: string;
  partner: boolean; subject: string; product: string | null; version: string | null; severity: string | null;
  fields: Record<string, FieldValue>; context: RequestContext; language: string; status: string;
  created_at: Date; updated_at: Date;
};

const COLUMNS = `reference, form_id, kind, account_id, email, name, partner, subject, product, version, severity,
  fields, context, language, status, created_at, updated_at`;

function fromRow(r: Row): StoredRequest {
  return {
    reference: r.reference, formId: r.form_id, kind: r.kind, accountId: r.account_id, email: r.email, name: r.name,
    partner: r.partner, subject: r.subject, product: r.product, version: r.version, severity: r.severity,
    fields: r.fields ?? {}, context: r.context ?? {}, language: r.language, status: r.status,
    createdAt: new Date(r.created_at), updatedAt: new Date(r.updated_at),
  };
}

/** A hash of what was sent, so a resent form is recognised and a reused key is not mistaken for it. */
export function fingerprintOf(request: NewRequest): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify([request.formId, request.accountId ?? null, request.email.toLowerCase(), request.subject,
    Object.entries(request.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]));
  for (const a of request.attachments) hash.update(`\0${a.filename}\0${a.data.length}\0`).update(a.data);
  return hash.digest('base64url');
}

export class RequestStore {
  constructor(
    private readonly db: Db,
    private readonly options: {
      /** REQUEST_REFERENCE_PREFIX. */
      prefix: string;
      /** The channels configured now: one outbox row each is written with a new request. */
      channels: () => Channel[];
      /** Whether requesters are told by e-mail of status changes and answers (SMTP_URL is set). */
      notify?: () => boolean;
    },
  ) {}

  /**
   * Stores a request with its attachments, history and deliveries, in one transaction. The same
   * submission key with the same contents is the same request (`duplicate: true`); with other
   * contents it is refused with SubmissionKeyConflict.
   */
  async create(request: NewRequest): Promise<{ reference: string; duplicate: boolean }> {
    const fingerprint = fingerprintOf(request);
    const channels = this.options.channels();
    return this.db.transaction(async (tx) => {
      const [inserted] = await tx.query<{ reference: string }>(
        `insert into support_requests (reference, form_id, kind, submission_key, fingerprint, account_id, email, name, partner,
           subject, product, version, severity, fields, context, language)
         values ($1 || '-' || nextval('support_request_numbers'), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
         on conflict (submission_key) do nothing
         returning reference`,
        [this.options.prefix, request.formId, request.kind, request.submissionKey, fingerprint, request.accountId ?? null,
          request.email, request.name, request.partner, request.subject, request.product ?? null, request.version ?? null,
          request.severity ?? null, JSON.stringify(request.fields), JSON.stringify(request.context), request.language],
      );
      if (!inserted) return existing(tx, request.submissionKey, fingerprint);
      const { reference } = inserted;
      for (const a of request.attachments) {
        await tx.query(
          `insert into support_request_attachments (reference, filename, content_type, size, data) values ($1, $2, $3, $4, $5)`,
          [reference, a.filename, a.contentType, a.data.length, a.data],
        );
      }
      await tx.query(`insert into support_request_updates (reference, status, source) values ($1, 'open', 'visitor')`, [reference]);
      if (channels.length > 0) {
        await tx.query(
          `insert into support_deliveries (reference, channel) select $1, c from unnest($2::text[]) as c`,
          [reference, channels],
        );
        // Delivered on commit only: a worker never wakes for a request that was rolled back.
        await tx.query(`select pg_notify($1, $2)`, [DELIVERY_CHANNEL, reference]);
      }
      return { reference, duplicate: false };
    });
  }

  /** Whether a request was stored with this submission key (a resent form is not counted against a limit again). */
  async hasSubmission(submissionKey: string): Promise<boolean> {
    const rows = await this.db.query<{ reference: string }>(`select reference from support_requests where submission_key = $1`, [submissionKey]);
    return rows.length > 0;
  }

  async get(reference: string): Promise<StoredRequest | undefined> {
    const [row] = await this.db.query<Row>(`select ${COLUMNS} from support_requests where reference = $1`, [reference]);
    return row ? fromRow(row) : undefined;
  }

  /**
   * An account's requests, newest first: those it sent signed in, and (when its address is verified)
   * those sent anonymously from that address. `partner` keeps only (true) or leaves out (false) the
   * requests sent as a partner.
   */
  async listForAccount(
    accountId: string,
    options: { verifiedEmail?: string | undefined; partner?: boolean | undefined; limit: number; offset: number },
  ): Promise<{ requests: StoredRequest[]; total: number }> {
    const where = `(account_id = $1 or (account_id is null and $2::text is not null and lower(email) = lower($2::text)))
      and ($3::boolean is null or partner = $3::boolean)`;
    const params = [accountId, options.verifiedEmail ?? null, options.partner ?? null];
    const rows = await this.db.query<Row>(
      `select ${COLUMNS} from support_requests where ${where} order by created_at desc, reference desc limit $4 offset $5`,
      [...params, options.limit, options.offset],
    );
    const [count] = await this.db.query<{ n: number }>(`select count(*)::int as n from support_requests where ${where}`, params);
    return { requests: rows.map(fromRow), total: count?.n ?? 0 };
  }

  /** Every request (staff), newest first, filtered by form, product and status. */
  async listAll(filters: ListFilters): Promise<{ requests: StoredRequest[]; total: number }> {
    const where = `($1::text is null or form_id = $1::text) and ($2::text is null or product = $2::text)
      and ($3::text is null or status = $3::text)`;
    const params = [filters.formId ?? null, filters.product ?? null, filters.status ?? null];
    const rows = await this.db.query<Row>(
      `select ${COLUMNS} from support_requests where ${where} order by created_at desc, reference desc limit $4 offset $5`,
      [...params, filters.limit, filters.offset],
    );
    const [count] = await this.db.query<{ n: number }>(`select count(*)::int as n from support_requests where ${where}`, params);
    return { requests: rows.map(fromRow), total: count?.n ?? 0 };
  }

  /** The values the staff list can filter by, with how many requests have each. */
  async facets(): Promise<{ formIds: string[]; products: string[]; statuses: string[] }> {
    const rows = await this.db.query<{ k: string; v: string }>(
      `select 'form' as k, form_id as v from support_requests group by form_id
       union all select 'product', product from support_requests where product is not null group by product
       union all select 'status', status from support_requests group by status`,
    );
    const of = (k: string) => rows.filter((r) => r.k === k).map((r) => r.v).sort();
    return { formIds: of('form'), products: of('product'), statuses: of('status') };
  }

  /** The files sent with the request itself (a reply's files are listed with the reply). */
  async attachments(reference: string): Promise<AttachmentInfo[]> {
    const rows = await this.db.query<{ id: string | number; filename: string; content_type: string; size: number }>(
      `select id, filename, content_type, size from support_request_attachments where reference = $1 and comment_id is null order by id`, [reference],
    );
    return rows.map((r) => ({ id: Number(r.id), filename: r.filename, contentType: r.content_type, size: r.size }));
  }

  async attachment(reference: string, id: number): Promise<(AttachmentInfo & { data: Buffer }) | undefined> {
    const [r] = await this.db.query<{ id: string | number; filename: string; content_type: string; size: number; data: Uint8Array }>(
      `select id, filename, content_type, size, data from support_request_attachments where reference = $1 and id = $2`, [reference, id],
    );
    return r ? { id: Number(r.id), filename: r.filename, contentType: r.content_type, size: r.size, data: Buffer.from(r.data) } : undefined;
  }

  async updates(reference: string): Promise<RequestUpdate[]> {
    const rows = await this.db.query<{ status: string; note: string; source: RequestUpdate['source']; created_at: Date }>(
      `select status, note, source, created_at from support_request_updates where reference = $1 order by created_at, id`, [reference],
    );
    return rows.map((r) => ({ status: r.status, note: r.note, source: r.source, createdAt: new Date(r.created_at) }));
  }

  /**
   * Stores a reply with its files and one delivery per channel (none for the helpdesk's own comments:
   * they came from it), in one transaction. A reply by the requester or a contact moves a request that
   * waits for the customer back to open. Undefined when there is no such request; the same submission
   * key again is the reply already stored (`duplicate: true`).
   */
  async addComment(comment: NewComment): Promise<{ id: number; duplicate: boolean; reopened: boolean } | undefined> {
    const channels = comment.author === 'helpdesk' ? [] : this.options.channels();
    return this.db.transaction(async (tx) => {
      const [request] = await tx.query<{ status: string }>(
        `select status from support_requests where reference = $1 for update`, [comment.reference],
      );
      if (!request) return undefined;
      const [inserted] = await tx.query<{ id: string | number }>(
        `insert into support_request_comments (reference, author, account_id, author_name, body, submission_key)
         values ($1, $2, $3, $4, $5, $6) on conflict (reference, submission_key) do nothing returning id`,
        [comment.reference, comment.author, comment.accountId ?? null, comment.name, comment.body, comment.submissionKey ?? null],
      );
      if (!inserted) {
        const [found] = await tx.query<{ id: string | number }>(
          `select id from support_request_comments where reference = $1 and submission_key = $2`, [comment.reference, comment.submissionKey],
        );
        return { id: Number(found?.id), duplicate: true, reopened: false };
      }
      const id = Number(inserted.id);
      for (const a of comment.attachments) {
        await tx.query(
          `insert into support_request_attachments (reference, comment_id, filename, content_type, size, data) values ($1, $2, $3, $4, $5, $6)`,
          [comment.reference, id, a.filename, a.contentType, a.data.length, a.data],
        );
      }
      const reopened = (comment.author === 'requester' || comment.author === 'contact') && request.status === 'waiting-for-customer';
      await tx.query(`update support_requests set updated_at = now()${reopened ? `, status = 'open'` : ''} where reference = $1`, [comment.reference]);
      if (reopened) {
        await tx.query(`insert into support_request_updates (reference, status, source) values ($1, 'open', 'visitor')`, [comment.reference]);
      }
      // The helpdesk hears of replies made here; the requester hears of answers from staff and the helpdesk.
      const to = [...channels, ...(this.notifies() && (comment.author === 'staff' || comment.author === 'helpdesk') ? ['requester'] : [])];
      if (to.length > 0) {
        await tx.query(
          `insert into support_deliveries (reference, channel, comment_id) select $1, c, $3 from unnest($2::text[]) as c`,
          [comment.reference, to, id],
        );
        await tx.query(`select pg_notify($1, $2)`, [DELIVERY_CHANNEL, comment.reference]);
      }
      return { id, duplicate: false, reopened };
    });
  }

  /** A request's replies, oldest first, each with its files. */
  async comments(reference: string): Promise<StoredComment[]> {
    const [rows, files] = await Promise.all([
      this.db.query<{ id: string | number; author: CommentAuthor; account_id: string | null; author_name: string; body: string; created_at: Date }>(
        `select id, author, account_id, author_name, body, created_at from support_request_comments where reference = $1 order by created_at, id`,
        [reference],
      ),
      this.db.query<{ id: string | number; comment_id: string | number; filename: string; content_type: string; size: number }>(
        `select id, comment_id, filename, content_type, size from support_request_attachments
          where reference = $1 and comment_id is not null order by id`, [reference],
      ),
    ]);
    return rows.map((r) => ({
      id: Number(r.id), reference, author: r.author, accountId: r.account_id, name: r.author_name, body: r.body,
      createdAt: new Date(r.created_at),
      attachments: files.filter((f) => Number(f.comment_id) === Number(r.id))
        .map((f) => ({ id: Number(f.id), filename: f.filename, contentType: f.content_type, size: f.size })),
    }));
  }

  /**
   * Records a status from the helpdesk or staff; false when there is no such request. The requester is
   * told by e-mail (one delivery, in the same transaction) when the status changed or a note came with it.
   */
  async setStatus(reference: string, status: string, note: string, source: RequestUpdate['source']): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<{ before: string }>(`select status as before from support_requests where reference = $1 for update`, [reference]);
      if (!row) return false;
      await tx.query(`update support_requests set status = $2, updated_at = now() where reference = $1`, [reference, status]);
      const [update] = await tx.query<{ id: string | number }>(
        `insert into support_request_updates (reference, status, note, source) values ($1, $2, $3, $4) returning id`,
        [reference, status, note, source],
      );
      if (this.notifies() && source !== 'visitor' && (row.before !== status || note !== '')) {
        await tx.query(`insert into support_deliveries (reference, channel, update_id) values ($1, 'requester', $2)`, [reference, update!.id]);
        await tx.query(`select pg_notify($1, $2)`, [DELIVERY_CHANNEL, reference]);
      }
      return true;
    });
  }

  private notifies(): boolean {
    return this.options.notify?.() ?? false;
  }

  /** The account opened the request's page now: the list stops marking it as changed. */
  async markSeen(accountId: string, reference: string): Promise<void> {
    await this.db.query(
      `insert into support_request_views (account_id, reference) values ($1, $2)
       on conflict (account_id, reference) do update set seen_at = now()`, [accountId, reference],
    );
  }

  /** Which of these requests changed since the account last opened them (or since they were sent, if never). */
  async changedSince(accountId: string, references: string[]): Promise<Set<string>> {
    if (references.length === 0) return new Set();
    const rows = await this.db.query<{ reference: string }>(
      `select r.reference from support_requests r
         left join support_request_views v on v.account_id = $1 and v.reference = r.reference
        where r.reference = any($2::text[]) and r.updated_at > coalesce(v.seen_at, r.created_at)`,
      [accountId, references],
    );
    return new Set(rows.map((r) => r.reference));
  }
}

async function existing(tx: Queryable, submissionKey: string, fingerprint: string): Promise<{ reference: string; duplicate: boolean }> {
  const [row] = await tx.query<{ reference: string; fingerprint: string }>(
    `select reference, fingerprint from support_requests where submission_key = $1`, [submissionKey],
  );
  if (!row || row.fingerprint !== fingerprint) throw new SubmissionKeyConflict('this submission key was used for another request');
  return { reference: row.reference, duplicate: true };
}
