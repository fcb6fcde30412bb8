/** First wait after a lost connection, doubled per failed attempt up to the cap. */
export const BACKOFF_BASE_MS = 100;
/** A reconnecting instance tries at least this often, so it is back within seconds of the server. */
export const BACKOFF_CAP_MS = 4000;

/**
 * The wait before reconnect attempt `attempt` (0-based): exponential, capped, with "equal jitter"
 * (half fixed, half random) so instances that lost the server together do not return in lockstep.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
