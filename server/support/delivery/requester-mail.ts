/**
 * The 'requester' channel: the e-mail that tells a requester their request changed, through SMTP_URL
 * from SUPPORT_MAIL_FROM. One message per status change (with the note that came with it) and per answer
 * from staff or the helpdesk: only that change, in the request's language, and a link back to the
 * request's page (its private link when it was sent signed out). Never the rest of the conversation, and
 * never a file. The Message-ID is derived from the change, so a message sent again is the same one.
 */
import { stringsFor } from '../../../views/i18n/catalogue.tsx';
import { statusLabel } from '../../../views/pages/support/requests-parts.tsx';
import { DeliveryError } from './errors.ts';
import { messageIdOf, oneLine, sendMessage, smtpTransport } from './email.ts';
import type { OutgoingRequest } from './outbox.ts';

export interface RequesterMailSettings {
  smtpUrl: string;
  from: string;
  /** PUBLIC_URL: links in the message are absolute. */
  publicUrl: string;
  /** The private link's key of a request (RequestLinks.key). */
  linkKey: (reference: string) => string;
}

/** The address of the request for its requester: the private link when no account sent it. */
export function requestLinkOf(request: OutgoingRequest, settings: Pick<RequesterMailSettings, 'publicUrl' | 'linkKey'>): string {
  const path = `${settings.publicUrl}/requests/${request.reference}`;
  return request.accountId ? path : `${path}?key=${settings.linkKey(request.reference)}`;
}

/** The message's subject, text and stable id part. */
export function requesterMessage(request: OutgoingRequest, link: string): { subject: string; text: string; id: string } {
  const t = stringsFor(request.language === 'ja-JP' ? 'ja' : 'en');
  const m = t.requests.mail;
  const subject = oneLine(request.subject);
  const lines: string[] = [m.greeting(oneLine(request.name)), ''];
  let mailSubject: string;
  let id: string;
  if (request.comment) {
    const who = request.comment.name ? m.ofSupportTeam(oneLine(request.comment.name)) : m.supportTeam;
    lines.push(m.replyText(request.reference, who), '', request.comment.body);
    mailSubject = m.replySubject(request.reference, subject);
    id = `notify-comment-${request.comment.id}`;
  } else if (request.update) {
    const status = statusLabel(t, request.update.status);
    lines.push(m.statusText(request.reference, status));
    if (request.update.note) lines.push('', m.noteText, request.update.note);
    mailSubject = m.statusSubject(request.reference, subject, status);
    id = `notify-update-${request.update.id}`;
  } else {
    throw new DeliveryError('nothing to tell the requester', 'gone', true);
  }
  lines.push('', m.linkText, link, '', '-- ', m.footer, '');
  return { subject: mailSubject, text: lines.join('\n'), id };
}

export function requesterMailSender(settings: RequesterMailSettings) {
  const transport = smtpTransport(settings.smtpUrl);
  const domain = settings.from.slice(settings.from.lastIndexOf('@') + 1) || 'localhost';
  const send = async (request: OutgoingRequest, signal: AbortSignal): Promise<void> => {
    const message = requesterMessage(request, requestLinkOf(request, settings));
    await sendMessage(transport, {
      to: request.name ? { name: oneLine(request.name), address: request.email } : request.email,
      from: settings.from,
      subject: message.subject,
      messageId: `<${request.reference}.${message.id}@${domain}>`,
      references: [messageIdOf(request.reference, settings.from)],
      date: request.comment?.createdAt ?? request.update?.createdAt ?? new Date(),
      headers: { 'X-Signpost-Reference': request.reference, 'Auto-Submitted': 'auto-generated' },
      text: message.text,
    }, signal);
  };
  return Object.assign(send, { close: () => transport.close() });
}
