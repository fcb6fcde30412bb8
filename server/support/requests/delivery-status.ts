/**
 * Where a request's delivery to the helpdesk stands (the support_deliveries outbox of migration 8), for
 * staff on the request's page: one line per channel.
 */
import type { Db } from '../../db/driver.ts';

export interface DeliveryState {
  channel: string;
  state: 'pending' | 'delivered' | 'failed' | string;
  attempts: number;
  lastError: string | null;
  deliveredAt: Date | null;
  nextAttemptAt: Date | null;
}

export async function deliveriesOf(db: Db, reference: string): Promise<DeliveryState[]> {
  const rows = await db.query<{
    channel: string; state: string; attempts: number; last_error: string | null; delivered_at: Date | null; next_attempt_at: Date | null;
  }>(
    `select channel, state, attempts, last_error, delivered_at, next_attempt_at from support_deliveries
     where reference = $1 order by channel`, [reference],
  );
  return rows.map((r) => ({
    channel: r.channel, state: r.state, attempts: r.attempts,
    // Errors are the receiver's words: kept short on the page.
    lastError: r.last_error ? r.last_error.slice(0, 300) : null,
    deliveredAt: r.delivered_at ? new Date(r.delivered_at) : null,
    nextAttemptAt: r.next_attempt_at ? new Date(r.next_attempt_at) : null,
  }));
}
