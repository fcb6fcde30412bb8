/**
 * The outbox worker. It claims due deliveries for a lease (one short statement), delivers them outside
 * any transaction, and records each outcome: delivered, tried again later (exponential backoff with
 * jitter), or failed for good (refused, or out of attempts) with one error line in the log. A worker that
 * crashes mid-delivery leaves its lease behind; when it runs out another worker takes the row again. Idle,
 * it waits for a NOTIFY of a new request, the next retry that falls due, or the poll interval. When the
 * database fails it logs, backs off and carries on once it is back: no restart needed.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/driver.ts';
import { backoffMs } from '../../db/backoff.ts';
import { DELIVERY_CHANNEL, type Channel, type StoredRequest } from '../store.ts';
import { asDeliveryError, DeliveryError } from './errors.ts';
import { Outbox, type ClaimedDelivery, type OutgoingRequest } from './outbox.ts';

/** Delivers one request on one channel, or throws (a DeliveryError says whether to retry). */
export type Sender = (request: OutgoingRequest, signal: AbortSignal) => Promise<void>;

export interface WorkerOptions {
  db: Db;
  log: FastifyBaseLogger;
  /** The channels configured here, with what sends on each; rows of other channels are left alone. */
  senders: Partial<Record<Channel, Sender>>;
  /** Reads a stored request (RequestStore.get). */
  getRequest: (reference: string) => Promise<StoredRequest | undefined>;
  maxAttempts: number;
  backoffMs: number;
  pollMs: number;
  /** How long a claim holds a row: longer than any one delivery may take (their timeouts). */
  leaseMs?: number;
  /** Deliveries in flight at once per worker. */
  concurrency?: number;
  random?: () => number;
}

/** A claim outlives the slowest delivery (SMTP's timeouts add up to under a minute) with room to spare. */
export const LEASE_MS = 120_000;
const CONCURRENCY = 4;
/** After the grace at stop, how long interrupted deliveries get to hand their claims back. */
const ABANDON_WAIT_MS = 1000;
const MIN_WAIT_MS = 10;
/** The longest wait between two attempts of one delivery. */
const MAX_RETRY_DELAY_MS = 6 * 60 * 60 * 1000;

/**
 * The wait before the attempt after `attempts` failed ones: DELIVERY_BACKOFF_MS doubled per attempt,
 * capped, with ±20 % jitter so retries of requests that failed together spread out.
 */
export function retryDelayMs(attempts: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30));
  return Math.round(ceiling * (0.8 + 0.4 * random()));
}

export class DeliveryWorker {
  private readonly outbox: Outbox;
  private readonly channels: Channel[];
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly random: () => number;
  private stopped = false;
  private running: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  /** Set by a NOTIFY (or stop) while the loop is busy, so it looks again instead of sleeping. */
  private woken = false;
  private readonly waiters = new Set<{ wakeable: boolean; done: () => void }>();
  /** Aborted when the worker gives up waiting for deliveries in flight at stop. */
  private readonly abort = new AbortController();
  private dbFailures = 0;

  constructor(private readonly options: WorkerOptions) {
    this.outbox = new Outbox(options.db);
    this.channels = (Object.keys(options.senders) as Channel[]).filter((c) => options.senders[c]);
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.concurrency = options.concurrency ?? CONCURRENCY;
    this.random = options.random ?? Math.random;
  }

  /** Starts listening and working; resolves once started (the work goes on in the background). */
  async start(): Promise<void> {
    if (this.running || this.channels.length === 0) return;
    await this.listen();
    this.running = this.loop();
  }

