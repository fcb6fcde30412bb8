/**
 * A delivery that did not succeed. `permanent` failures (the receiver refused the request itself) are
 * not retried; the rest (server errors, timeouts, the network) are, with backoff. `errorClass` is a short
 * label safe for the log (never an address or a secret): `http-503`, `timeout`, `network`, `smtp-550`…
 */
export class DeliveryError extends Error {
  override name = 'DeliveryError';

  constructor(message: string, readonly errorClass: string, readonly permanent: boolean, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Any failure as a DeliveryError: an unknown one is retried. */
export function asDeliveryError(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new DeliveryError(message, 'error', false, { cause: error });
}
