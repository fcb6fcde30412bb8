/**
 * A bound on how much of one kind of work runs at once in this instance, and on how much may wait
 * for it: the queues in front of the database (searches, other requests that reach it) and in front of
 * the model (assistant). Past the bound a caller is told at once (`Overloaded`), rather than waiting
 * behind work it cannot overtake: when the queue is full, or when the work ahead of it would, at the
 * pace work has been finishing, keep it waiting longer than `timeoutMs`. A waiter that has still
 * waited `timeoutMs` (the pace slowed) is told the same.
 */
export class Overloaded extends Error {
  override name = 'Overloaded';
  readonly statusCode = 503;

  constructor(what: string) {
    // No stack: the error is an answer, thrown in numbers under a flood, never a fault to trace.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${what}: too much work is waiting`);
    Error.stackTraceLimit = limit;
  }
}

export interface GateOptions {
  /** Work that may run at once. */
  max: number;
  /** Callers that may wait for a free place; 0: none waits. */
  queueMax: number;
  /** How long a caller may wait for a place: one that would wait longer is told at once. */
  timeoutMs: number;
}

/** Weight of the latest finished piece of work in the running mean of how long a place is held. */
const PACE_WEIGHT = 0.1;

interface Waiter {
  resolve: (release: () => void) => void;
  timer: NodeJS.Timeout;
}

export class Gate {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Callers refused since the start (a full queue or a wait past the limit). */
  refused = 0;
  /** Running mean of how long a place is held (ms); 0 until a piece of work has finished. */
  private heldMs = 0;

  constructor(readonly name: string, readonly options: GateOptions) {}

  /** Work running now. */
  get active(): number {
    return this.running;
  }

  /** Callers waiting for a place. */
  get queued(): number {
    return this.waiting.length;
  }

  /** How long a caller arriving now would wait for a place, at the pace work has been finishing. */
  get expectedWaitMs(): number {
    if (this.running < this.options.max) return 0;
    // Places free up `max` at a time, every `heldMs`: the caller's turn comes after the ones ahead of it.
    return Math.ceil((this.waiting.length + 1) / this.options.max) * this.heldMs;
  }

  /** A place now, or undefined when every place is taken (nothing waits). */
  tryAcquire(): (() => void) | undefined {
    if (this.running >= this.options.max) return undefined;
    this.running += 1;
    return this.releaser();
  }

  /**
   * A place, now or once one frees up; `Overloaded` at once when the queue is full or the expected
   * wait is past `timeoutMs`, and after `timeoutMs` of waiting otherwise.
   */
  acquire(): Promise<() => void> {
    const now = this.tryAcquire();
    if (now) return Promise.resolve(now);
    if (this.waiting.length >= this.options.queueMax || this.expectedWaitMs > this.options.timeoutMs) {
      this.refused += 1;
      return Promise.reject(new Overloaded(this.name));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        timer: setTimeout(() => {
          const at = this.waiting.indexOf(waiter);
          if (at >= 0) this.waiting.splice(at, 1);
          this.refused += 1;
          reject(new Overloaded(this.name));
        }, this.options.timeoutMs),
      };
      this.waiting.push(waiter);
    });
  }

  /** Runs `work` in a place of its own (see acquire). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let released = false;
    const since = performance.now();
    return () => {
      if (released) return;
      released = true;
      const held = performance.now() - since;
      this.heldMs = this.heldMs === 0 ? held : this.heldMs + PACE_WEIGHT * (held - this.heldMs);
      // The place goes straight to the longest waiter, so nobody arriving later overtakes it.
      const next = this.waiting.shift();
      if (next) {
        clearTimeout(next.timer);
        next.resolve(this.releaser());
      } else {
        this.running -= 1;
      }
    };
  }
}
