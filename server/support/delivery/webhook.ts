/**
 * The webhook channel (SUPPORT_WEBHOOK_URL): each request is POSTed as JSON, signed with HMAC-SHA256
 * over `{timestamp}.{body}` with SUPPORT_WEBHOOK_SECRET in `Signpost-Signature: t={timestamp},v1={hex}`,
 * and carries `Idempotency-Key: {reference}` (a reply: `{reference}/comments/{id}`, body `event: "comment"`) so a resend (after a timeout or a restart) is recognised as
 * the same request. 2xx is delivered; 4xx other than 408 and 429 is a permanent refusal; 5xx, 408, 429,
 * timeouts and network errors are retried.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DeliveryError } from './errors.ts';
import type { OutgoingRequest } from './outbox.ts';

export const SIGNATURE_HEADER = 'signpost-signature';
/** How long one POST may take, answer included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How far a signature's timestamp may be from the receiver's clock (replays of old bodies are refused). */
export const SIGNATURE_TOLERANCE_S = 300;

/** The JSON a receiver gets: the whole request, attachments inline as base64 with their SHA-256. */
export function webhookBody(request: OutgoingRequest): string {
  return JSON.stringify({
    reference: request.reference,
    form: request.formId,
    kind: request.kind,
    status: request.status,
    createdAt: request.createdAt.toISOString(),
    requester: { name: request.name, email: request.email, accountId: request.accountId },
    partner: request.partner,
    subject: request.subject,
    product: request.product,
    version: request.version,
    severity: request.severity,
    language: request.language,
    fields: request.fields,
    context: request.context,
    attachments: request.attachments.map((a) => ({
      id: a.id, filename: a.filename, contentType: a.contentType, size: a.size, sha256: a.sha256, data: a.data.toString('base64'),
    })),
  });
}

/** A reply's JSON: `event: "comment"`, the request it belongs to, and the reply with its files. */
export function commentWebhookBody(request: OutgoingRequest): string {
  const c = request.comment!;
  return JSON.stringify({
    event: 'comment',
    reference: request.reference,
    status: request.status,
    comment: {
      id: c.id, author: c.author, name: c.name, accountId: c.accountId, body: c.body, createdAt: c.createdAt.toISOString(),
      attachments: c.attachments.map((a) => ({
        id: a.id, filename: a.filename, contentType: a.contentType, size: a.size, sha256: a.sha256, data: a.data.toString('base64'),
      })),
    },
  });
}

/** The idempotency key of a delivery: the reference for a request, `{reference}/comments/{id}` for a reply. */
export function idempotencyKeyOf(request: OutgoingRequest): string {
  return request.comment ? `${request.reference}/comments/${request.comment.id}` : request.reference;
}

export function sign(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The signature header for a body sent at `timestamp` (Unix seconds). */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${sign(secret, timestamp, body)}`;
}

/**
 * What a receiver does with a webhook: true when `header` (Signpost-Signature) signs `body` (the raw
 * bytes received, before any JSON parsing) with `secret`, and its timestamp is within `toleranceS` of now.
 */
export function verifyWebhookSignature(
  body: string | Buffer, header: string | undefined, secret: string,
  options: { toleranceS?: number; now?: number } = {},
): boolean {
  if (!header) return false;
  const parts = new Map<string, string[]>();
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at <= 0) continue;
    const key = part.slice(0, at).trim();
    parts.set(key, [...(parts.get(key) ?? []), part.slice(at + 1).trim()]);
  }
  const timestamp = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(timestamp)) return false;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceS ?? SIGNATURE_TOLERANCE_S)) return false;
  const expected = Buffer.from(sign(secret, timestamp, Buffer.isBuffer(body) ? body.toString('utf8') : body), 'hex');
  // Several v1 values are allowed (a secret being rotated); any one matching will do.
  return (parts.get('v1') ?? []).some((candidate) => {
    const given = Buffer.from(candidate, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** POSTs the request; resolves when the receiver answered 2xx, throws a DeliveryError otherwise. */
export function webhookSender(url: string, secret: string, timeoutMs = WEBHOOK_TIMEOUT_MS) {
  return async (request: OutgoingRequest, signal: AbortSignal): Promise<void> => {
    const body = request.comment ? commentWebhookBody(request) : webhookBody(request);
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signatureHeader(secret, body),
          'idempotency-key': idempotencyKeyOf(request),
          'user-agent': 'Signpost-Delivery/1',
        },
        redirect: 'manual',
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]),
      });
    } catch (error) {
      if (signal.aborted) throw new DeliveryError('stopped before the receiver answered', 'aborted', false, { cause: error });
      const name = (error as Error).name;
      if (name === 'TimeoutError') throw new DeliveryError(`no answer within ${timeoutMs} ms`, 'timeout', false, { cause: error });
      const code = ((error as Error).cause as { code?: string } | undefined)?.code;
      throw new DeliveryError(`could not reach the receiver${code ? ` (${code})` : ''}`, 'network', false, { cause: error });
    }
    // The body is not needed; reading it frees the connection.
    await response.arrayBuffer().catch(() => undefined);
    const status = response.status;
    if (status >= 200 && status < 300) return;
    const permanent = status >= 400 && status < 500 && status !== 408 && status !== 429;
    throw new DeliveryError(`the receiver answered ${status}`, `http-${status}`, permanent);
  };
}
