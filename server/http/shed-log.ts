import type { FastifyBaseLogger } from 'fastify';

/** How often, at most, a run of shed requests is summed up in the log. */
export const SHED_LOG_INTERVAL_MS = 10_000;

/**
 * The log lines of shed requests (503 with Retry-After past a bound on work). The first request shed
 * after a quiet spell gets a line of its own, with its URL and why; those shed after it, until
 * SHED_LOG_INTERVAL_MS has passed, are counted by reason and summed up in one line at the end of the
 * interval. A flood of a thousand requests a second is then a line every ten seconds, not a thousand
 * (writing them cost the instance a sizeable part of what shedding saves), and an operator still sees
 * when shedding starts, why, how much, and when it stops (no summary line follows the last one).
 */
export class ShedLog {
  private counts = new Map<string, number>();
  private since = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly log: FastifyBaseLogger, private readonly intervalMs = SHED_LOG_INTERVAL_MS) {}

  /** A request was shed for `reason` (a gate's message, or the kind of pressure). */
  shed(reason: string, url: string, requestLog: FastifyBaseLogger = this.log): void {
    if (this.timer === undefined) {
      requestLog.warn({ url, reason }, 'overloaded; request shed');
      this.since = Date.now();
      this.timer = setTimeout(() => this.flush(), this.intervalMs);
      this.timer.unref();
      return;
    }
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
  }

  /**
   * Writes the summary of the requests shed since the last line, if any, and starts a new interval;
   * with none, the next shed request gets a line of its own again.
   */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.counts.size === 0) return;
    const byReason = Object.fromEntries(this.counts);
    const shed = [...this.counts.values()].reduce((a, b) => a + b, 0);
    this.counts.clear();
    this.log.warn({ shed, byReason, seconds: Math.round((Date.now() - this.since) / 100) / 10 }, 'overloaded; more requests shed');
    this.since = Date.now();
    this.timer = setTimeout(() => this.flush(), this.intervalMs);
    this.timer.unref();
  }

  /** Sums up what is pending and stops the timer (the server closes). */
  close(): void {
    this.flush();
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
