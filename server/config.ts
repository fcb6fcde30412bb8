import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/** Every setting Signpost reads from the environment (documented in README "Configuration"). */
export const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  databaseUrl: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  /** Streaming replicas that published page data, search and insights read from (server/db/replicas.ts). */
  databaseReadUrls: Type.Array(Type.String({ pattern: '^postgres(ql)?://' })),
  /** A replica further behind the primary than this is skipped until it catches up. */
  databaseReadMaxLagMs: Type.Integer({ minimum: 0 }),
  /** A read on a replica with no answer in this time is given to the primary, and the replica skipped. */
  databaseReadTimeoutMs: Type.Integer({ minimum: 1 }),
  dataDir: Type.String({ minLength: 1 }),
  contentDir: Type.String({ minLength: 1 }),
  importOnStart: Type.Boolean(),
  logLevel: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  /** One access-log line per request at this level, or none (server/plugins/access-log.ts). */
  accessLog: Type.Union([Type.Literal('info'), Type.Literal('debug'), Type.Literal('off')]),
  publicUrl: Type.String({ pattern: '^https?://' }),
  previewToken: Type.Optional(Type.String({ minLength: 32 })),
  /** Where Signpost serves sign-in (the login, callback, log-out routes and the embedded provider): a path. */
  identityUrl: Type.String({ pattern: '^/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$' }),
  /** Vendor staff's e-mail domain (spec §6); unset, nobody is staff. */
  staffDomain: Type.Optional(Type.String({ minLength: 1 })),
  /** Fastify's trustProxy: off, on (any hop), a hop count, or the proxies' addresses and CIDR ranges. */
  trustProxy: Type.Union([Type.Boolean(), Type.Integer({ minimum: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1 })]),
  shutdownTimeoutMs: Type.Integer({ minimum: 0 }),
  /** How long a client has to send a whole request, head and body (server/plugins/request-deadline.ts). */
  requestTimeoutMs: Type.Integer({ minimum: 1 }),
  overloadMaxEventLoopDelayMs: Type.Integer({ minimum: 0 }),
  overloadMaxEventLoopUtilization: Type.Number({ minimum: 0, maximum: 1 }),
  overloadMaxHeapUsedMb: Type.Optional(Type.Integer({ minimum: 0 })),
  overloadRetryAfterS: Type.Integer({ minimum: 1 }),
  /** Searches (cache misses) one instance runs at once; more wait in a queue of SEARCH_QUEUE_MAX. */
  searchMaxConcurrent: Type.Integer({ minimum: 1 }),
  /** Searches that may wait for a place; past it, 503 with Retry-After at once. */
  searchQueueMax: Type.Integer({ minimum: 0 }),
  /** How long a search waits for a place before it is answered 503 with Retry-After. */
  searchQueueTimeoutMs: Type.Integer({ minimum: 1 }),
  /** Other requests that reach the database (pages not in the page cache, …) one instance runs at once. */
  dbMaxConcurrent: Type.Integer({ minimum: 1 }),
  /** Such requests that may wait for a place; past it, 503 with Retry-After at once. */
  dbQueueMax: Type.Integer({ minimum: 0 }),
  /** How long such a request may wait for a place; one that would wait longer gets 503 at once. */
  dbQueueTimeoutMs: Type.Integer({ minimum: 1 }),
  rateLimitMax: Type.Integer({ minimum: 1 }),
  rateLimitWindow: Type.Integer({ minimum: 1 }),
  /** OpenID Connect issuer to sign in against; unset, Signpost's own embedded provider (server/identity/). */
  oidcIssuer: Type.Optional(Type.String({ pattern: '^https?://' })),
  oidcClientId: Type.String({ minLength: 1 }),
  /** Unset with the embedded provider: derived from the database's secret, so every instance agrees. */
  oidcClientSecret: Type.Optional(Type.String({ minLength: 1 })),
  oidcScopes: Type.String({ pattern: '(^|\\s)openid(\\s|$)' }),
  /** Scopes added to the default OIDC_SCOPES when the issuer's discovery lists them (`roles`, where role claims live). */
  oidcScopesWhenOffered: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
  /** Claim names that carry roles (spec §6): a boolean claim, or a group in the groups claim. */
  oidcEditorClaim: Type.String({ minLength: 1 }),
  oidcPartnerClaim: Type.String({ minLength: 1 }),
  oidcGroupsClaim: Type.String({ minLength: 1 }),
  oidcEditorGroup: Type.String({ minLength: 1 }),
  oidcPartnerGroup: Type.String({ minLength: 1 }),
  /** The issuer's account page for 'Manage profile'; the embedded provider has its own. */
  oidcAccountUrl: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Further clients the embedded provider accepts (JSON array of client metadata), e.g. another instance. */
  oidcProviderClients: Type.Array(Type.Object({
    client_id: Type.String({ minLength: 1 }),
    client_secret: Type.String({ minLength: 16 }),
    redirect_uris: Type.Array(Type.String({ pattern: '^https?://' }), { minItems: 1 }),
    post_logout_redirect_uris: Type.Optional(Type.Array(Type.String({ pattern: '^https?://' }))),
    /** The name the sign-in and consent screens give the client (else the host of its first redirect URI). */
    client_name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  })),
  /** Session cookie keys, newest first: the first seals, all open (rotation). Unset: one kept in the database. */
  sessionSecrets: Type.Optional(Type.Array(Type.String({ minLength: 32 }), { minItems: 1 })),
  sessionIdleMinutes: Type.Integer({ minimum: 1 }),
  sessionMaxHours: Type.Integer({ minimum: 1 }),
  /** Hosts that are the partner site (spec §6 partner user, §2 paths with no AI widget). */
  partnerHosts: Type.Array(Type.String({ minLength: 1 })),
  /** Editor shortcut templates (spec §6 author): {file}, {entryId}, {path}; {pageId} for the document editor. */
  contentEditorUrl: Type.Optional(Type.String({ minLength: 1 })),
  documentEditorUrl: Type.Optional(Type.String({ minLength: 1 })),
  /** The editors' names in 'Edit Page in …' (with the templates above; else the content metadata's). */
  contentEditorName: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  documentEditorName: Type.Optional(Type.String({ minLength: 1, maxLength: 60 })),
  /** Support requests (server/support/): the reference's prefix, e.g. SR in SR-10234. */
  requestReferencePrefix: Type.String({ pattern: '^[A-Z][A-Z0-9]{0,9}$' }),
  /** SMTP server requests are e-mailed through (smtp:// or smtps://, credentials in the URL); unset, no e-mail. */
  smtpUrl: Type.Optional(Type.String({ pattern: '^smtps?://' })),
  /** Where request e-mails go (the helpdesk's address); required with SMTP_URL. */
  supportMailTo: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$' })),
  /** The From address of request e-mails. */
  supportMailFrom: Type.String({ pattern: '^[^@\\s]+@[^@\\s]+$' }),
  /** Webhook requests are POSTed to as signed JSON; unset, no webhook. */
  supportWebhookUrl: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** Key of the webhook body's HMAC-SHA256 signature header; required with SUPPORT_WEBHOOK_URL. */
  supportWebhookSecret: Type.Optional(Type.String({ minLength: 16 })),
  /** Bearer token of the helpdesk's status endpoint (POST /api/requests/{reference}/status); unset, the endpoint refuses. */
  helpdeskToken: Type.Optional(Type.String({ minLength: 32 })),
  /** Whether this instance runs the delivery worker (any number of instances may). */
  deliveryWorker: Type.Boolean(),
  /** Attempts per channel before a delivery is marked failed. */
  deliveryMaxAttempts: Type.Integer({ minimum: 1 }),
  /** First retry delay; each further one doubles, with jitter. */
  deliveryBackoffMs: Type.Integer({ minimum: 1 }),
  /** How often an idle worker looks for due deliveries (a new request wakes it at once). */
  deliveryPollMs: Type.Integer({ minimum: 10 }),
  /** Attachments: files per request, bytes per file, and the allowed file extensions. */
  attachmentMaxFiles: Type.Integer({ minimum: 0, maximum: 20 }),
  attachmentMaxBytes: Type.Integer({ minimum: 1 }),
  attachmentTypes: Type.Array(Type.String({ pattern: '^[a-z0-9]+$' })),
  /** Support requests one client network, and one account, may submit per hour. */
  requestRateLimit: Type.Integer({ minimum: 1 }),
  /** Where flag definitions come from (server/flags/): a flagd definitions file, or a flag service. */
  flagsProvider: Type.Union([Type.Literal('file'), Type.Literal('flagd'), Type.Literal('ofrep')]),
  /** The flagd definitions file of FLAGS_PROVIDER=file: by default flags.json at the content root. */
  flagsFile: Type.String({ minLength: 1 }),
  /** The flag service's OFREP base URL (FLAGS_PROVIDER=flagd or ofrep); unset there, every flag takes its default. */
  flagsUrl: Type.Optional(Type.String({ pattern: '^https?://' })),
  /** How long one evaluation may wait for the flag service before the flag takes its default. */
  flagsTimeoutMs: Type.Integer({ minimum: 1 }),
  aiBaseUrl: Type.Optional(Type.String({ pattern: '^https?://' })),
  aiModel: Type.Optional(Type.String({ minLength: 1 })),
  aiApiKey: Type.Optional(Type.String()),
  aiTimeoutMs: Type.Integer({ minimum: 1 }),
  /** Model calls one instance makes at once; a question past it is answered from the passages, with a notice. */
  aiMaxConcurrent: Type.Integer({ minimum: 1 }),
  /** Questions to the assistant one account may ask per hour. */
  assistantRateLimit: Type.Integer({ minimum: 1 }),
  /** Questions to the assistant one client network may ask per hour (all its accounts together). */
  assistantNetworkRateLimit: Type.Integer({ minimum: 1 }),
  /** First-party analytics (server/events/): events recorded at all. */
  analytics: Type.Boolean(),
  /** Days raw analytics events are kept before only their daily aggregates remain. */
  analyticsRetentionDays: Type.Integer({ minimum: 1, maximum: 3650 }),
  /** Events one client (address) may send a minute; more are refused and counted. */
  analyticsRateLimit: Type.Integer({ minimum: 1 }),
});
export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The largest image or file a body may use (CONTENT_FILE_MAX_BYTES), read by every import. */
export function contentFileMaxBytes(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 10 * 1024 * 1024;
  const bytes = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new ConfigError(`CONTENT_FILE_MAX_BYTES: expected a whole number of bytes above 0, got "${raw}"`);
  }
  return bytes;
}

