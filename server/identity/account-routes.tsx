/**
 * The embedded provider's "manage profile" page (issue "The embedded default"; the account menu's
 * 'Manage profile' of spec §2 leads here when OIDC_ISSUER is unset): GET {base}/account shows the
 * signed-in person, POST {base}/account/password changes their password (post/redirect/get). Both are
 * private to the person: `private, no-store`, never shared-cached.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { AccountError, AccountLockedError, MIN_PASSWORD_LENGTH, type Account } from './accounts.ts';
import { bag } from './session.ts';
import type { SessionUser } from './types.ts';
import type { Visitor } from '../../views/view-model.ts';
import { requestVisitor } from './roles.ts';
import { ProfilePage, type PasswordField } from '../../views/pages/identity/profile-page.tsx';

export interface AccountRoutesOptions {
  config: Config;
  /** The signed-in person of a request (the session), or undefined when anonymous. */
  currentUser: (request: FastifyRequest) => SessionUser | undefined;

}

const CHANGED = 'password-changed';

function lockedMessage(retryAfterS: number): string {
  const minutes = Math.ceil(retryAfterS / 60);
  const wait = retryAfterS < 60 ? `${retryAfterS} second${retryAfterS === 1 ? '' : 's'}` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `Too many wrong passwords for this account. Password changes are paused for it: try again in ${wait}.`;
}

/** Spec §6 roles in words. */
export function roleNames(visitor: Visitor): string[] {
  return ['Signed-in customer', visitor.canEdit ? 'Author' : '', visitor.staff ? 'Vendor staff' : '', visitor.partner ? 'Partner' : ''].filter(Boolean);
}

export default async function accountRoutes(app: FastifyInstance, opts: AccountRoutesOptions) {
  const base = opts.config.identityUrl;
  const page = `${base}/account`;
  const passwordAction = `${page}/password`;

  const toSignIn = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-store').redirect(`${base}/login?continue=${encodeURIComponent(page)}`, 303);

  /** The person's own account when it lives in this provider (an external issuer's has none here). */
  const accountOf = async (user: SessionUser): Promise<Account | undefined> =>
    opts.config.oidcIssuer ? undefined : app.accounts.byId(user.sub);

  const render = async (request: FastifyRequest, reply: FastifyReply, user: SessionUser, account: Account | undefined,
    extra: { status?: number; notice?: string | undefined; errors?: Partial<Record<PasswordField, string>> } = {}) =>
    reply.page(
      <ProfilePage css={await app.pageStylesheets()} name={account?.displayName ?? user.name} email={account?.email ?? user.email}
        roles={roleNames(await requestVisitor(app, request, opts.config))} passwordAction={account && !account.disabled ? passwordAction : undefined}
        logoutAction={`${base}/logout`} notice={extra.notice} errors={extra.errors} />,
      { status: extra.status ?? 200, cache: 'private' },
    );

  app.get<{ Querystring: { done?: string } }>(page, async (request, reply) => {
    const user = opts.currentUser(request);
    if (!user) return toSignIn(reply);
    const notice = request.query.done === CHANGED ? 'Your password was changed.' : undefined;
    return render(request, reply, user, await accountOf(user), notice ? { notice } : {});
  });

  app.post(passwordAction, { config: { stateChanging: true } }, async (request, reply) => {
    const user = opts.currentUser(request);
    if (!user) return toSignIn(reply);
    const account = await accountOf(user);
    if (!account || account.disabled) {
      return render(request, reply, user, account, { status: 403, notice: 'The password of this account cannot be changed here.' });
    }

    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;
    const field = (name: PasswordField) => (typeof body[name] === 'string' ? body[name] : '');
    const current = field('currentPassword');
    const next = field('newPassword');
    const confirm = field('confirmPassword');
    const errors: Partial<Record<PasswordField, string>> = {};
    if (!current) errors.currentPassword = 'Enter your current password.';
    if (next.length < MIN_PASSWORD_LENGTH) errors.newPassword = `Choose a new password of at least ${MIN_PASSWORD_LENGTH} characters.`;
    else if (next.length > 1024) errors.newPassword = 'Choose a new password of at most 1024 characters.';
    else if (next === current) errors.newPassword = 'Choose a password other than your current one.';
    if (!errors.newPassword && confirm !== next) errors.confirmPassword = 'Type the same new password again.';

    if (Object.keys(errors).length === 0) {
      try {
        await app.accounts.changePassword(account.id, current, next);
        request.log.info({ account: account.id }, 'password changed on the profile page');
        // The change ended every session of the account, this one too: this browser goes on in a new one.
        const hint = bag(request.session).get('idt');
        await reply.startSession(user, typeof hint === 'string' ? hint : undefined);
        return reply.header('cache-control', 'no-store').redirect(`${page}?done=${CHANGED}`, 303);
      } catch (error) {
        if (error instanceof AccountLockedError) {
          // As a locked sign-in: the same answer whatever was typed, so it tells nothing about the password.
          request.log.info({ account: account.id }, 'password change refused: locked after wrong passwords');
          reply.header('retry-after', String(error.retryAfterS));
          return render(request, reply, user, account, { status: 429, errors: { currentPassword: lockedMessage(error.retryAfterS) } });
        }
        if (!(error instanceof AccountError)) throw error;
        if (error.field === 'current') errors.currentPassword = 'That is not your current password.';
        else errors.newPassword = `${error.reason.charAt(0).toUpperCase()}${error.reason.slice(1)}.`;
        request.log.info({ account: account.id, field: error.field }, 'password change refused');
      }
    }
    return render(request, reply, user, account, { status: 422, errors });
  });
}
