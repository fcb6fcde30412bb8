import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Channel } from '../store.ts';
import { emailSender } from './email.ts';
import { webhookSender } from './webhook.ts';
import { requesterMailSender } from './requester-mail.ts';
import { DeliveryWorker, type Sender } from './worker.ts';

/**
 * The outbox worker: hands stored requests and replies on by e-mail (SMTP_URL) and webhook
 * (SUPPORT_WEBHOOK_URL), and tells requesters of changes by e-mail (SMTP_URL, NOTIFY_REQUESTERS).
 * It runs on every instance with DELIVERY_WORKER (the default), starts once the app is ready, and
 * stops on close: deliveries in flight get SHUTDOWN_TIMEOUT_MS to finish, after which their claims are
 * handed back or left to run out.
 */
export default async function delivery(app: FastifyInstance, { config }: { config: Config }) {
  if (!config.deliveryWorker) return;
  const senders: Partial<Record<Channel, Sender>> = {};
  let closeEmail: (() => void) | undefined;
  if (config.smtpUrl && config.supportMailTo) {
    const email = emailSender({ smtpUrl: config.smtpUrl, to: config.supportMailTo, from: config.supportMailFrom });
    senders.email = email;
    closeEmail = email.close;
  }
  let closeRequester: (() => void) | undefined;
  if (config.smtpUrl && config.notifyRequesters) {
    const requester = requesterMailSender({
      smtpUrl: config.smtpUrl, from: config.supportMailFrom, publicUrl: config.publicUrl, linkKey: (reference) => app.requestLinks.key(reference),
    });
    senders.requester = requester;
    closeRequester = requester.close;
  }
  if (config.supportWebhookUrl && config.supportWebhookSecret) {
    senders.webhook = webhookSender(config.supportWebhookUrl, config.supportWebhookSecret);
  }
  if (Object.keys(senders).length === 0) return;

  const worker = new DeliveryWorker({
    db: app.db,
    log: app.log.child({ component: 'delivery' }),
    senders,
    getRequest: (reference) => app.supportRequests.get(reference),
    maxAttempts: config.deliveryMaxAttempts,
    backoffMs: config.deliveryBackoffMs,
    pollMs: config.deliveryPollMs,
  });
  app.addHook('onReady', async () => {
    await worker.start();
  });
  // Stopping starts with the close (beside the HTTP drain) and is awaited before the database closes.
  let stopping: Promise<void> | undefined;
  app.addHook('preClose', async () => {
    stopping ??= worker.stop(config.shutdownTimeoutMs);
  });
  app.addHook('onClose', async () => {
    await (stopping ??= worker.stop(config.shutdownTimeoutMs));
    closeEmail?.();
    closeRequester?.();
  });
}
