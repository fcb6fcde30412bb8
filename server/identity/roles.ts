/**
 * Roles (spec §6), decided on the server on every request from the session's user and the request's
 * host: nothing a browser sends other than the sealed session cookie and the Host header counts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ANONYMOUS, type Visitor } from '../../views/view-model.ts';
import type { SessionUser } from './types.ts';

export interface RoleSettings {
  /** Vendor staff's e-mail domain: STAFF_EMAIL_DOMAIN, else the content metadata's staffDomain. */
  staffDomain?: string | undefined;
  /** PARTNER_HOSTS (lower case). */
  partnerHosts: string[];
}

/**
 * Spec §6 vendor staff: the e-mail's domain is exactly the staff domain or a subdomain of it, compared
 * without case; a look-alike (`notX.example`, `X.example.evil`) is not, nor is an address the issuer says
 * is unverified.
 */
export function isStaffEmail(email: string, emailVerified: boolean, staffDomain: string | undefined): boolean {
  if (!staffDomain || !emailVerified) return false;
  const at = email.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = email.slice(at + 1).toLowerCase().replace(/\.$/, '');
  const staff = staffDomain.trim().toLowerCase().replace(/^@/, '').replace(/\.$/, '');
  if (!staff || !domain) return false;
  return domain === staff || domain.endsWith(`.${staff}`);
}

/** The request's host without its port, lower case. */
function hostOf(request: Pick<FastifyRequest, 'hostname'>): string {
  return String(request.hostname ?? '').toLowerCase();
}

/** Spec §6 partner user: browsing on a partner host, or the issuer's partner claim. */
export function isPartnerHost(request: Pick<FastifyRequest, 'hostname'>, partnerHosts: string[]): boolean {
  return partnerHosts.length > 0 && partnerHosts.includes(hostOf(request));
}

/** Who is asking (spec §6): signed in needs a non-empty e-mail and account id. */
export function visitorFor(user: SessionUser | undefined, request: Pick<FastifyRequest, 'hostname'>, settings: RoleSettings): Visitor {
  const partnerHost = isPartnerHost(request, settings.partnerHosts);
  if (!user || !user.sub || !user.email) return partnerHost ? { ...ANONYMOUS, partner: true } : ANONYMOUS;
  return {
    signedIn: true,
    id: user.sub,
    displayName: user.name || undefined,
    email: user.email,
    avatarUrl: user.picture,
    canEdit: user.canEdit,
    staff: isStaffEmail(user.email, user.emailVerified, settings.staffDomain),
    partner: partnerHost || user.partner,
  };
}

/**
 * The visitor of a request, as every part of the site sees it: the session's person and the request's
 * host, with the staff domain of STAFF_EMAIL_DOMAIN, else of the content metadata (site.yaml).
 */
export async function requestVisitor(app: FastifyInstance, request: FastifyRequest, settings: { staffDomain?: string | undefined; partnerHosts?: string[] | undefined }): Promise<Visitor> {
  const staffDomain = settings.staffDomain ?? ((await app.content.singleton('metadata'))?.fields as { staffDomain?: string } | undefined)?.staffDomain;
  return visitorFor(request.user, request, { staffDomain, partnerHosts: settings.partnerHosts ?? [] });
}