function bool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name}: expected true or false, got "${raw}"`);
}

/**
 * TRUST_PROXY: whether X-Forwarded-* headers are believed (client address, scheme, host). Off by
 * default: without a proxy in front, any client could claim any origin. `true` trusts every hop, a
 * number that many hops, else a comma-separated list of proxy addresses or CIDR ranges.
 */
function trustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined || raw.trim() === '') return false;
  const value = raw.trim();
  if (/^(true|yes|on)$/i.test(value)) return true;
  if (/^(false|no|off|0)$/i.test(value)) return false;
  if (/^\d+$/.test(value)) return Number(value);
  const list = value.split(',').map((a) => a.trim()).filter(Boolean);
  const bad = list.filter((a) => {
    const [address = '', bits, ...rest] = a.split('/');
    const family = isIP(address);
    if (family === 0 || rest.length > 0) return true;
    return bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
  });
  if (bad.length > 0 || list.length === 0) {
    throw new ConfigError(`TRUST_PROXY: expected true, false, a hop count, or addresses/CIDR ranges separated by commas; not ${bad.map((b) => `"${b}"`).join(', ') || `"${raw}"`}`);
  }
  return list;
}

/** TRUST_PROXY as Fastify takes it: a hop count is a function of the hop (Fastify's types have no number). */
export function trustProxyOption(value: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value;
}

/** A JSON array setting; a parse error names the variable. */
function jsonList(name: string, raw: string | undefined): unknown[] {
  if (raw === undefined || raw.trim() === '') return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (Array.isArray(value)) return value;
  } catch { /* reported below */ }
  throw new ConfigError(`${name}: expected a JSON array`);
}

/** The host name of a URL setting, if it parses. */
function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).hostname || undefined : undefined;
  } catch {
    return undefined;
  }
}

function num(raw: string | undefined, fallback: number): number {
  return raw === undefined || raw === '' ? fallback : Number(raw);
}

/** Reads and validates configuration; a bad value stops start-up with the variable named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  const config = {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReadUrls: (env.DATABASE_READ_URL ?? '').split(',').map((u) => u.trim()).filter(Boolean),
    databaseReadMaxLagMs: num(env.DATABASE_READ_MAX_LAG_MS, 5000),
    databaseReadTimeoutMs: num(env.DATABASE_READ_TIMEOUT_MS, 2000),
    dataDir: resolve(env.DATA_DIR || 'data'),
    contentDir: resolve(env.CONTENT_DIR || 'content'),
    importOnStart: bool('IMPORT_ON_START', env.IMPORT_ON_START, true),
    logLevel: env.LOG_LEVEL || 'info',
    accessLog: (env.ACCESS_LOG || 'info').toLowerCase(),
    publicUrl: (env.PUBLIC_URL || `http://localhost:${Number.isFinite(port) ? port : 3000}`).replace(/\/+$/, ''),
    previewToken: env.PREVIEW_TOKEN || undefined,
    identityUrl: (env.IDENTITY_URL || '/auth').replace(/\/+$/, ''),
    staffDomain: env.STAFF_EMAIL_DOMAIN || undefined,
    trustProxy: trustProxy(env.TRUST_PROXY),
    shutdownTimeoutMs: num(env.SHUTDOWN_TIMEOUT_MS, 10_000),
    requestTimeoutMs: num(env.REQUEST_TIMEOUT_MS, 120_000),
    overloadMaxEventLoopDelayMs: num(env.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, 1000),
    overloadMaxEventLoopUtilization: num(env.OVERLOAD_MAX_EVENT_LOOP_UTILIZATION, 0),
    overloadMaxHeapUsedMb: env.OVERLOAD_MAX_HEAP_USED_MB ? Number(env.OVERLOAD_MAX_HEAP_USED_MB) : undefined,
    overloadRetryAfterS: num(env.OVERLOAD_RETRY_AFTER_S, 10),
    searchMaxConcurrent: num(env.SEARCH_MAX_CONCURRENT, 8),
    searchQueueMax: num(env.SEARCH_QUEUE_MAX, 64),
    searchQueueTimeoutMs: num(env.SEARCH_QUEUE_TIMEOUT_MS, 500),
    dbMaxConcurrent: num(env.DB_MAX_CONCURRENT, 16),
    dbQueueMax: num(env.DB_QUEUE_MAX, 256),
    dbQueueTimeoutMs: num(env.DB_QUEUE_TIMEOUT_MS, 1000),
    rateLimitMax: env.RATE_LIMIT_MAX ? Number(env.RATE_LIMIT_MAX) : 30,
    rateLimitWindow: env.RATE_LIMIT_WINDOW ? Number(env.RATE_LIMIT_WINDOW) : 60,
    oidcIssuer: env.OIDC_ISSUER ? env.OIDC_ISSUER.replace(/\/+$/, '') : undefined,
    oidcClientId: env.OIDC_CLIENT_ID || 'signpost',
    oidcClientSecret: env.OIDC_CLIENT_SECRET || undefined,
    // The embedded provider also offers the `roles` scope (editor, partner, groups, cohort claims).
    oidcScopes: (env.OIDC_SCOPES || (env.OIDC_ISSUER ? 'openid email profile' : 'openid email profile roles')).trim(),
    // An external issuer's role claims often come with a `roles` scope (Keycloak, another Signpost): asked
    // for by default when its discovery lists it, so authors and partners do not arrive as customers.
    oidcScopesWhenOffered: env.OIDC_ISSUER && !env.OIDC_SCOPES ? ['roles'] : [],
    oidcEditorClaim: env.OIDC_EDITOR_CLAIM || 'canEdit',
    oidcPartnerClaim: env.OIDC_PARTNER_CLAIM || 'partner',
    oidcGroupsClaim: env.OIDC_GROUPS_CLAIM || 'groups',
    oidcEditorGroup: env.OIDC_EDITOR_GROUP || 'editors',
    oidcPartnerGroup: env.OIDC_PARTNER_GROUP || 'partners',
    oidcAccountUrl: env.OIDC_ACCOUNT_URL || undefined,
    oidcProviderClients: jsonList('OIDC_PROVIDER_CLIENTS', env.OIDC_PROVIDER_CLIENTS),
    sessionSecrets: env.SESSION_SECRET ? env.SESSION_SECRET.split(',').map((s) => s.trim()).filter(Boolean) : undefined,
    sessionIdleMinutes: num(env.SESSION_IDLE_MINUTES, 120),
    sessionMaxHours: num(env.SESSION_MAX_HOURS, 168),
    partnerHosts: (env.PARTNER_HOSTS ?? '').split(',').map((h) => h.trim().toLowerCase()).filter(Boolean),
    contentEditorUrl: env.CONTENT_EDITOR_URL || undefined,
    documentEditorUrl: env.DOCUMENT_EDITOR_URL || undefined,
    contentEditorName: env.CONTENT_EDITOR_NAME?.trim() || undefined,
    documentEditorName: env.DOCUMENT_EDITOR_NAME?.trim() || undefined,
    requestReferencePrefix: env.REQUEST_REFERENCE_PREFIX || 'SR',
    smtpUrl: env.SMTP_URL || undefined,
    supportMailTo: env.SUPPORT_MAIL_TO || undefined,
    supportMailFrom: env.SUPPORT_MAIL_FROM || `help-centre@${hostOf(env.PUBLIC_URL) ?? 'localhost'}`,
    supportWebhookUrl: env.SUPPORT_WEBHOOK_URL || undefined,
    supportWebhookSecret: env.SUPPORT_WEBHOOK_SECRET || undefined,
    helpdeskToken: env.HELPDESK_TOKEN || undefined,
    deliveryWorker: bool('DELIVERY_WORKER', env.DELIVERY_WORKER, true),
    deliveryMaxAttempts: num(env.DELIVERY_MAX_ATTEMPTS, 8),
    deliveryBackoffMs: num(env.DELIVERY_BACKOFF_MS, 30_000),
    deliveryPollMs: num(env.DELIVERY_POLL_MS, 5_000),
    attachmentMaxFiles: num(env.ATTACHMENT_MAX_FILES, 3),
    attachmentMaxBytes: num(env.ATTACHMENT_MAX_BYTES, 10 * 1024 * 1024),
    attachmentTypes: (env.ATTACHMENT_TYPES || 'png,jpg,jpeg,gif,webp,pdf,txt,log,csv,json,xml,zip,har')
      .split(',').map((t) => t.trim().toLowerCase().replace(/^\./, '')).filter(Boolean),
    requestRateLimit: num(env.REQUEST_RATE_LIMIT, 10),
    flagsProvider: (env.FLAGS_PROVIDER || 'file').toLowerCase(),
    flagsFile: resolve(env.FLAGS_FILE || join(env.CONTENT_DIR || 'content', 'flags.json')),
    flagsUrl: env.FLAGS_URL ? env.FLAGS_URL.replace(/\/+$/, '') : undefined,
    flagsTimeoutMs: num(env.FLAGS_TIMEOUT_MS, 500),
    aiBaseUrl: env.AI_BASE_URL ? env.AI_BASE_URL.replace(/\/+$/, '') : undefined,
    aiModel: env.AI_MODEL || undefined,
    aiApiKey: env.AI_API_KEY || undefined,
    aiTimeoutMs: num(env.AI_TIMEOUT_MS, 20_000),
    aiMaxConcurrent: num(env.AI_MAX_CONCURRENT, 4),
    assistantRateLimit: num(env.ASSISTANT_RATE_LIMIT, 30),
    assistantNetworkRateLimit: num(env.ASSISTANT_NETWORK_RATE_LIMIT, 120),
    analytics: bool('ANALYTICS', env.ANALYTICS, true),
    analyticsRetentionDays: num(env.ANALYTICS_RETENTION_DAYS, 90),
    analyticsRateLimit: num(env.ANALYTICS_RATE_LIMIT, 600),
  };
  const problems = [...Value.Errors(ConfigSchema, config)];
  if (problems.length > 0) {
    const names: Record<string, string> = {
      port: 'PORT', host: 'HOST', databaseUrl: 'DATABASE_URL', databaseReadUrls: 'DATABASE_READ_URL',
      databaseReadMaxLagMs: 'DATABASE_READ_MAX_LAG_MS', databaseReadTimeoutMs: 'DATABASE_READ_TIMEOUT_MS', dataDir: 'DATA_DIR', contentDir: 'CONTENT_DIR',
      importOnStart: 'IMPORT_ON_START', logLevel: 'LOG_LEVEL', accessLog: 'ACCESS_LOG', publicUrl: 'PUBLIC_URL', previewToken: 'PREVIEW_TOKEN',
      identityUrl: 'IDENTITY_URL', staffDomain: 'STAFF_EMAIL_DOMAIN', trustProxy: 'TRUST_PROXY',
      shutdownTimeoutMs: 'SHUTDOWN_TIMEOUT_MS', requestTimeoutMs: 'REQUEST_TIMEOUT_MS', overloadMaxEventLoopDelayMs: 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS',
      overloadMaxEventLoopUtilization: 'OVERLOAD_MAX_EVENT_LOOP_UTILIZATION', overloadMaxHeapUsedMb: 'OVERLOAD_MAX_HEAP_USED_MB',
      overloadRetryAfterS: 'OVERLOAD_RETRY_AFTER_S', searchMaxConcurrent: 'SEARCH_MAX_CONCURRENT', searchQueueMax: 'SEARCH_QUEUE_MAX',
      searchQueueTimeoutMs: 'SEARCH_QUEUE_TIMEOUT_MS', dbMaxConcurrent: 'DB_MAX_CONCURRENT', dbQueueMax: 'DB_QUEUE_MAX',
      dbQueueTimeoutMs: 'DB_QUEUE_TIMEOUT_MS',
      rateLimitMax: 'RATE_LIMIT_MAX', rateLimitWindow: 'RATE_LIMIT_WINDOW',
      oidcIssuer: 'OIDC_ISSUER', oidcClientId: 'OIDC_CLIENT_ID', oidcClientSecret: 'OIDC_CLIENT_SECRET', oidcScopes: 'OIDC_SCOPES',
      oidcEditorClaim: 'OIDC_EDITOR_CLAIM', oidcPartnerClaim: 'OIDC_PARTNER_CLAIM', oidcGroupsClaim: 'OIDC_GROUPS_CLAIM',
      oidcEditorGroup: 'OIDC_EDITOR_GROUP', oidcPartnerGroup: 'OIDC_PARTNER_GROUP', oidcAccountUrl: 'OIDC_ACCOUNT_URL',
      oidcProviderClients: 'OIDC_PROVIDER_CLIENTS', sessionSecrets: 'SESSION_SECRET', sessionIdleMinutes: 'SESSION_IDLE_MINUTES',
      sessionMaxHours: 'SESSION_MAX_HOURS', partnerHosts: 'PARTNER_HOSTS', contentEditorUrl: 'CONTENT_EDITOR_URL',
      documentEditorUrl: 'DOCUMENT_EDITOR_URL', contentEditorName: 'CONTENT_EDITOR_NAME', documentEditorName: 'DOCUMENT_EDITOR_NAME',
      requestReferencePrefix: 'REQUEST_REFERENCE_PREFIX', smtpUrl: 'SMTP_URL',
      supportMailTo: 'SUPPORT_MAIL_TO', supportMailFrom: 'SUPPORT_MAIL_FROM', supportWebhookUrl: 'SUPPORT_WEBHOOK_URL',
      supportWebhookSecret: 'SUPPORT_WEBHOOK_SECRET', helpdeskToken: 'HELPDESK_TOKEN', deliveryWorker: 'DELIVERY_WORKER',
      deliveryMaxAttempts: 'DELIVERY_MAX_ATTEMPTS', deliveryBackoffMs: 'DELIVERY_BACKOFF_MS', deliveryPollMs: 'DELIVERY_POLL_MS',
      attachmentMaxFiles: 'ATTACHMENT_MAX_FILES', attachmentMaxBytes: 'ATTACHMENT_MAX_BYTES', attachmentTypes: 'ATTACHMENT_TYPES',
      requestRateLimit: 'REQUEST_RATE_LIMIT',
      flagsProvider: 'FLAGS_PROVIDER', flagsFile: 'FLAGS_FILE', flagsUrl: 'FLAGS_URL', flagsTimeoutMs: 'FLAGS_TIMEOUT_MS',
      aiBaseUrl: 'AI_BASE_URL', aiModel: 'AI_MODEL', aiApiKey: 'AI_API_KEY', aiTimeoutMs: 'AI_TIMEOUT_MS',
      aiMaxConcurrent: 'AI_MAX_CONCURRENT', assistantRateLimit: 'ASSISTANT_RATE_LIMIT', assistantNetworkRateLimit: 'ASSISTANT_NETWORK_RATE_LIMIT',
      analytics: 'ANALYTICS', analyticsRetentionDays: 'ANALYTICS_RETENTION_DAYS', analyticsRateLimit: 'ANALYTICS_RATE_LIMIT',
    };
    const lines = problems.map((p) => {
      const key = p.instancePath.split('/')[1] ?? '';
      return `${names[key] ?? key}: ${p.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${[...new Set(lines)].join('\n  ')}`);
  }
  contentFileMaxBytes(env.CONTENT_FILE_MAX_BYTES);
  if (config.databaseReadUrls.length > 0 && !config.databaseUrl) {
    throw new ConfigError('DATABASE_READ_URL: replicas need DATABASE_URL (the primary they stream from); PGlite has none');
  }
  if (config.aiBaseUrl && !config.aiModel) {
    throw new ConfigError('AI_MODEL: required when AI_BASE_URL is set (the model the assistant asks)');
  }
  if (config.smtpUrl && !config.supportMailTo) {
    throw new ConfigError('SUPPORT_MAIL_TO: required when SMTP_URL is set (the address requests are e-mailed to)');
  }
  if (config.supportWebhookUrl && !config.supportWebhookSecret) {
    throw new ConfigError('SUPPORT_WEBHOOK_SECRET: required when SUPPORT_WEBHOOK_URL is set (the key of the body\'s signature)');
  }
  if (config.oidcIssuer && !config.oidcClientSecret) {
    throw new ConfigError('OIDC_CLIENT_SECRET: required when OIDC_ISSUER names an external issuer');
  }
  return config as Config;
}
