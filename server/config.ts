import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/** Every setting Signpost reads from the environment (listed with its default and meaning in SETTINGS below). */
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
  pgliteSharedBuffersMb: Type.Integer({ minimum: 1, maximum: 1024 }),
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
  /** Whether requesters are e-mailed (through SMTP_URL) when their request's status changes or it is answered. */
  notifyRequesters: Type.Boolean(),
  /** Whether this instance runs the delivery worker (any number of instances may). */
  deliveryWorker: Type.Boolean(),
  /** Whether people may open an account themselves on the embedded provider (needs SMTP_URL to verify the address). */
  accountSignUp: Type.Boolean(),
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

/**
 * Every environment variable the server reads, with its default and meaning as an operator reads them
 * (Markdown). The loader names a bad value by this list, and the configuration reference in docs/ is
 * generated from it (npm run docs:reference), so the documentation cannot miss or invent a setting.
 * `key` is the Config field it sets; the few read elsewhere have none.
 */
export interface Setting {
  name: string;
  key?: keyof Config;
  default: string;
  meaning: string;
}

export const SETTINGS: readonly Setting[] = [
  { name: 'PORT', key: 'port', default: '`3000`', meaning: 'HTTP port' },
  { name: 'HOST', key: 'host', default: '`0.0.0.0`', meaning: 'interface to listen on' },
  { name: 'DATABASE_URL', key: 'databaseUrl', default: 'unset', meaning: '`postgres://…` to use a PostgreSQL 15+ server; unset uses embedded PGlite' },
  { name: 'DATABASE_POOL_SIZE', default: '`10`', meaning: 'connections per instance to the PostgreSQL server (and to each read replica)' },
  { name: 'DATABASE_READ_URL', key: 'databaseReadUrls', default: 'unset', meaning: 'one or more streaming replicas of `DATABASE_URL`, comma-separated `postgres://…`, that published page data, search and insights read from (see Deploy and run Signpost); needs `DATABASE_URL`' },
  { name: 'DATABASE_READ_MAX_LAG_MS', key: 'databaseReadMaxLagMs', default: '`5000`', meaning: 'a replica further behind the primary than this is skipped until it catches up' },
  { name: 'PGLITE_SHARED_BUFFERS_MB', key: 'pgliteSharedBuffersMb', default: '`16`', meaning: "the embedded database's buffer cache, in MB (PostgreSQL's `shared_buffers`; PostgreSQL's own default is 128). Pages it does not hold are read from the operating system's file cache, so the process holds about 130 MB less than with 128: on the sample site searches answer as fast, on a 10 000-document tree one search takes about 1.1× as long (p50) and 1.2× (p95). Raise it for a large tree on a machine with memory to spare" },
  { name: 'DATABASE_READ_TIMEOUT_MS', key: 'databaseReadTimeoutMs', default: '`2000`', meaning: 'a read a replica does not answer within this is run on the primary and the replica skipped until a check finds it answering (a hung replica holds a read this long at most)' },
  { name: 'DATA_DIR', key: 'dataDir', default: '`./data`', meaning: 'where PGlite keeps its files (`data/pglite`)' },
  { name: 'CONTENT_DIR', key: 'contentDir', default: '`./content`', meaning: 'the content tree imported at start' },
  { name: 'IMPORT_ON_START', key: 'importOnStart', default: '`true`', meaning: 'import the content tree at start when it changed' },
  { name: 'PUBLIC_URL', key: 'publicUrl', default: '`http://localhost:$PORT`', meaning: 'origin used in canonical links and the sitemap' },
  { name: 'PREVIEW_TOKEN', key: 'previewToken', default: 'unset', meaning: 'secret (32+ characters) that turns on preview mode: `?preview=TOKEN` or header `X-Preview-Token`; unset disables preview' },
  { name: 'LOG_LEVEL', key: 'logLevel', default: '`info`', meaning: 'pino level (`fatal` … `trace`, `silent`)' },
  { name: 'ACCESS_LOG', key: 'accessLog', default: '`info`', meaning: 'one access-log line per request (method, URL, status, ms, body bytes, client address, `cache`: `hit`, `miss` or `stale` where the page cache could answer) at `info`, at `debug` (shown only with `LOG_LEVEL=debug`), or `off`; errors keep their own lines either way' },
  { name: 'TRUST_PROXY', key: 'trustProxy', default: '`false`', meaning: 'believe `X-Forwarded-For`/`-Proto`/`-Host` from a proxy in front: `true` (every hop), a hop count (`1`), or the proxies\' addresses and CIDR ranges, comma-separated (`10.0.0.0/8,127.0.0.1`); off, anyone could claim any address or host' },
  { name: 'IDENTITY_URL', key: 'identityUrl', default: '`/auth`', meaning: 'the identity base, a path: sign-in, callback, log-out and profile routes, and the embedded provider (`/auth/oidc`)' },
  { name: 'STAFF_EMAIL_DOMAIN', key: 'staffDomain', default: 'the content\'s `staffDomain`', meaning: 'e-mail domain of vendor staff (staff-only hints; the domain or a subdomain of it); unset in both, nobody is staff' },
  { name: 'OIDC_ISSUER', key: 'oidcIssuer', default: 'unset', meaning: 'an external OpenID Connect issuer (discovery URL without `/.well-known/…`); unset, the embedded provider' },
  { name: 'OIDC_CLIENT_ID', key: 'oidcClientId', default: '`signpost`', meaning: 'Signpost\'s client id at the issuer' },
  { name: 'OIDC_CLIENT_SECRET', key: 'oidcClientSecret', default: 'unset', meaning: 'its client secret: required with `OIDC_ISSUER`; with the embedded provider, unset uses a secret generated once and kept in the database' },
  { name: 'OIDC_SCOPES', key: 'oidcScopes', default: '`openid email profile roles` (embedded), `openid email profile` and `roles` when the issuer lists it (external)', meaning: 'scopes asked for; must include `openid`; when set, asked for exactly as given' },
  { name: 'OIDC_EDITOR_CLAIM', key: 'oidcEditorClaim', default: '`canEdit`', meaning: 'boolean claim that makes an author' },
  { name: 'OIDC_PARTNER_CLAIM', key: 'oidcPartnerClaim', default: '`partner`', meaning: 'boolean claim that makes a partner' },
  { name: 'OIDC_GROUPS_CLAIM', key: 'oidcGroupsClaim', default: '`groups`', meaning: 'claim holding the person\'s groups (an array)' },
  { name: 'OIDC_EDITOR_GROUP', key: 'oidcEditorGroup', default: '`editors`', meaning: 'group that makes an author' },
  { name: 'OIDC_PARTNER_GROUP', key: 'oidcPartnerGroup', default: '`partners`', meaning: 'group that makes a partner' },
  { name: 'OIDC_ACCOUNT_URL', key: 'oidcAccountUrl', default: 'unset', meaning: 'the issuer\'s account page for \'Manage profile\'; the embedded provider has its own (`/auth/account`)' },
  { name: 'OIDC_PROVIDER_CLIENTS', key: 'oidcProviderClients', default: '`[]`', meaning: 'further clients the embedded provider accepts, a JSON array of `{client_id, client_secret (16+ characters), redirect_uris, post_logout_redirect_uris, client_name}` (e.g. another site signing in against this one); `client_name` (1–100 characters) is what the sign-in and consent screens call it, else the host of its first redirect URI, never its id' },
  { name: 'SESSION_SECRET', key: 'sessionSecrets', default: 'unset', meaning: 'session cookie keys, 32+ characters each, comma-separated, newest first (rotation); unset, a key generated once and kept in the database' },
  { name: 'SESSION_IDLE_MINUTES', key: 'sessionIdleMinutes', default: '`120`', meaning: 'a session ends after this long without a request (last-seen is written back once a tenth of it, at most a minute, has passed, so an active visitor is never dropped)' },
  { name: 'SESSION_MAX_HOURS', key: 'sessionMaxHours', default: '`168`', meaning: 'and this long after sign-in, whatever happens' },
  { name: 'PARTNER_HOSTS', key: 'partnerHosts', default: 'unset', meaning: 'hosts, comma-separated, that are the partner site: visitors there are partners (spec §6)' },
  { name: 'CONTENT_EDITOR_URL', key: 'contentEditorUrl', default: 'unset', meaning: 'author shortcut to the content editor: a URL template with `{file}`, `{entryId}`, `{path}`; under `npm run dev` also a local editor\'s, with `{absolutePath}` and `{line}` (see Live preview)' },
  { name: 'DOCUMENT_EDITOR_URL', key: 'documentEditorUrl', default: 'unset', meaning: 'author shortcut to the document editor for entries with a `confluencePageId`: a URL template with `{pageId}`' },
  { name: 'CONTENT_EDITOR_NAME', key: 'contentEditorName', default: 'unset', meaning: 'what authors call the content editor (\'Edit Page in {name}\', up to 60 characters); unset, \'the content editor\'' },
  { name: 'DOCUMENT_EDITOR_NAME', key: 'documentEditorName', default: 'unset', meaning: 'what authors call the document editor (\'Edit in {name}\', up to 60 characters); unset, \'the document editor\'' },
  { name: 'REQUEST_REFERENCE_PREFIX', key: 'requestReferencePrefix', default: '`SR`', meaning: 'prefix of support request references (`SR-10234`): capital letters and digits' },
  { name: 'SMTP_URL', key: 'smtpUrl', default: 'unset', meaning: '`smtp://user:pass@host:587` or `smtps://…`: support requests, and the embedded provider\'s sign-up and password-reset links, are e-mailed through it' },
  { name: 'SUPPORT_MAIL_TO', key: 'supportMailTo', default: 'unset', meaning: 'where request e-mails go; required with `SMTP_URL`' },
  { name: 'SUPPORT_MAIL_FROM', key: 'supportMailFrom', default: '`help-centre@{PUBLIC_URL host}`', meaning: 'the From address of request e-mails and account e-mails' },
  { name: 'SUPPORT_WEBHOOK_URL', key: 'supportWebhookUrl', default: 'unset', meaning: 'requests are POSTed here as JSON, signed with an HMAC-SHA256 header' },
  { name: 'SUPPORT_WEBHOOK_SECRET', key: 'supportWebhookSecret', default: 'unset', meaning: 'the webhook signature\'s key (16+ characters); required with `SUPPORT_WEBHOOK_URL`' },
  { name: 'HELPDESK_TOKEN', key: 'helpdeskToken', default: 'unset', meaning: 'bearer token (32+ characters) of `POST /api/requests/{reference}/status`; unset, the endpoint refuses every call' },
  { name: 'NOTIFY_REQUESTERS', key: 'notifyRequesters', default: '`true`', meaning: 'with `SMTP_URL`, the requester gets an e-mail (from `SUPPORT_MAIL_FROM`) when their request\'s status changes or staff or the helpdesk answer it, with a link back; `false` when the helpdesk tells them itself' },
  { name: 'ACCOUNT_SIGN_UP', key: 'accountSignUp', default: '`true` when `SMTP_URL` is set, else `false`', meaning: 'whether people may open an account themselves on the embedded provider (`/auth/signup`), confirming their address by a link e-mailed through `SMTP_URL`; `true` without `SMTP_URL` is refused at start' },
  { name: 'DELIVERY_WORKER', key: 'deliveryWorker', default: '`true`', meaning: 'whether this instance delivers requests from the outbox (any number of instances may)' },
  { name: 'DELIVERY_MAX_ATTEMPTS', key: 'deliveryMaxAttempts', default: '`8`', meaning: 'attempts per channel before a delivery is marked failed' },
  { name: 'DELIVERY_BACKOFF_MS', key: 'deliveryBackoffMs', default: '`30000`', meaning: 'first retry delay; each further one doubles, with jitter' },
  { name: 'DELIVERY_POLL_MS', key: 'deliveryPollMs', default: '`5000`', meaning: 'how often an idle worker looks for due deliveries (a new request wakes it at once)' },
  { name: 'ATTACHMENT_MAX_FILES', key: 'attachmentMaxFiles', default: '`3`', meaning: 'files per support request (0 turns attachments off)' },
  { name: 'ATTACHMENT_MAX_BYTES', key: 'attachmentMaxBytes', default: '`10485760`', meaning: 'bytes per attached file' },
  { name: 'CONTENT_FILE_MAX_BYTES', default: '`10485760`', meaning: 'largest image or file a body may use (read by every import, `npm run import` included); a larger one is an import error; a value that is not a whole number of bytes stops the server and the import with a message' },
  { name: 'ATTACHMENT_TYPES', key: 'attachmentTypes', default: '`png,jpg,jpeg,gif,webp,pdf,txt,log,csv,json,xml,zip,har`', meaning: 'file extensions accepted' },
  { name: 'REQUEST_RATE_LIMIT', key: 'requestRateLimit', default: '`10`', meaning: 'support requests per hour from one client network and from one account' },
  { name: 'FLAGS_PROVIDER', key: 'flagsProvider', default: '`file`', meaning: 'where flags are decided (see Feature flags): `file` (flagd definitions evaluated in-process), `ofrep` (a flag service over OFREP) or `flagd` (flagd\'s OFREP endpoint)' },
  { name: 'FLAGS_FILE', key: 'flagsFile', default: '`CONTENT_DIR/flags.json`', meaning: 'the flagd definitions of `FLAGS_PROVIDER=file`: the tree\'s own are imported with the content and shared by every instance; a file elsewhere is read from this host\'s disk, watched and reloaded on change' },
  { name: 'FLAGS_URL', key: 'flagsUrl', default: 'unset', meaning: 'the flag service\'s OFREP base URL (`FLAGS_PROVIDER=ofrep` or `flagd`, e.g. `http://flagd:8016`); unset there, every flag takes its default (logged once)' },
  { name: 'FLAGS_TIMEOUT_MS', key: 'flagsTimeoutMs', default: '`500`', meaning: 'how long one evaluation waits for the flag service before the flag takes its default' },
  { name: 'AI_BASE_URL', key: 'aiBaseUrl', default: 'unset', meaning: 'an OpenAI-compatible API\'s base URL (`https://api.example.com/v1`, Ollama\'s `http://localhost:11434/v1`, vLLM\'s); unset, the assistant answers extractively and sends questions nowhere' },
  { name: 'AI_MODEL', key: 'aiModel', default: 'unset', meaning: 'the model the assistant asks (required with `AI_BASE_URL`)' },
  { name: 'AI_API_KEY', key: 'aiApiKey', default: 'unset', meaning: 'sent as `Authorization: Bearer …` when set' },
  { name: 'AI_TIMEOUT_MS', key: 'aiTimeoutMs', default: '`20000`', meaning: 'how long a generated answer may take, start to end, before the extractive answer stands in' },
  { name: 'AI_MAX_CONCURRENT', key: 'aiMaxConcurrent', default: '`4`', meaning: 'model calls one instance makes at once; a question past it is answered at once from the passages, with a notice that the assistant is busy' },
  { name: 'ASSISTANT_RATE_LIMIT', key: 'assistantRateLimit', default: '`30`', meaning: 'questions one account may ask the assistant per hour (page, stream and results summary together); more get 429 with `Retry-After`, no model call; counted in the database, so across instances' },
  { name: 'ASSISTANT_NETWORK_RATE_LIMIT', key: 'assistantNetworkRateLimit', default: '`120`', meaning: 'questions one client network (/24 or /48, as support forms count) may ask per hour, all its accounts together; same refusal' },
  { name: 'ANALYTICS', key: 'analytics', default: '`true`', meaning: 'first-party analytics (see Analytics): `false` records nothing and sends no script events anywhere' },
  { name: 'ANALYTICS_RETENTION_DAYS', key: 'analyticsRetentionDays', default: '`90`', meaning: 'days raw analytics events are kept; after that only their daily aggregates remain' },
  { name: 'ANALYTICS_RATE_LIMIT', key: 'analyticsRateLimit', default: '`600`', meaning: 'events one client network (its IPv4 /24 or IPv6 /64) may send a minute to `POST /api/events`; more are refused and counted as `rate_limited`. Counted in the database, so the limit holds across instances (each may run a little ahead of it: see Analytics)' },
  { name: 'SHUTDOWN_TIMEOUT_MS', key: 'shutdownTimeoutMs', default: '`10000`', meaning: 'on SIGTERM, how long requests in flight may take to finish before the connections left are closed' },
  { name: 'REQUEST_TIMEOUT_MS', key: 'requestTimeoutMs', default: '`120000`', meaning: 'how long a client has to send a whole request, head and body (the head alone at most 60 s); past it the answer is 408 and the connection is closed. A slow upload of the largest allowed attachments must fit in it' },
  { name: 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS', key: 'overloadMaxEventLoopDelayMs', default: '`1000`', meaning: 'load shedding: mean event-loop delay over a one-second sample above which requests get 503 with `Retry-After`; `0` turns it off' },
  { name: 'OVERLOAD_MAX_EVENT_LOOP_UTILIZATION', key: 'overloadMaxEventLoopUtilization', default: '`0` (off)', meaning: 'load shedding: event-loop utilisation (0–1) over a one-second sample above which requests are shed; off by default because an import on PGlite keeps the loop busy without the site being overloaded' },
  { name: 'OVERLOAD_MAX_HEAP_USED_MB', key: 'overloadMaxHeapUsedMb', default: '90 % of the V8 heap limit', meaning: 'load shedding: heap in use above which requests are shed; `0` turns it off' },
  { name: 'OVERLOAD_RETRY_AFTER_S', key: 'overloadRetryAfterS', default: '`10`', meaning: '`Retry-After` of a shed request (only new expensive work is shed: pages that would be rendered, API searches and analytics batches; static files, pages answered from the page cache, sign-in steps and form posts are always served)' },
  { name: 'SEARCH_MAX_CONCURRENT', key: 'searchMaxConcurrent', default: '`8`', meaning: 'searches one instance runs against the database at once (the results page, the search API, the assistant\'s retrieval; a search answered from the one-minute cache needs no place)' },
  { name: 'SEARCH_QUEUE_MAX', key: 'searchQueueMax', default: '`64`', meaning: 'searches that may wait for a place; past it a search is shed at once (503 with `Retry-After`)' },
  { name: 'SEARCH_QUEUE_TIMEOUT_MS', key: 'searchQueueTimeoutMs', default: '`500`', meaning: 'how long a search may wait for a place; one that would wait longer at the pace searches have been finishing is shed at once (so an admitted search answers within about a second)' },
  { name: 'DB_MAX_CONCURRENT', key: 'dbMaxConcurrent', default: '`16`', meaning: 'other requests one instance lets reach the database at once: pages the page cache does not hold, the sitemap, other reads (searches, static files, cached pages, sign-in steps and form posts have no place here)' },
  { name: 'DB_QUEUE_MAX', key: 'dbQueueMax', default: '`256`', meaning: 'such requests that may wait for a place; past it a request is shed at once (503 with `Retry-After`)' },
  { name: 'DB_QUEUE_TIMEOUT_MS', key: 'dbQueueTimeoutMs', default: '`1000`', meaning: 'how long such a request may wait for a place; one that would wait longer is shed at once' },
  { name: 'RATE_LIMIT_MAX', key: 'rateLimitMax', default: '`30`', meaning: 'form posts (feedback and other state-changing routes) one client address may send to one route per window; more get 429 with `Retry-After`' },
  { name: 'RATE_LIMIT_WINDOW', key: 'rateLimitWindow', default: '`60`', meaning: 'that window, in seconds; counts are kept in the database, so the limit holds across instances' },
];

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
    pgliteSharedBuffersMb: num(env.PGLITE_SHARED_BUFFERS_MB, 16),
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
    notifyRequesters: bool('NOTIFY_REQUESTERS', env.NOTIFY_REQUESTERS, true),
    deliveryWorker: bool('DELIVERY_WORKER', env.DELIVERY_WORKER, true),
    accountSignUp: bool('ACCOUNT_SIGN_UP', env.ACCOUNT_SIGN_UP, !!env.SMTP_URL),
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
    const names: Record<string, string> = Object.fromEntries(SETTINGS.flatMap((s) => (s.key ? [[s.key, s.name]] : [])));
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
  if (config.accountSignUp && !config.smtpUrl) {
    throw new ConfigError('ACCOUNT_SIGN_UP: needs SMTP_URL (a new account confirms its e-mail address by a link sent through it)');
  }
  if (config.supportWebhookUrl && !config.supportWebhookSecret) {
    throw new ConfigError('SUPPORT_WEBHOOK_SECRET: required when SUPPORT_WEBHOOK_URL is set (the key of the body\'s signature)');
  }
  if (config.oidcIssuer && !config.oidcClientSecret) {
    throw new ConfigError('OIDC_CLIENT_SECRET: required when OIDC_ISSUER names an external issuer');
  }
  return config as Config;
}
