/**
 * Where an import's time goes, phase by phase: wall time and the process's CPU time (which counts
 * PGlite's worker thread too), so a figure taken on a busy machine still says what the work cost.
 * A phase started inside another is its own: the outer one reports its time less the inner one's.
 */
export interface PhaseTime {
  name: string;
  ms: number;
  cpuMs: number;
}

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export class PhaseClock {
  private readonly totals = new Map<string, PhaseTime>();
  private readonly open: { ms: number; cpuMs: number; name: string }[] = [];

  /** The phase running now (the innermost), if any. */
  get current(): string | undefined {
    return this.open.at(-1)?.name;
  }

  /** Times synchronous work. */
  timeSync<T>(name: string, work: () => T): T {
    const start = this.begin(name);
    try {
      return work();
    } finally {
      this.end(name, start);
    }
  }

  /** Times work that awaits; phases are sequential, never run side by side. */
  async time<T>(name: string, work: () => Promise<T>): Promise<T> {
    const start = this.begin(name);
    try {
      return await work();
    } finally {
      this.end(name, start);
    }
  }

  /** The phases in the order they first ran. */
  get phases(): PhaseTime[] {
    return [...this.totals.values()].map((p) => ({ ...p }));
  }

  private begin(name: string) {
    const inner = { ms: 0, cpuMs: 0, name };
    this.open.push(inner);
    return { ms: performance.now(), cpuMs: cpuNow(), inner };
  }

  private end(name: string, start: { ms: number; cpuMs: number; inner: { ms: number; cpuMs: number } }) {
    this.open.pop();
    const ms = performance.now() - start.ms;
    const cpuMs = cpuNow() - start.cpuMs;
    const outer = this.open.at(-1);
    if (outer) {
      outer.ms += ms;
      outer.cpuMs += cpuMs;
    }
    const total = this.totals.get(name) ?? { name, ms: 0, cpuMs: 0 };
    total.ms += ms - start.inner.ms;
    total.cpuMs += cpuMs - start.inner.cpuMs;
    this.totals.set(name, total);
  }
}
