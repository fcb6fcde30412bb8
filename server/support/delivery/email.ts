/**
 * The e-mail channel (SMTP_URL): one message per request to SUPPORT_MAIL_TO, from SUPPORT_MAIL_FROM,
 * replying to the requester, subject `[{reference}] {subject}`, every field and the context in a plain
 * text body (and the same as simple HTML), the files attached. The Message-ID is derived from the
 * reference, so a message sent again after a crash is recognisably the same one.
 */
import nodemailer from 'nodemailer';
import { DeliveryError } from './errors.ts';
import type { OutgoingRequest } from './outbox.ts';

/** Connecting, the greeting, and silence on an open connection: each bounded, so a lease always outlives a send. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 } as const;

export interface EmailSettings {
  smtpUrl: string;
  to: string;
  from: string;
}

/** The stable Message-ID of a request's e-mail: `<{reference}.request@{domain of From}>`. */
export function messageIdOf(reference: string, from: string): string {
  const domain = from.slice(from.lastIndexOf('@') + 1) || 'localhost';
  return `<${reference}.request@${domain}>`;
}

const oneLine = (text: string) => text.replace(/[\r\n]+/g, ' ').trim();

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.map(String).join(', ');
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return value === null || value === undefined ? '' : String(value);
}

/** Label and value pairs of the request, in the order the message shows them. */
function rows(request: OutgoingRequest): { section: string; pairs: [string, string][] }[] {
  const optional = (pairs: [string, string | null | undefined][]) => pairs.filter((p): p is [string, string] => !!p[1]);
  return [
    {
      section: 'Request',
      pairs: optional([
        ['Reference', request.reference], ['Form', request.formId], ['Kind', request.kind], ['Status', request.status],
        ['Created', request.createdAt.toISOString()], ['Name', request.name], ['E-mail', request.email],
        ['Account', request.accountId], ['Partner', request.partner ? 'yes' : 'no'], ['Subject', request.subject],
        ['Product', request.product], ['Version', request.version], ['Severity', request.severity], ['Language', request.language],
      ]),
    },
    { section: 'Fields', pairs: Object.entries(request.fields).map(([k, v]) => [k, valueText(v)]) },
    { section: 'Context', pairs: Object.entries(request.context).map(([k, v]) => [k, valueText(v)]) },
    {
      section: 'Attachments',
      pairs: request.attachments.map((a) => [a.filename, `${a.contentType}, ${a.size} bytes, sha256 ${a.sha256}`]),
    },
  ].filter((s) => s.pairs.length > 0) as { section: string; pairs: [string, string][] }[];
}

export function textBody(request: OutgoingRequest): string {
  return rows(request).map(({ section, pairs }) =>
    `${section}\n${'-'.repeat(section.length)}\n${pairs.map(([k, v]) => `${k}: ${v.includes('\n') ? `\n${v.replace(/^/gm, '  ')}` : v}`).join('\n')}\n`,
  ).join('\n');
}

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function htmlBody(request: OutgoingRequest): string {
  const sections = rows(request).map(({ section, pairs }) =>
    `<h2>${escape(section)}</h2><table>${pairs.map(([k, v]) =>
      `<tr><th scope="row" align="left" valign="top">${escape(k)}</th><td style="white-space:pre-wrap">${escape(v)}</td></tr>`).join('')}</table>`,
  ).join('');
  return `<!doctype html><html><body>${sections}</body></html>`;
}

/** Sends through SMTP_URL; a 5xx answer to the message is permanent, anything else is retried. */
export function emailSender(settings: EmailSettings) {
  const transport = nodemailer.createTransport({ url: settings.smtpUrl, ...SMTP_TIMEOUTS } as Parameters<typeof nodemailer.createTransport>[0]);
  const send = async (request: OutgoingRequest, signal: AbortSignal): Promise<void> => {
    if (signal.aborted) throw new DeliveryError('stopped before sending', 'aborted', false);
    try {
      const sending = transport.sendMail({
        to: settings.to,
        from: settings.from,
        replyTo: request.name ? { name: oneLine(request.name), address: request.email } : request.email,
        subject: `[${request.reference}] ${oneLine(request.subject)}`,
        messageId: messageIdOf(request.reference, settings.from),
        date: request.createdAt,
        headers: { 'X-Signpost-Reference': request.reference },
        text: textBody(request),
        html: htmlBody(request),
        attachments: request.attachments.map((a) => ({ filename: a.filename, content: a.data, contentType: a.contentType })),
      });
      // A send under way cannot be called back: at shutdown it is left to finish (or its lease to run out).
      sending.catch(() => undefined);
      let onAbort = () => {};
      const abandoned = new Promise<never>((_resolve, reject) => {
        onAbort = () => reject(new DeliveryError('shut down while sending', 'abandoned', false));
        signal.addEventListener('abort', onAbort, { once: true });
      });
      try {
        await Promise.race([sending, abandoned]);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    } catch (error) {
      throw smtpFailure(error);
    }
  };
  return Object.assign(send, { close: () => transport.close() });
}

/** A failed send as a DeliveryError: refusals (5xx, not authentication) are permanent, the rest retried. */
export function smtpFailure(error: unknown): DeliveryError {
  if (error instanceof DeliveryError) return error;
  const e = error as Error & { code?: string; responseCode?: number };
  if (typeof e.responseCode === 'number') {
    const permanent = e.responseCode >= 500 && e.code !== 'EAUTH';
    return new DeliveryError(`the SMTP server answered ${e.responseCode}`, `smtp-${e.responseCode}`, permanent, { cause: error });
  }
  const errorClass = e.code === 'ETIMEDOUT' ? 'timeout' : e.code ? `smtp-${e.code.toLowerCase()}` : 'network';
  return new DeliveryError(`could not send through the SMTP server${e.code ? ` (${e.code})` : ''}`, errorClass, false, { cause: error });
}
