/**
 * The delivery outbox (support_deliveries, migration 8): one row per request and channel, written with
 * the request. A worker claims due rows for a lease in a short transaction (FOR UPDATE SKIP LOCKED, so
 * workers on any number of instances never take the same row), delivers outside it, then records the
 * outcome. Every outcome is recorded only while the claim is still the worker's own: a row whose lease
 * ran out and was claimed again (its attempts moved on) is left to the worker that holds it now.
 */
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../../db/driver.ts';
import type { Channel, RequestUpdate, StoredComment, StoredRequest } from '../store.ts';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** A row claimed by a worker: delivered under its lease, then marked with `attempts` as the claim's proof. */
export interface ClaimedDelivery {
  id: number;
  reference: string;
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  /** How many files the request (or the reply) has (none to read when 0). */
  files?: number;
  /** The reply this delivery hands on; undefined for the request itself. */
  commentId?: number | undefined;
  /** The status change the requester is told of ('requester' channel). */
  updateId?: number | undefined;
}

/** Where one channel's delivery of a request stands (shown to staff). */
export interface DeliveryStatus {
  channel: Channel;
  state: DeliveryState;
  attempts: number;
  lastError: string | null;
  deliveredAt: Date | null;
  /** When a pending delivery is tried next. */
  nextAttemptAt: Date | null;
}

/** An attachment as handed on: the stored bytes and their SHA-256, so a receiver can check what it got. */
export interface OutgoingAttachment {
  id: number;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
  data: Buffer;
}

/** A reply as handed on, with its own files. */
export interface OutgoingComment extends Omit<StoredComment, 'attachments'> {
  attachments: OutgoingAttachment[];
}

/**
 * What a channel delivers: the stored request and its files, or, for a reply, the request (without its
 * files, delivered before) and the reply with the reply's files.
 */
export interface OutgoingRequest extends StoredRequest {
  attachments: OutgoingAttachment[];
  comment?: OutgoingComment | undefined;
  /** The status change the requester is told of. */
  update?: (RequestUpdate & { id: number }) | undefined;
}

/** The longest last_error kept: enough to tell what went wrong, short enough for a staff table. */
const MAX_ERROR_LENGTH = 500;

