/**
 * Feature flags and experiments (spec §7 feature-flag service, §8 failures), decided on the server
 * through the OpenFeature server SDK. `app.flags.evaluate(name, context)` for any caller,
 * `request.flags.boolean(name)` for a page: it builds the request's context (context.ts), keeps every
 * page honest for caches (below) and tells staff what the page was rendered with (`x-signpost-flags`).
 *
 * Caching (docs/ 'Feature flags'): a flag without targeting rules is the same for everyone, so pages
 * that only read such flags stay public, shared-cacheable and kept by the page cache. A page that reads
 * a targeted flag is rendered for its visitor alone: `private, no-store` (the page's route asks for it
 * through `request.flags.cache()`). An anonymous visitor gets a first-party id cookie only when a flag's
 * rules read the targeting key (a rollout), so each visitor stays in one bucket; that response sets a
 * cookie and is private too. A shared cache therefore never holds a page decided by one visitor's bucket.
 * A change of the definitions drops every rendered page (the content store's invalidation).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { OpenFeature, type Client, type EvaluationContext, type Logger } from '@openfeature/server-sdk';
import type { Config } from '../config.ts';
import { requestVisitor } from '../identity/roles.ts';
import type { Visitor } from '../../views/view-model.ts';
import { FLAGS, FLAG_NAMES, isFlagName, type FlagName, type FlagSpec } from './catalogue.ts';
import {
  ANONYMOUS_ID_COOKIE, ANONYMOUS_ID_MAX_AGE_S, evaluationContext, isAnonymousId, newAnonymousId,
} from './context.ts';
import { providerFor, type ProviderSetup } from './providers.ts';

export interface Evaluation {
  name: FlagName;
  value: boolean;
  reason: string;
  variant?: string | undefined;
  /** Set when the flag took its default because the evaluation failed (spec §8). */
  errorCode?: string | undefined;
}

/** Reasons that say the value is the same for every context (OpenFeature's standard reasons). */
const SAME_FOR_EVERYONE = new Set(['STATIC', 'DEFAULT', 'DISABLED', 'ERROR']);

export interface FlagService {
  /** One flag for a context, through the SDK: never throws; a failure is logged and gives the default. */
  evaluate(name: FlagName, context: EvaluationContext): Promise<Evaluation>;
  /**
   * Where the definitions come from: 'content' (the imported tree's flags.json), 'file' (FLAGS_FILE
   * outside the tree), 'remote', or 'none' (every flag takes its default).
   */
  readonly source: ProviderSetup['kind'];
  /**
   * Whether a flag's value may differ between visitors ('visitor': its rules read the targeting key;
   * 'context': other rules; 'none'), as far as the definitions say; undefined when they cannot (a service).
   */
  shapeOf(name: FlagName): 'visitor' | 'context' | 'none' | undefined;
  /**
   * With a flag service: asks it again for every flag and drops the rendered pages if an answer changed
   * (a service announces nothing; this runs every REMOTE_CHECK_MS). True when something changed.
   */
  recheck(): Promise<boolean>;
}

/** The flags of one request, evaluated on demand, each at most once. */
export interface RequestFlags {
  boolean(name: FlagName): Promise<boolean>;
  /** Every flag this request has evaluated so far, in order. */
  evaluated(): readonly Evaluation[];
  /** 'private' once a flag decided for this visitor alone was read: the page must not be shared. */
  cache(): 'public' | 'private';
  /**
   * Whether a flag took its default because its evaluation failed (spec §8): the page is right for now,
   * but no cache may keep it past the next evaluation (server/plugins/render.ts).
   */
  fellBack(): boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    flags: FlagService;
  }
  interface FastifyRequest {
    flags: RequestFlags;
  }
}

export interface FlagsPluginOptions {
  config: Pick<Config, 'flagsProvider' | 'flagsFile' | 'flagsUrl' | 'flagsTimeoutMs' | 'contentDir' | 'staffDomain' | 'partnerHosts' | 'publicUrl'>;
  /** A provider to use instead of the configured one (tests: one that fails). */
  provider?: import('@openfeature/server-sdk').Provider | undefined;
}

/** How often the answers of a flag service are compared with the last ones (pages kept follow within this). */
export const REMOTE_CHECK_MS = 30_000;

/** Repeated failures of one flag are logged once a minute, not once per page. */
const LOG_EVERY_MS = 60_000;

/**
 * Provider text fit for a log line: a flag service's URL may carry credentials in its user part or its
 * query string (`?api_key=…`), so both are masked wherever a URL appears; the address itself stays.
 */
export function logSafe(text: string): string {
  return text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/@\s]+@/gi, '$1…@')
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s?#"'<>]*)[?#][^\s"'<>]*/gi, '$1?…');
}