  /**
   * Stops claiming, and waits up to `graceMs` for the deliveries in flight. Those still running then
   * are abandoned: their claims are handed back when the database can still be reached, otherwise their
   * leases run out and another worker takes them.
   */
  async stop(graceMs: number): Promise<void> {
    this.stopped = true;
    this.poke();
    const running = this.running;
    if (running) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
      if ((await Promise.race([running, late])) === 'late') {
        this.abort.abort();
        // An e-mail being sent cannot be called back: it is not waited for (its lease runs out).
        await Promise.race([running, new Promise((resolve) => (timer = setTimeout(resolve, ABANDON_WAIT_MS)))]);
      }
      clearTimeout(timer);
    }
    await this.unlisten?.().catch(() => undefined);
    this.unlisten = undefined;
  }

  /** Looks for due deliveries now (a new request was stored). */
  poke(): void {
    this.woken = true;
    for (const waiter of [...this.waiters]) if (waiter.wakeable || this.stopped) waiter.done();
  }

  private async listen(): Promise<void> {
    try {
      this.unlisten = await this.options.db.listen(DELIVERY_CHANNEL, () => this.poke(), {
        onDisconnect: (error) => this.options.log.warn({ err: error }, 'delivery listener lost its connection; polling until it is back'),
        // A request stored while the listener was away went unannounced: look now.
        onReconnect: () => this.poke(),
      });
    } catch (error) {
      // Polling still finds every request; listening is tried again on the next round.
      this.options.log.warn({ err: error }, 'delivery listener could not start; polling');
    }
  }

  private async loop(): Promise<void> {
    const inFlight = new Set<Promise<void>>();
    while (!this.stopped) {
      this.woken = false;
      let claimed: ClaimedDelivery[];
      let nextDue: number | undefined;
      try {
        if (!this.unlisten) await this.listen();
        claimed = await this.outbox.claim(this.channels, this.concurrency - inFlight.size, this.leaseMs);
        if (claimed.length === 0 && inFlight.size === 0) nextDue = await this.outbox.nextDueInMs(this.channels);
        if (this.dbFailures > 0) this.options.log.info({ failures: this.dbFailures }, 'delivery worker: the database answers again');
        this.dbFailures = 0;
      } catch (error) {
        const waitMs = Math.max(backoffMs(this.dbFailures++), 250);
        this.options.log.warn({ err: error, retryInMs: waitMs }, 'delivery worker: a database call failed; backing off');
        await this.sleep(waitMs, false);
        continue;
      }
      for (const claim of claimed) {
        const done: Promise<void> = this.deliver(claim).finally(() => {
          inFlight.delete(done);
          this.poke();
        });
        inFlight.add(done);
      }
      if (this.stopped) break;
      if (inFlight.size >= this.concurrency || (claimed.length === 0 && inFlight.size > 0)) {
        // Busy: a finished delivery (or a NOTIFY) makes room to look again.
        await this.sleep(this.options.pollMs, true);
      } else if (claimed.length === 0) {
        // At least a moment: a row due now but skipped (another worker is claiming it) is not spun on.
        await this.sleep(Math.max(MIN_WAIT_MS, Math.min(this.options.pollMs, nextDue ?? Infinity)), true);
      }
    }
    await Promise.all(inFlight);
  }

  /** Waits `ms`, or less when woken (a NOTIFY, a finished delivery) if `wakeable`; stop ends every wait. */
  private sleep(ms: number, wakeable: boolean): Promise<void> {
    if (this.stopped || (wakeable && this.woken)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter = { wakeable, done: () => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        resolve();
      } };
      const timer = setTimeout(waiter.done, ms);
      this.waiters.add(waiter);
    });
  }

  private async deliver(claim: ClaimedDelivery): Promise<void> {
    const { log } = this.options;
    const where = { reference: claim.reference, channel: claim.channel, attempts: claim.attempts, ...(claim.commentId !== undefined ? { comment: claim.commentId } : {}), ...(claim.updateId !== undefined ? { update: claim.updateId } : {}) };
    let outcome: 'delivered' | DeliveryError;
    try {
      const request = await this.outbox.load(claim, this.options.getRequest);
      if (!request) {
        outcome = new DeliveryError('the request is no longer stored', 'gone', true);
      } else {
        await this.options.senders[claim.channel]!(request, this.abort.signal);
        outcome = 'delivered';
      }
    } catch (error) {
      outcome = asDeliveryError(error);
    }
    if (outcome instanceof DeliveryError && this.abort.signal.aborted && !outcome.permanent) {
      if (outcome.errorClass === 'aborted') {
        // Cut off at shutdown with no answer: handed back untried, so another worker takes it at once.
        const released = await this.outbox.release(claim).catch(() => false);
        log.info({ ...where, released }, 'delivery interrupted by shutdown');
      } else {
        log.info(where, 'delivery still in progress at shutdown; its lease will run out');
      }
      return;
    }
    await this.record(claim, outcome, where);
  }

  /** Records the outcome, retrying while the database is away (until stopping; then the lease decides). */
  private async record(claim: ClaimedDelivery, outcome: 'delivered' | DeliveryError, where: Record<string, unknown>): Promise<void> {
    const { log, maxAttempts } = this.options;
    for (let attempt = 0; ; attempt++) {
      try {
        if (outcome === 'delivered') {
          const mine = await this.outbox.markDelivered(claim);
          if (mine) log.info(where, 'request delivered');
          else log.warn(where, 'request delivered after its lease ran out; another worker had claimed it again');
        } else if (outcome.permanent || claim.attempts >= maxAttempts) {
          if (await this.outbox.markFailed(claim, outcome.message)) {
            log.error({ ...where, errorClass: outcome.errorClass, permanent: outcome.permanent },
              outcome.permanent ? 'request delivery refused; marked failed' : 'request delivery failed after the last attempt; marked failed');
          } else {
            log.warn({ ...where, errorClass: outcome.errorClass }, 'request delivery failed after its lease ran out; left to the worker holding it');
          }
        } else {
          const delayMs = retryDelayMs(claim.attempts, this.options.backoffMs, this.random);
          if (await this.outbox.scheduleRetry(claim, delayMs, outcome.message)) {
            log.warn({ ...where, errorClass: outcome.errorClass, retryInMs: delayMs }, 'request delivery failed; retrying later');
          } else {
            log.warn({ ...where, errorClass: outcome.errorClass }, 'request delivery failed after its lease ran out; left to the worker holding it');
          }
        }
        return;
      } catch (error) {
        if (this.stopped) {
          log.warn({ ...where, err: error }, 'delivery outcome not recorded before shutdown; the lease will run out');
          return;
        }
        if (attempt === 0) log.warn({ ...where, err: error }, 'delivery outcome not recorded: the database failed; retrying');
        await this.sleep(Math.max(backoffMs(attempt), 250), false);
      }
    }
  }
}
