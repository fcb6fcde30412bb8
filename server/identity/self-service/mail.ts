/**
 * Account e-mails (a link to confirm an address or reset a password) through an outbox: a row in
 * account_mail is written in the same transaction as the link, then sent after the commit; a send the
 * SMTP server refuses for now is tried again with backoff (on a timer, and after the next mail queued),
 * one it refuses for good is marked failed. Rows are claimed with FOR UPDATE SKIP LOCKED under a lease,
 * so instances sharing the store never send one twice at once. Logs name the row, never the address.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../../db/driver.ts';
import { smtpFailure, smtpTransport } from '../../support/delivery/email.ts';
import { retryDelayMs } from '../../support/delivery/worker.ts';

export interface AccountMessage {
  to: string;
  subject: string;
  text: string;
}

export interface AccountMailOptions {
  db: Db;
  log: FastifyBaseLogger;
  smtpUrl: string;
  from: string;
  maxAttempts: number;
  backoffMs: number;
}

/** How long a claimed row is the claimant's: longer than a send can take (SMTP_TIMEOUTS). */
const LEASE_S = 120;

interface MailRow { id: string | number; recipient: string; subject: string; body: string; attempts: number }

export class AccountMail {
  private readonly transport;
  private flushing: Promise<void> | undefined;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly opts: AccountMailOptions) {
    this.transport = smtpTransport(opts.smtpUrl);
  }

  /** Queues a message in the caller's transaction; `flush()` after the commit sends it. */
  async queue(tx: Queryable, message: AccountMessage): Promise<void> {
    await tx.query('insert into account_mail (recipient, subject, body) values ($1, $2, $3)', [message.to, message.subject, message.text]);
  }

  /** Sends every due message; a call while one runs makes it look again when done. Never throws. */
  flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      do {
        this.again = false;
        try {
          while (await this.sendOne());
        } catch (error) {
          this.opts.log.warn({ err: { message: (error as Error).message } }, 'account mail: the outbox could not be read');
        }
      } while (this.again);
    })().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Looks for due messages every `pollMs` (retries), until stop(). */
  start(pollMs: number): void {
    this.timer = setInterval(() => void this.flush(), pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flushing;
    this.transport.close();
  }

  /** Claims one due message and sends it: false when none is due. */
  private async sendOne(): Promise<boolean> {
    const { db, log } = this.opts;
    const rows = await db.query<MailRow>(
      `update account_mail set attempts = attempts + 1, claimed_until = now() + make_interval(secs => $1)
       where id = (select id from account_mail
                   where sent_at is null and not failed and next_attempt_at <= now() and (claimed_until is null or claimed_until < now())
                   order by id limit 1 for update skip locked)
       returning id, recipient, subject, body, attempts`, [LEASE_S]);
    const row = rows[0];
    if (!row) return false;
    try {
      await this.transport.sendMail({ to: row.recipient, from: this.opts.from, subject: row.subject, text: row.body });
      await db.query(`update account_mail set sent_at = now(), body = '', claimed_until = null, last_error = null where id = $1 and attempts = $2`, [row.id, row.attempts]);
      log.info({ mail: Number(row.id), attempts: row.attempts }, 'account mail sent');
    } catch (error) {
      const failure = smtpFailure(error);
      const giveUp = failure.permanent || row.attempts >= this.opts.maxAttempts;
      const delayMs = retryDelayMs(row.attempts, this.opts.backoffMs);
      await db.query(
        `update account_mail set claimed_until = null, last_error = $3, failed = $4,
           next_attempt_at = now() + make_interval(secs => $5), body = case when $4 then '' else body end
         where id = $1 and attempts = $2`,
        [row.id, row.attempts, failure.errorClass, giveUp, delayMs / 1000]);
      log.warn({ mail: Number(row.id), attempts: row.attempts, errorClass: failure.errorClass, willRetry: !giveUp },
        giveUp ? 'account mail failed for good' : 'account mail not sent; will retry');
      // The next due one waits for the next flush: a server refusing now would refuse it too.
      return false;
    }
    return true;
  }
}
