import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Interaction, InteractionResults } from 'oidc-provider';
import { SignInPage } from '../../../views/pages/identity/sign-in-page.tsx';
import { ConsentPage } from '../../../views/pages/identity/consent-page.tsx';
import { IdentityErrorPage } from '../../../views/pages/identity/identity-error-page.tsx';
import type { LazyProvider, ProviderOptions } from './index.ts';
import { cspWithFormTargets, SCOPE_WORDS, siteNameOf } from './screens.tsx';
import { accountHash } from '../security-log.ts';

const MAX_EMAIL = 320;
const MAX_PASSWORD = 1024;
const INCORRECT = 'E-mail or password is incorrect.';
const UNVERIFIED = 'Confirm your e-mail address first: follow the link we e-mailed you when you signed up. To get a new link, sign up again with the same address.';

type Params = { uid: string };

/** The sign-in step's uid cookie does not name this step, or the step expired or never existed. */
class InteractionGone extends Error {
  override name = 'InteractionGone';
}

function lockedMessage(retryAfterS: number): string {
  const minutes = Math.ceil(retryAfterS / 60);
  const wait = retryAfterS < 60 ? `${retryAfterS} second${retryAfterS === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many failed sign-ins for this e-mail address. Sign-in is paused for it: try again in ${wait}.`;
}

/**
 * The embedded provider's interaction screens (issue "The embedded default"): sign-in (also for
 * "switch account", prompt=select_account) and consent for clients other than the site itself. Each is
 * a server-rendered form that works without JavaScript; every POST is refused from other sites.
 */
