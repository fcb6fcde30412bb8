/**
 * Long synchronous work written as a generator that yields between steps, run one of two ways: at once
 * (runAtOnce, for callers that need the answer now), or in slices (runInSlices) that give the event loop
 * a turn whenever a slice has run this long, so a server importing a large tree keeps answering.
 * Both run the same steps in the same order, so they give the same result.
 */
export type Steps<T> = Generator<void, T, void>;

/** The longest a slice runs before the event loop gets a turn. */
export const SLICE_MS = 40;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export function runAtOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export async function runInSlices<T>(steps: Steps<T>, sliceMs = SLICE_MS): Promise<T> {
  let turn = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - turn > sliceMs) {
      await nextTurn();
      turn = performance.now();
    }
  }
}

/** Steps that map a list, one step per item. */
export function* mapSteps<T, U>(items: readonly T[], map: (item: T, index: number) => U): Steps<U[]> {
  const out: U[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    out[i] = map(items[i] as T, i);
    yield;
  }
  return out;
}
