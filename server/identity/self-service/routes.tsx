/**
 * Accounts people manage themselves on the embedded provider, under the identity base B; every step is
 * a server-rendered form or link, post/redirect/get, so it works without JavaScript:
 * - B/signup (ACCOUNT_SIGN_UP): opens an account whose address is confirmed by a link e-mailed to it
 *   (B/verify); it cannot sign in before.
 * - B/forgot: e-mails a reset link (B/reset) to the address when an account has it. The answer is the
 *   same whether it does or not, and for a sign-up with an address already taken.
 * Links are signed, expire and work once (links.ts); mail goes through the account outbox (mail.ts).
 * Posts are rate-limited per client (the app's limiter) and mail per address (MAIL_PER_ADDRESS_PER_HOUR).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { databaseStore } from '../../plugins/rate-limit.ts';
import { AccountError, type Account } from '../accounts.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH, passwordProblem } from '../password-rules.ts';
import { storedSecret } from '../secrets.ts';
import { siteNameOf } from '../provider/screens.tsx';
import { AccountLinks, type LinkClaims, type LinkProblem, type LinkPurpose } from './links.ts';
import { AccountMail } from './mail.ts';
import { AccountFormPage, AccountMessagePage, type AccountField, type AccountLink } from '../../../views/pages/identity/account-form-page.tsx';

export interface SelfServiceOptions {
  config: Config;
  clock?: (() => number) | undefined;
}

/** Account e-mails one address may be sent per hour, whoever asks: more are not sent (the answer is the same). */
export const MAIL_PER_ADDRESS_PER_HOUR = 5;
const HOUR_MS = 3600_000;
const MAX_EMAIL = 254;
const MAX_NAME = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Body = Record<string, unknown>;
const text = (body: Body, name: string) => (typeof body[name] === 'string' ? body[name] : '');
const capitalised = (reason: string) => `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;

const LINK_WORDS: Record<LinkProblem, { status: number; title: string; message: string }> = {
  malformed: { status: 400, title: 'This link does not work', message: 'The link is incomplete or was changed. Open it again from the e-mail, or copy the whole address into your browser.' },
  expired: { status: 410, title: 'This link has expired', message: 'Links we e-mail work for a limited time. Ask for a new one below.' },
  used: { status: 410, title: 'This link was already used', message: 'Each link we e-mail works once. If it was not you who used it, ask for a new one below.' },
};

export default async function selfServiceRoutes(app: FastifyInstance, opts: SelfServiceOptions) {
  const { config } = opts;
  const base = config.identityUrl;
  const clock = opts.clock ?? Date.now;
  const paths = {
    signUp: `${base}/signup`, signUpSent: `${base}/signup/sent`, verify: `${base}/verify`,
    forgot: `${base}/forgot`, forgotSent: `${base}/forgot/sent`, reset: `${base}/reset`, resetDone: `${base}/reset/done`, signIn: `${base}/login`,
  };
  const smtpUrl = config.smtpUrl;
  if (!smtpUrl) return;

  const links = new AccountLinks(app.db, await storedSecret(app.db, 'account-link-key', () => randomBytes(32).toString('base64url')), clock);
  const mail = new AccountMail({
    db: app.db, log: app.log.child({ component: 'account-mail' }), smtpUrl, from: config.supportMailFrom,
    maxAttempts: config.deliveryMaxAttempts, backoffMs: config.deliveryBackoffMs,
  });
  if (config.deliveryWorker) {
    app.addHook('onReady', async () => {
      mail.start(config.deliveryPollMs);
      void mail.flush();
    });
  }
  app.addHook('onClose', async () => mail.stop());

  const Counter = databaseStore(app.db, app.log);
  const counter = new Counter();
  /** Whether another account e-mail to this address is within MAIL_PER_ADDRESS_PER_HOUR. */
  const mayMail = (email: string) => new Promise<boolean>((resolve) => {
    const key = `account-mail:${createHash('sha256').update(email.trim().toLowerCase()).digest('base64url')}`;
    counter.incr(key, (_error, result) => resolve((result?.current ?? 0) <= MAIL_PER_ADDRESS_PER_HOUR), HOUR_MS);
  });

  const linkUrl = (purpose: LinkPurpose, token: string) => `${config.publicUrl}${purpose === 'verify' ? paths.verify : paths.reset}?t=${encodeURIComponent(token)}`;

  /** Mints a link for the account and queues its e-mail, in one transaction; sending follows the commit. */
  async function sendLink(request: FastifyRequest, account: Account, purpose: LinkPurpose, kind: 'verify' | 'reset' | 'taken'): Promise<void> {
    if (!(await mayMail(account.email))) {
      request.log.info({ kind }, 'account mail withheld: too many for one address this hour');
      return;
    }
    const siteName = await siteNameOf(app);
    await app.db.transaction(async (tx) => {
      const url = linkUrl(purpose, await links.mint(tx, purpose, account.id));
      await mail.queue(tx, messageFor(kind, siteName, account, url));
    });
    request.log.info({ kind }, 'account mail queued');
    void mail.flush();
  }

  const page = async (reply: FastifyReply, view: (siteName: string, css: Awaited<ReturnType<typeof app.pageStylesheets>>) => JSX.Element, status = 200) => {
    reply.header('cache-control', 'private, no-store');
    return reply.page(view(await siteNameOf(app), await app.pageStylesheets()), { status, cache: 'private' });
  };
  const message = (reply: FastifyReply, title: string, text: string, status = 200, extra: AccountLink[] = []) =>
    page(reply, (siteName, css) => <AccountMessagePage siteName={siteName} css={css} status={status} title={title} message={text} links={extra} />, status);

  const passwordFields = (hintEmail = false): AccountField[] => [
    { name: 'newPassword', label: 'Password', type: 'password', autoComplete: 'new-password', minLength: MIN_PASSWORD_LENGTH, maxLength: MAX_PASSWORD_LENGTH,
      hint: `At least ${MIN_PASSWORD_LENGTH} characters, not a common password${hintEmail ? ' and not your e-mail address' : ''}.` },
    { name: 'confirmPassword', label: 'Password again', type: 'password', autoComplete: 'new-password', maxLength: MAX_PASSWORD_LENGTH },
  ];

  /** The new password and its confirmation, checked: field → problem. */
  function checkNewPassword(body: Body, email: string, errors: Record<string, string>): string {
    const next = text(body, 'newPassword');
    const problem = passwordProblem(next, email);
    if (problem) errors.newPassword = capitalised(problem);
    else if (text(body, 'confirmPassword') !== next) errors.confirmPassword = 'Type the same password again.';
    return next;
  }

  // Sign-up.
  const signUpForm = (reply: FastifyReply, extra: { status?: number; errors?: Record<string, string>; email?: string; name?: string } = {}) =>
    page(reply, (siteName, css) => (
      <AccountFormPage siteName={siteName} css={css} status={extra.status} title="Create an account" action={paths.signUp} submit="Create account"
        intro={`We will e-mail you a link to confirm your address before you can sign in to ${siteName}.`}
        errors={extra.errors} links={[{ href: paths.signIn, label: 'Sign in instead' }, { href: paths.forgot, label: 'Forgot password?' }]}
        fields={[
          { name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email', maxLength: MAX_EMAIL, value: extra.email },
          { name: 'name', label: 'Name', type: 'text', autoComplete: 'name', maxLength: MAX_NAME, value: extra.name, required: false, hint: 'Optional: how we address you.' },
          ...passwordFields(true),
        ]} />
    ), extra.status);

  const signUpClosed = (reply: FastifyReply) => message(reply, 'Sign-up is closed',
    'Accounts on this site are opened by its administrators. If you have one, sign in; if you forgot its password, ask for a new one.', 404,
    [{ href: paths.signIn, label: 'Sign in' }, { href: paths.forgot, label: 'Forgot password?' }]);

  app.get(paths.signUp, async (_request, reply) => (config.accountSignUp ? signUpForm(reply) : signUpClosed(reply)));

  app.post(paths.signUp, { config: { stateChanging: true } }, async (request, reply) => {
    if (!config.accountSignUp) return signUpClosed(reply);
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Body;
    const email = text(body, 'email').trim();
    const name = text(body, 'name').trim();
    const errors: Record<string, string> = {};
    if (!EMAIL.test(email) || email.length > MAX_EMAIL) errors.email = 'Enter an e-mail address, like name@example.com.';
    if (name.length > MAX_NAME) errors.name = `Use at most ${MAX_NAME} characters.`;
    const password = checkNewPassword(body, email, errors);
    if (Object.keys(errors).length > 0) return signUpForm(reply, { status: 422, errors, email: email.slice(0, MAX_EMAIL), name: name.slice(0, MAX_NAME) });

    const existing = await app.accounts.byEmail(email);
    if (existing) {
      // The same answer as for a new account: a confirmed one's owner is told by e-mail, with a way back in.
      if (!existing.disabled) await sendLink(request, existing, existing.emailVerified ? 'reset' : 'verify', existing.emailVerified ? 'taken' : 'verify');
    } else {
      let account: Account;
      try {
        account = await app.accounts.create({ email, displayName: name, password, emailVerified: false });
      } catch (error) {
        if (!(error instanceof AccountError)) throw error;
        if (error.field === 'password') return signUpForm(reply, { status: 422, errors: { newPassword: capitalised(error.reason) }, email, name });
        // Taken between the look-up and the insert: answered as any taken address.
        return reply.header('cache-control', 'no-store').redirect(paths.signUpSent, 303);
      }
      request.log.info({ account: account.id }, 'account opened on the sign-up page');
      await sendLink(request, account, 'verify', 'verify');
    }
    return reply.header('cache-control', 'no-store').redirect(paths.signUpSent, 303);
  });

  app.get(paths.signUpSent, async (_request, reply) => message(reply, 'Check your e-mail',
    'We sent a link to the address you gave. Follow it to confirm the address, then sign in. The link works for 24 hours. Nothing arrived? Look in your spam folder, or sign up again to get a new link.',
    200, [{ href: paths.signIn, label: 'Sign in' }]));

  /** A link from a query or form: its claims once checked, or its page sent. */
  async function claimsOf(reply: FastifyReply, token: unknown, purpose: LinkPurpose, checkUnused: boolean): Promise<LinkClaims | undefined> {
    const claims = links.read(token, purpose);
    const problem: LinkProblem | undefined = typeof claims === 'string' ? claims : checkUnused && !(await links.unused(claims)) ? 'used' : undefined;
    if (problem === undefined) return claims as LinkClaims;
    await linkProblem(reply, problem, purpose);
    return undefined;
  }

  const linkProblem = (reply: FastifyReply, problem: LinkProblem, purpose: LinkPurpose) => {
    const words = LINK_WORDS[problem];
    return message(reply, words.title, words.message, words.status, purpose === 'verify'
      ? [{ href: paths.signIn, label: 'Sign in' }, ...(config.accountSignUp ? [{ href: paths.signUp, label: 'Get a new link (sign up again)' }] : [])]
      : [{ href: paths.forgot, label: 'Ask for a new link' }, { href: paths.signIn, label: 'Sign in' }]);
  };

  app.get<{ Querystring: { t?: string } }>(paths.verify, async (request, reply) => {
    const claims = await claimsOf(reply, request.query.t, 'verify', false);
    if (!claims) return reply;
    const account = await app.accounts.verifyEmail(claims.accountId, (tx) => links.consume(tx, claims));
    if (!account) return linkProblem(reply, 'used', 'verify');
    request.log.info({ account: account.id }, 'e-mail address confirmed');
    return message(reply, 'Your e-mail address is confirmed', 'Your account is ready: sign in with your e-mail address and password.', 200,
      [{ href: paths.signIn, label: 'Sign in' }]);
  });

  // Forgotten password.
  const forgotForm = (reply: FastifyReply, extra: { status?: number; errors?: Record<string, string>; email?: string } = {}) =>
    page(reply, (siteName, css) => (
      <AccountFormPage siteName={siteName} css={css} status={extra.status} title="Forgot your password?" action={paths.forgot} submit="E-mail me a link"
        intro="Enter the e-mail address of your account. We will send it a link to choose a new password."
        errors={extra.errors} links={[{ href: paths.signIn, label: 'Back to sign in' }]}
        fields={[{ name: 'email', label: 'E-mail', type: 'email', autoComplete: 'email', maxLength: MAX_EMAIL, value: extra.email }]} />
    ), extra.status);

  app.get(paths.forgot, async (_request, reply) => forgotForm(reply));

  app.post(paths.forgot, { config: { stateChanging: true } }, async (request, reply) => {
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Body;
    const email = text(body, 'email').trim();
    if (!EMAIL.test(email) || email.length > MAX_EMAIL) {
      return forgotForm(reply, { status: 422, errors: { email: 'Enter an e-mail address, like name@example.com.' }, email: email.slice(0, MAX_EMAIL) });
    }
    const account = await app.accounts.byEmail(email);
    if (account && !account.disabled) await sendLink(request, account, 'reset', 'reset');
    else request.log.info({ knownAccount: !!account }, 'password reset asked for an address without an active account');
    return reply.header('cache-control', 'no-store').redirect(paths.forgotSent, 303);
  });

  app.get(paths.forgotSent, async (_request, reply) => message(reply, 'Check your e-mail',
    'If an account has that address, we sent it a link to choose a new password. The link works for an hour. Nothing arrived? Look in your spam folder, or ask again.',
    200, [{ href: paths.signIn, label: 'Sign in' }]));

  // New password through a reset link.
  const resetForm = (reply: FastifyReply, token: string, extra: { status?: number; errors?: Record<string, string> } = {}) =>
    page(reply, (siteName, css) => (
      <AccountFormPage siteName={siteName} css={css} status={extra.status} title="Choose a new password" action={paths.reset} submit="Save password"
        intro="Choosing a new password signs you out everywhere you are signed in." hidden={{ t: token }} errors={extra.errors}
        fields={passwordFields()} />
    ), extra.status);

  app.get<{ Querystring: { t?: string } }>(paths.reset, async (request, reply) => {
    const claims = await claimsOf(reply, request.query.t, 'reset', true);
    if (!claims) return reply;
    return resetForm(reply, String(request.query.t));
  });

  app.post(paths.reset, { config: { stateChanging: true } }, async (request, reply) => {
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Body;
    const token = text(body, 't');
    const claims = await claimsOf(reply, token, 'reset', true);
    if (!claims) return reply;
    const account = await app.accounts.byId(claims.accountId);
    if (!account || account.disabled) return linkProblem(reply, 'used', 'reset');
    const errors: Record<string, string> = {};
    const password = checkNewPassword(body, account.email, errors);
    if (Object.keys(errors).length > 0) return resetForm(reply, token, { status: 422, errors });
    let changed: Account | undefined;
    try {
      changed = await app.accounts.resetById(account.id, password, (tx) => links.consume(tx, claims));
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      return resetForm(reply, token, { status: 422, errors: { newPassword: capitalised(error.reason) } });
    }
    if (!changed) return linkProblem(reply, 'used', 'reset');
    request.log.info({ account: changed.id }, 'password reset through an e-mailed link');
    return reply.header('cache-control', 'no-store').redirect(paths.resetDone, 303);
  });

  app.get(paths.resetDone, async (_request, reply) => message(reply, 'Your password was changed',
    'Sign in with your new password. Every session signed in with the old one has ended.', 200, [{ href: paths.signIn, label: 'Sign in' }]));
}

/** The e-mail of each kind: plain text, the link on a line of its own. */
function messageFor(kind: 'verify' | 'reset' | 'taken', siteName: string, account: Account, url: string) {
  const hello = account.displayName ? `Hello ${account.displayName},` : 'Hello,';
  const ignore = 'If you did not ask for this, ignore this e-mail: nothing changes.';
  if (kind === 'verify') {
    return { to: account.email, subject: `Confirm your e-mail address for ${siteName}`,
      text: `${hello}\n\nConfirm your e-mail address to finish opening your ${siteName} account:\n\n${url}\n\nThe link works once, for 24 hours.\n\n${ignore}\n` };
  }
  if (kind === 'taken') {
    return { to: account.email, subject: `You already have a ${siteName} account`,
      text: `${hello}\n\nSomeone (maybe you) tried to open a ${siteName} account with this address, which already has one. Sign in with it; if you forgot its password, choose a new one here:\n\n${url}\n\nThe link works once, for an hour.\n\n${ignore}\n` };
  }
  return { to: account.email, subject: `Choose a new password for ${siteName}`,
    text: `${hello}\n\nChoose a new password for your ${siteName} account here:\n\n${url}\n\nThe link works once, for an hour. Choosing a new password signs you out everywhere.\n\n${ignore}\n` };
}
