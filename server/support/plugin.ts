/**
 * Reaching support (spec §1, §2 'Contact and other form pages', §6, §7): forms defined in content,
 * stored requests the visitor can follow, and delivery to the vendor's helpdesk through an outbox.
 */
import fp from 'fastify-plugin';
import type { Config } from '../config.ts';
import { RequestStore, type Channel } from './store.ts';
import formRoutes from './form-routes.tsx';
import requestRoutes from './request-routes.tsx';
import delivery from './delivery/plugin.ts';

declare module 'fastify' {
  interface FastifyInstance {
    supportRequests: RequestStore;
  }
}

export interface SupportOptions {
  config: Config;
}

/** The channels configured: e-mail with SMTP_URL, the webhook with SUPPORT_WEBHOOK_URL. */
export function configuredChannels(config: Pick<Config, 'smtpUrl' | 'supportWebhookUrl'>): Channel[] {
  return [...(config.smtpUrl ? ['email' as const] : []), ...(config.supportWebhookUrl ? ['webhook' as const] : [])];
}

export default fp<SupportOptions>(async (app, { config }) => {
  const channels = configuredChannels(config);
  const notify = Boolean(config.smtpUrl) && config.notifyRequesters;
  app.decorate('supportRequests', new RequestStore(app.db, { prefix: config.requestReferencePrefix, channels: () => channels, notify: () => notify }));
  await app.register(formRoutes, { config });
  await app.register(requestRoutes, { config });
  await app.register(delivery, { config });
}, { name: 'support', dependencies: ['db', 'identity'] });