export default async function registerInteractions(app: FastifyInstance, opts: ProviderOptions & { provider: LazyProvider }) {
  const { base, client, provider } = opts;
  const path = `${base}/interaction/:uid`;
  const formTargets = new WeakMap<FastifyRequest, string[]>();

  // A form's post ends at the application's redirect URI: the CSP lets it (cspWithFormTargets).
  app.addHook('onSend', async (request, reply, payload) => {
    const targets = formTargets.get(request);
    if (targets && reply.getHeader('content-security-policy')) reply.header('content-security-policy', cspWithFormTargets(targets));
    return payload;
  });

  /** The interaction this request is a step of, or InteractionGone. */
  async function details(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<Interaction> {
    const op = await provider();
    let interaction: Interaction;
    try {
      interaction = await op.interactionDetails(request.raw, reply.raw);
    } catch (error) {
      if ((error as Error).name === 'SessionNotFound') throw new InteractionGone();
      throw error;
    }
    if (interaction.uid !== request.params.uid) throw new InteractionGone();
    // Where the step ends: the request's redirect URI, or the client's only one when it left it out.
    const redirect = interaction.params.redirect_uri;
    const clientId = interaction.params.client_id;
    formTargets.set(request, typeof redirect === 'string' ? [redirect]
      : typeof clientId === 'string' ? (await op.Client.find(clientId))?.redirectUris ?? [] : []);
    return interaction;
  }

  /** The interaction, or undefined once the "expired" page is sent. */
  async function step(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<Interaction | undefined> {
    try {
      return await details(request, reply);
    } catch (error) {
      if (!(error instanceof InteractionGone)) throw error;
      await gone(reply);
      return undefined;
    }
  }

  async function gone(reply: FastifyReply) {
    return reply.page(
      <IdentityErrorPage siteName={await siteNameOf(app)} css={await app.pageStylesheets()} status={400} title="This sign-in has expired"
        message="This sign-in step is unknown or has expired. Start the sign-in again from the site." restartHref={`${base}/login`} />,
      { status: 400, cache: 'private' });
  }

  async function clientName(interaction: Interaction): Promise<string | undefined> {
    const id = interaction.params.client_id;
    if (typeof id !== 'string' || id === client.id) return undefined;
    const found = await (await provider()).Client.find(id);
    // An id is the operator's word for the client; the person recognises the site it sends them back to.
    const name = found?.clientName?.trim();
    if (name) return name;
    const redirect = found?.redirectUris[0];
    return redirect && URL.canParse(redirect) ? new URL(redirect).host : id;
  }

  async function signInPage(reply: FastifyReply, interaction: Interaction, extra: { email?: string; error?: string; status?: number } = {}) {
    return reply.page(
      <SignInPage siteName={await siteNameOf(app)} css={await app.pageStylesheets()} action={`${base}/interaction/${interaction.uid}/login`}
        email={extra.email} error={extra.error} status={extra.status} clientName={await clientName(interaction)}
        forgotHref={opts.config.smtpUrl ? `${base}/forgot` : undefined} signUpHref={opts.config.accountSignUp ? `${base}/signup` : undefined} />,
      { status: extra.status ?? 200, cache: 'private' });
  }

  async function consentPage(reply: FastifyReply, interaction: Interaction) {
    const requested = String(interaction.params.scope ?? 'openid').split(' ').filter((s) => s in SCOPE_WORDS);
    const account = interaction.session?.accountId ? await opts.accounts.byId(interaction.session.accountId) : undefined;
    return reply.page(
      <ConsentPage siteName={await siteNameOf(app)} css={await app.pageStylesheets()} clientName={(await clientName(interaction)) ?? 'This application'}
        asks={requested.map((s) => SCOPE_WORDS[s] as string)} email={account?.email}
        confirmAction={`${base}/interaction/${interaction.uid}/confirm`} abortAction={`${base}/interaction/${interaction.uid}/abort`} />,
      { cache: 'private' });
  }

  /**
   * Records the step's result (as oidc-provider's interactionResult does) and sends the browser back
   * to the provider to carry on.
   */
  async function finish(reply: FastifyReply, interaction: Interaction, result: InteractionResults, merge = true) {
    interaction.result = merge && !('error' in result) ? { ...interaction.lastSubmission, ...result } : result;
    await interaction.save(interaction.exp - Math.floor(Date.now() / 1000));
    return reply.header('cache-control', 'private, no-store').redirect(interaction.returnTo, 303);
  }

  /**
   * Switch account: the provider session of the account signed in before ends here, on the server.
   * (oidc-provider would end it with a form that a script submits, which the pages' CSP does not run.)
   */
  async function endPreviousSession(interaction: Interaction, accountId: string) {
    const previous = interaction.session;
    if (!previous?.accountId || previous.accountId === accountId) return;
    if (previous.uid) await app.db.query(`delete from oidc_models where kind = 'Session' and uid = $1`, [previous.uid]);
    delete interaction.session;
  }

  /** Consent given: the grant gets what the request asked for and was not yet granted. */
  async function grantAndFinish(reply: FastifyReply, interaction: Interaction) {
    const accountId = interaction.session?.accountId;
    if (interaction.prompt.name !== 'consent' || !accountId || typeof interaction.params.client_id !== 'string') return gone(reply);
    const { Grant } = await provider();
    const grant = (interaction.grantId ? await Grant.find(interaction.grantId) : undefined) ?? new Grant({ accountId, clientId: interaction.params.client_id });
    const missing = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope?.length) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims?.length) grant.addOIDCClaims(missing.missingOIDCClaims);
    return finish(reply, interaction, { consent: { grantId: await grant.save() } });
  }

  const signInPrompt = (interaction: Interaction) => interaction.prompt.name === 'login' || interaction.prompt.name === 'select_account';

  app.get<{ Params: Params }>(path, async (request, reply) => {
    const interaction = await step(request, reply);
    if (!interaction) return reply;
    if (signInPrompt(interaction)) return signInPage(reply, interaction, { email: typeof interaction.params.login_hint === 'string' ? interaction.params.login_hint : undefined });
    // The site itself is never asked about (even with prompt=consent): what it asks for is granted.
    if (interaction.params.client_id === client.id) return grantAndFinish(reply, interaction);
    return consentPage(reply, interaction);
  });

  app.post<{ Params: Params; Body: { email?: unknown; password?: unknown } }>(`${path}/login`, { config: { stateChanging: true } }, async (request, reply) => {
    const interaction = await step(request, reply);
    if (!interaction) return reply;
    if (!signInPrompt(interaction)) return gone(reply);
    const body = (request.body ?? {}) as { email?: unknown; password?: unknown };
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    if (email.length > MAX_EMAIL || password.length > MAX_PASSWORD) {
      return signInPage(reply, interaction, { status: 400, error: 'The e-mail address or password is too long.' });
    }
    if (!email || !password) return signInPage(reply, interaction, { email, status: 422, error: 'Enter your e-mail address and password.' });
    const outcome = await opts.accounts.signIn(email, password);
    if (!outcome.ok) {
      const who = { accountHash: outcome.accountId ? accountHash(outcome.accountId) : undefined, knownAccount: outcome.accountId !== undefined, ip: request.ip };
      if (outcome.reason === 'invalid') request.log.info(who, 'sign-in failed');
      else if (outcome.reason === 'unverified') request.log.info(who, 'sign-in refused: e-mail address not confirmed');
      else if (outcome.lockedNow) request.log.warn({ ...who, lockedForS: outcome.retryAfterS }, 'sign-in locked out after repeated failures');
      else request.log.warn({ ...who, retryAfterS: outcome.retryAfterS }, 'sign-in refused: locked out');
    }
    if (!outcome.ok && outcome.reason === 'locked') {
      reply.header('retry-after', String(outcome.retryAfterS));
      return signInPage(reply, interaction, { email, status: 429, error: lockedMessage(outcome.retryAfterS) });
    }
    if (!outcome.ok) return signInPage(reply, interaction, { email, status: 422, error: outcome.reason === 'unverified' ? UNVERIFIED : INCORRECT });
    await endPreviousSession(interaction, outcome.account.id);
    return finish(reply, interaction, { login: { accountId: outcome.account.id }, ...(interaction.prompt.name === 'select_account' ? { select_account: {} } : {}) });
  });

  app.post<{ Params: Params }>(`${path}/confirm`, { config: { stateChanging: true } }, async (request, reply) => {
    const interaction = await step(request, reply);
    if (!interaction) return reply;
    return grantAndFinish(reply, interaction);
  });

  app.post<{ Params: Params }>(`${path}/abort`, { config: { stateChanging: true } }, async (request, reply) => {
    const interaction = await step(request, reply);
    if (!interaction) return reply;
    return finish(reply, interaction, { error: 'access_denied', error_description: 'The person cancelled the sign-in.' }, false);
  });
}