/** Error texts of other servers may quote addresses; they are kept out of the table (and so of any page). */
export function redactAddresses(text: string): string {
  return text.replace(/[^\s<>"'(),;:]+@[^\s<>"'(),;:]+/g, '[address]').slice(0, MAX_ERROR_LENGTH);
}

/**
 * A request's deliveries, e-mail first: where each channel stands, for the staff's view of a request.
 * Empty when no channel was configured when the request was stored.
 */
export async function listDeliveries(db: Queryable, reference: string): Promise<DeliveryStatus[]> {
  const rows = await db.query<{
    channel: Channel; state: DeliveryState; attempts: number; last_error: string | null; delivered_at: Date | null; next_attempt_at: Date;
  }>(
    `select channel, state, attempts, last_error, delivered_at, next_attempt_at from support_deliveries
      where reference = $1 and comment_id is null and update_id is null order by channel`,
    [reference],
  );
  return rows.map((r) => ({
    channel: r.channel, state: r.state, attempts: r.attempts, lastError: r.last_error,
    deliveredAt: r.delivered_at ? new Date(r.delivered_at) : null,
    nextAttemptAt: r.state === 'pending' ? new Date(r.next_attempt_at) : null,
  }));
}

export class Outbox {
  constructor(private readonly db: Db) {}

  /**
   * Claims up to `limit` due rows of the given channels for `leaseMs`: pending, due, and not leased (or
   * their lease ran out: the worker that held it stopped or crashed). Each claim counts as an attempt.
   * One statement, so its transaction is as short as can be: the rows are locked (skipping those another
   * worker is claiming at the same moment), leased and counted, then committed at once.
   */
  async claim(channels: Channel[], limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    if (channels.length === 0 || limit <= 0) return [];
    const rows = await this.db.query<{ id: string | number; reference: string; channel: Channel; attempts: number; files: number; comment_id: string | number | null; update_id: string | number | null }>(
      `with due as (
         select id from support_deliveries
          where state = 'pending' and next_attempt_at <= now() and (leased_until is null or leased_until <= now())
            and channel = any($1::text[])
          order by next_attempt_at, id
          limit $2
          for update skip locked
       )
       update support_deliveries d
          set leased_until = now() + make_interval(secs => $3::double precision / 1000), attempts = d.attempts + 1
         from due where d.id = due.id
       returning d.id, d.reference, d.channel, d.attempts, d.comment_id, d.update_id,
         -- The requester is told in words and given a link: no files go to them.
         case when d.channel = 'requester' then 0 else (select count(*) from support_request_attachments a
           where a.reference = d.reference and a.comment_id is not distinct from d.comment_id)::int end as files`,
      [channels, limit, leaseMs],
    );
    return rows.map((r) => ({
      id: Number(r.id), reference: r.reference, channel: r.channel, attempts: r.attempts, files: r.files,
      commentId: r.comment_id === null ? undefined : Number(r.comment_id),
      updateId: r.update_id === null ? undefined : Number(r.update_id),
    }));
  }

  /**
   * Milliseconds until the next row of these channels may be claimed (0 when one is due now), or
   * undefined when none is pending.
   */
  async nextDueInMs(channels: Channel[]): Promise<number | undefined> {
    if (channels.length === 0) return undefined;
    const [row] = await this.db.query<{ ms: number | string | null }>(
      `select extract(epoch from min(greatest(next_attempt_at, coalesce(leased_until, next_attempt_at))) - now()) * 1000 as ms
         from support_deliveries where state = 'pending' and channel = any($1::text[])`,
      [channels],
    );
    if (row?.ms === null || row?.ms === undefined) return undefined;
    return Math.max(0, Number(row.ms));
  }

  /** Delivered: true when the claim was still this worker's and the row is now marked. */
  async markDelivered(claim: ClaimedDelivery): Promise<boolean> {
    const rows = await this.db.query(
      `update support_deliveries set state = 'delivered', delivered_at = now(), leased_until = null, last_error = null
        where id = $1 and attempts = $2 and state = 'pending' returning id`,
      [claim.id, claim.attempts],
    );
    return rows.length > 0;
  }

  /** Not delivered this time: tried again after `delayMs`. */
  async scheduleRetry(claim: ClaimedDelivery, delayMs: number, error: string): Promise<boolean> {
    const rows = await this.db.query(
      `update support_deliveries
          set leased_until = null, last_error = $3, next_attempt_at = now() + make_interval(secs => $4::double precision / 1000)
        where id = $1 and attempts = $2 and state = 'pending' returning id`,
      [claim.id, claim.attempts, redactAddresses(error), delayMs],
    );
    return rows.length > 0;
  }

  /** Given up: permanently refused, or out of attempts. */
  async markFailed(claim: ClaimedDelivery, error: string): Promise<boolean> {
    const rows = await this.db.query(
      `update support_deliveries set state = 'failed', leased_until = null, last_error = $3
        where id = $1 and attempts = $2 and state = 'pending' returning id`,
      [claim.id, claim.attempts, redactAddresses(error)],
    );
    return rows.length > 0;
  }

  /**
   * Hands a claim back without counting it (the worker stopped before the attempt was made or finished),
   * so another worker takes it at once rather than when the lease runs out.
   */
  async release(claim: ClaimedDelivery): Promise<boolean> {
    const rows = await this.db.query(
      `update support_deliveries set leased_until = null, attempts = attempts - 1, next_attempt_at = now()
        where id = $1 and attempts = $2 and state = 'pending' returning id`,
      [claim.id, claim.attempts],
    );
    return rows.length > 0;
  }

  /** The request (or the reply) and its files as a channel sends them; undefined when it is gone. */
  async load(claim: Pick<ClaimedDelivery, 'reference' | 'files' | 'commentId' | 'updateId'>, get: (reference: string) => Promise<StoredRequest | undefined>): Promise<OutgoingRequest | undefined> {
    const { reference, commentId, updateId } = claim;
    const request = await get(reference);
    if (!request) return undefined;
    if (updateId !== undefined) {
      const [row] = await this.db.query<{ status: string; note: string; source: RequestUpdate['source']; created_at: Date }>(
        `select status, note, source, created_at from support_request_updates where reference = $1 and id = $2`, [reference, updateId],
      );
      if (!row) return undefined;
      return { ...request, attachments: [], update: { id: updateId, status: row.status, note: row.note, source: row.source, createdAt: new Date(row.created_at) } };
    }
    if (commentId !== undefined) {
      const [row] = await this.db.query<{ id: string | number; author: StoredComment['author']; account_id: string | null; author_name: string; body: string; created_at: Date }>(
        `select id, author, account_id, author_name, body, created_at from support_request_comments where reference = $1 and id = $2`,
        [reference, commentId],
      );
      if (!row) return undefined;
      const comment: OutgoingComment = {
        id: Number(row.id), reference, author: row.author, accountId: row.account_id, name: row.author_name, body: row.body,
        createdAt: new Date(row.created_at), attachments: claim.files === 0 ? [] : await this.files(reference, commentId),
      };
      return { ...request, attachments: [], comment };
    }
    return { ...request, attachments: claim.files === 0 ? [] : await this.files(reference, undefined) };
  }

  /** The request's own files (no reply named) or one reply's, with their hashes. */
  private async files(reference: string, commentId: number | undefined): Promise<OutgoingAttachment[]> {
    const rows = await this.db.query<{ id: string | number; filename: string; content_type: string; size: number; data: Uint8Array }>(
      `select id, filename, content_type, size, data from support_request_attachments
        where reference = $1 and comment_id is not distinct from $2::bigint order by id`,
      [reference, commentId ?? null],
    );
    return rows.map((r) => {
      const data = Buffer.from(r.data);
      return {
        id: Number(r.id), filename: r.filename, contentType: r.content_type, size: r.size, data,
        sha256: createHash('sha256').update(data).digest('hex'),
      };
    });
  }
}
