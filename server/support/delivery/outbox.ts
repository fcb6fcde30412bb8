/**
 * The delivery outbox (support_deliveries, migration 8): one row per request and channel, written with
 * the request. A worker claims due rows for a lease in a short transaction (FOR UPDATE SKIP LOCKED, so
 * workers on any number of instances never take the same row), delivers outside it, then records the
 * outcome. Every outcome is recorded only while the claim is still the worker's own: a row whose lease
 * ran out and was claimed again (its attempts moved on) is left to the worker that holds it now.
 */
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../../db/driver.ts';
import type { Channel, StoredRequest } from '../store.ts';

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** A row claimed by a worker: delivered under its lease, then marked with `attempts` as the claim's proof. */
export interface ClaimedDelivery {
  id: number;
  reference: string;
  channel: Channel;
  /** Attempts so far, this one included. */
  attempts: number;
  /** How many files the request has (none to read when 0). */
  files?: number;
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

/** What a channel delivers: the stored request and its files. */
export interface OutgoingRequest extends StoredRequest {
  attachments: OutgoingAttachment[];
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
    `select channel, state, attempts, last_error, delivered_at, next_attempt_at from support_deliveries where reference = $1 order by channel`,
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
    const rows = await this.db.query<{ id: string | number; reference: string; channel: Channel; attempts: number; files: number }>(
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
       returning d.id, d.reference, d.channel, d.attempts,
         (select count(*) from support_request_attachments a where a.reference = d.reference)::int as files`,
      [channels, limit, leaseMs],
    );
    return rows.map((r) => ({ id: Number(r.id), reference: r.reference, channel: r.channel, attempts: r.attempts, files: r.files }));
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

  /** The request and its files as a channel sends them; undefined when the request is gone. */
  async load(claim: Pick<ClaimedDelivery, 'reference' | 'files'>, get: (reference: string) => Promise<StoredRequest | undefined>): Promise<OutgoingRequest | undefined> {
    const { reference } = claim;
    const request = await get(reference);
    if (!request) return undefined;
    if (claim.files === 0) return { ...request, attachments: [] };
    const rows = await this.db.query<{ id: string | number; filename: string; content_type: string; size: number; data: Uint8Array }>(
      `select id, filename, content_type, size, data from support_request_attachments where reference = $1 order by id`,
      [reference],
    );
    const attachments = rows.map((r) => {
      const data = Buffer.from(r.data);
      return {
        id: Number(r.id), filename: r.filename, contentType: r.content_type, size: r.size, data,
        sha256: createHash('sha256').update(data).digest('hex'),
      };
    });
    return { ...request, attachments };
  }
}