export default fp<FlagsPluginOptions>(async (app, opts) => {
  const { config } = opts;
  const log = app.log.child({ area: 'flags' });
  const sdkLogger: Logger = {
    error: (...args: unknown[]) => log.error({ detail: logSafe(args.map(String).join(' ')) }, 'flag provider error'),
    warn: (...args: unknown[]) => log.warn({ detail: logSafe(args.map(String).join(' ')) }, 'flag provider warning'),
    info: () => undefined,
    debug: () => undefined,
  };

  let loads = 0;
  let reportedMissing = false;
  const readStored = async () => {
    // The primary: a NOTIFY arrives before a replica may have replayed the import it announces.
    const rows = await app.db.query<{ flags: string | null }>('select flags from content_imports order by id desc limit 1');
    return rows[0];
  };
  const setup: ProviderSetup = opts.provider
    ? { kind: 'remote', provider: opts.provider, url: 'test' }
    : providerFor(config, sdkLogger, ({ loaded, missing, problems }) => {
      const source = setup.kind === 'content' ? 'imported content' : config.flagsFile;
      if (loaded) {
        reportedMissing = false;
        log.info({ file: source }, 'flag definitions loaded');
        // Pages were rendered with the old definitions: drop them (page cache, role templates). Imported
        // ones arrive after the import's own drop, so pages rendered in between go too.
        if ((loads++ > 0 || setup.kind === 'content') && app.hasDecorator('content')) app.content.invalidate();
        return;
      }
      if (missing) {
        // Spec §8 missing configuration: logged once (again only after a good file went away and came back).
        if (!reportedMissing) log.warn({ file: source }, 'no flags file: every flag takes its default until one appears');
        if (!reportedMissing && setup.kind === 'content' && loads > 0) app.content.invalidate();
        reportedMissing = true;
        return;
      }
      const serving = loads > 0 ? 'the last good definitions keep serving' : 'every flag takes its default';
      for (const problem of problems) {
        log.error({ problem: `${problem.file}${problem.line ? `:${problem.line}` : ''}${problem.column ? `:${problem.column}` : ''}: ${problem.field ? `${problem.field}: ` : ''}${problem.reason}` }, `flags file refused; ${serving}`);
      }
    }, readStored);
  // Imported definitions follow the content: whenever its caches drop (an import's NOTIFY, here or on
  // another instance, or a reconnected listener), the latest import's are read again.
  if (setup.kind === 'content' && app.hasDecorator('content')) {
    const provider = setup.provider;
    app.content.onInvalidate(() => provider.reload());
  }

  // A domain of its own per app, so apps side by side in one process (tests) never share a provider.
  const domain = `signpost-${randomUUID()}`;
  if (setup.kind === 'none') {
    log.warn({ reason: setup.reason }, 'no flag provider configured: every flag takes its default');
  } else {
    try {
      await OpenFeature.setProviderAndWait(domain, setup.provider);
    } catch (error) {
      log.error({ err: { name: (error as Error).name, message: logSafe(String((error as Error).message)) } }, 'flag provider failed to start: every flag takes its default until it recovers');
    }
  }
  const client: Client = OpenFeature.getClient(domain);
  app.addHook('onClose', async () => {
    if (setup.kind !== 'none') await setup.provider.onClose?.();
  });

  const lastLogged = new Map<string, number>();
  function logFailure(name: FlagName, errorCode: string, message: string | undefined): void {
    const key = `${name} ${errorCode}`;
    const now = Date.now();
    if ((lastLogged.get(key) ?? 0) > now - LOG_EVERY_MS) return;
    lastLogged.set(key, now);
    const spec = FLAGS[name];
    // Provider messages name flags and services, never a visitor: the context is not logged.
    const fields = { flag: name, errorCode, detail: message === undefined ? undefined : logSafe(message).slice(0, 200) };
    if (spec.kind === 'experiment') log.warn(fields, 'experiment failed: feature hidden');
    else log.warn(fields, 'flag evaluation failed: default used');
  }

  async function evaluate(name: FlagName, context: EvaluationContext): Promise<Evaluation> {
    const fallback: boolean = FLAGS[name].default;
    try {
      const details = await client.getBooleanDetails(name, fallback, context);
      if (details.errorCode) {
        // A flag absent from the definitions is not a failure: it has its default by design.
        if (details.errorCode !== 'FLAG_NOT_FOUND') logFailure(name, details.errorCode, details.errorMessage);
        return { name, value: fallback, reason: details.errorCode === 'FLAG_NOT_FOUND' ? 'DEFAULT' : 'ERROR', errorCode: details.errorCode };
      }
      return { name, value: details.value, reason: details.reason ?? 'UNKNOWN', variant: details.variant };
    } catch (error) {
      logFailure(name, 'GENERAL', (error as Error).message);
      return { name, value: fallback, reason: 'ERROR', errorCode: 'GENERAL' };
    }
  }

  const service: FlagService = {
    evaluate,
    recheck: async () => false,
    source: setup.kind,
    shapeOf(name) {
      if (setup.kind === 'none') return 'none';
      if (setup.kind === 'remote') return undefined;
      const shape = setup.provider.shapeOf(name);
      return shape.usesTargetingKey ? 'visitor' : shape.targeted ? 'context' : 'none';
    },
  };
  app.decorate('flags', service);

  // A flag service's answers for a context with no visitor in it: a change of a flag that is the same for
  // everyone (or one that starts to depend on who asks) must not leave kept pages showing the old value.
  let lastAnswers = '';
  async function answers(): Promise<string> {
    const all = await Promise.all(FLAG_NAMES.map((name) => evaluate(name, { role: 'anonymous', signedIn: false })));
    return all.map((e) => `${e.name}=${e.value}:${e.reason}`).join(',');
  }
  service.recheck = async () => {
    if (setup.kind !== 'remote') return false;
    const now = await answers();
    const changed = lastAnswers !== '' && now !== lastAnswers;
    lastAnswers = now;
    if (changed) {
      log.info('flag service answers changed; rendered pages dropped');
      app.content.invalidate();
    }
    return changed;
  };
  if (setup.kind === 'remote') {
    app.addHook('onReady', async () => {
      await service.recheck();
    });
    const timer = setInterval(() => void service.recheck(), REMOTE_CHECK_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  }

  const secureCookie = config.publicUrl.startsWith('https:');
  app.decorateRequest('flags', null as unknown as RequestFlags);
  app.addHook('onRequest', async (request, reply) => {
    request.flags = requestFlags(request, reply);
  });

  function requestFlags(request: FastifyRequest, reply: FastifyReply): RequestFlags {
    const done = new Map<FlagName, Promise<Evaluation>>();
    const list: Evaluation[] = [];
    let personal = false;
    let failed = false;
    let visitor: Promise<Visitor> | undefined;
    const visitorOf = () => (visitor ??= requestVisitor(app, request, config));

    function anonymousId(): string {
      const existing = request.cookies?.[ANONYMOUS_ID_COOKIE];
      if (isAnonymousId(existing)) return existing;
      const id = newAnonymousId();
      request.cookies = { ...request.cookies, [ANONYMOUS_ID_COOKIE]: id };
      reply.setCookie(ANONYMOUS_ID_COOKIE, id, {
        path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookie, maxAge: ANONYMOUS_ID_MAX_AGE_S,
      });
      return id;
    }

    async function run(name: FlagName): Promise<Evaluation> {
      const who = await visitorOf();
      const base = { visitor: who, user: request.user, path: request.url.split('?')[0] ?? '/', host: request.hostname };
      const sent: Record<string, boolean> = {};
      const spec: FlagSpec = FLAGS[name];
      for (const [attribute, other] of Object.entries(spec.sendsWith ?? {})) {
        if (isFlagName(other) && other !== name) sent[attribute] = await flags.boolean(other);
      }
      const contextOf = (input: Parameters<typeof evaluationContext>[0]) => ({ ...evaluationContext(input), ...sent });
      const shape = service.shapeOf(name);
      let result: Evaluation;
      if (who.signedIn) {
        result = await evaluate(name, contextOf(base));
        if (shape ? shape !== 'none' : !SAME_FOR_EVERYONE.has(result.reason)) personal = true;
      } else if (shape === 'visitor') {
        result = await evaluate(name, contextOf({ ...base, anonymousId: anonymousId() }));
        personal = true;
      } else {
        result = await evaluate(name, contextOf(base));
        if (shape === 'context') personal = true;
        else if (shape === undefined && !SAME_FOR_EVERYONE.has(result.reason)) {
          // A service's rules may read the key: decide again with this visitor's own id.
          result = await evaluate(name, contextOf({ ...base, anonymousId: anonymousId() }));
          personal = true;
        }
      }
      list.push(result);
      if (result.errorCode && result.errorCode !== 'FLAG_NOT_FOUND') failed = true;
      // Spec: staff see what a page was rendered with; nobody else gets the header.
      if (who.staff) reply.header('x-signpost-flags', list.map((e) => `${e.name}=${e.value}${e.variant ? ` (${e.variant})` : ''}; ${e.reason.toLowerCase()}`).join(', '));
      return result;
    }

    const flags: RequestFlags = {
      async boolean(name) {
        let pending = done.get(name);
        if (!pending) {
          // Pages never fail because of flags (spec §8): whatever goes wrong, the default.
          pending = run(name).catch((error: unknown) => {
            logFailure(name, 'GENERAL', (error as Error).message);
            failed = true;
            return { name, value: FLAGS[name].default as boolean, reason: 'ERROR', errorCode: 'GENERAL' };
          });
          done.set(name, pending);
        }
        return (await pending).value;
      },
      evaluated: () => list,
      cache: () => (personal ? 'private' : 'public'),
      fellBack: () => failed,
    };
    return flags;
  }
}, { name: 'flags', dependencies: ['content'] });
