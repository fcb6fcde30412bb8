/**
 * The signed-in person as the session cookie keeps them: what the issuer said (ID token and userinfo
 * claims), reduced to what the site needs. Roles are decided from it on every request (roles.ts).
 */
export interface SessionUser {
  /** The issuer's subject: the account id. */
  sub: string;
  email: string;
  /** False only when the issuer says the address is unverified (then it never makes anyone staff). */
  emailVerified: boolean;
  name: string;
  picture?: string | undefined;
  /** The editor claim or group (OIDC_EDITOR_CLAIM / OIDC_EDITOR_GROUP). */
  canEdit: boolean;
  /** The partner claim or group (OIDC_PARTNER_CLAIM / OIDC_PARTNER_GROUP). */
  partner: boolean;
  /** Cohort attributes (spec §7 csm-experiment), flat, from the `cohort` claim when the issuer gives one. */
  cohort?: Record<string, string | number | boolean | null> | undefined;
}

/** The embedded provider's issuer: under the identity base, on this site. */
export function embeddedIssuer(publicUrl: string, identityBase: string): string {
  return `${publicUrl}${identityBase}/oidc`;
}

/** Where the issuer sends the visitor back with the authorization code. */
export function callbackUrl(publicUrl: string, identityBase: string): string {
  return `${publicUrl}${identityBase}/callback`;
}
