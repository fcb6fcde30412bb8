/**
 * The evaluation context of a request (spec §7 'customer context sent with the widget evaluation', §6
 * admin entitlement): who asks, where, and never their e-mail address, only the SHA-256 of its domain.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { EvaluationContext } from '@openfeature/server-sdk';
import { getTimezone } from 'countries-and-timezones';
import type { SessionUser } from '../identity/types.ts';
import type { Visitor } from '../../views/view-model.ts';

/** The first-party cookie that keeps an anonymous visitor in the same rollout bucket. */
export const ANONYMOUS_ID_COOKIE = 'sp_anon';
/** A year: long enough that a visitor keeps their bucket, no longer than a first-party id should live. */
export const ANONYMOUS_ID_MAX_AGE_S = 365 * 24 * 60 * 60;

export function newAnonymousId(): string {
  return randomBytes(16).toString('base64url');
}

/** An id this site made (22 base64url characters); anything else is ignored, and a new one made. */
export function isAnonymousId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/.test(value);
}

/** Spec §7: SHA-256 (hex) of the e-mail's domain, lower case; the address itself never leaves. */
export function emailDomainHash(email: string | undefined): string | undefined {
  const at = email?.lastIndexOf('@') ?? -1;
  if (!email || at <= 0 || at === email.length - 1) return undefined;
  return createHash('sha256').update(email.slice(at + 1).toLowerCase().replace(/\.$/, '')).digest('hex');
}

/** Spec §7 'a country derived from the time zone': ISO 3166 alpha-2 of an IANA zone, when it has one. */
export function countryOfTimeZone(zone: unknown): string | undefined {
  if (typeof zone !== 'string' || zone === '') return undefined;
  return getTimezone(zone)?.countries[0];
}

export type Role = 'anonymous' | 'customer' | 'author' | 'staff' | 'partner';

export function roleOf(visitor: Visitor): Role {
  if (!visitor.signedIn) return 'anonymous';
  if (visitor.staff) return 'staff';
  if (visitor.partner) return 'partner';
  if (visitor.canEdit) return 'author';
  return 'customer';
}

const TRUTHY = new Set([true, 'true', 'yes', 1, '1']);

export interface ContextInput {
  visitor: Visitor;
  user?: SessionUser | undefined;
  /** The anonymous visitor's first-party id, when the evaluation needs one. */
  anonymousId?: string | undefined;
  path: string;
  host: string;
}

/**
 * The context every flag is evaluated with. The time zone and the admin entitlement come from the
 * issuer's cohort attributes (`zoneinfo` or `timeZone`; `admin`): the server learns nothing of an
 * anonymous visitor's time zone, so their country is absent.
 */
export function evaluationContext(input: ContextInput): EvaluationContext {
  const { visitor, user } = input;
  const cohort = user?.cohort ?? {};
  const context: EvaluationContext = {
    role: roleOf(visitor),
    signedIn: visitor.signedIn,
    path: input.path,
    host: input.host,
    vendorAccount: visitor.staff,
    partner: visitor.partner,
    admin: visitor.signedIn && TRUTHY.has(cohort.admin ?? false),
  };
  const key = visitor.signedIn ? visitor.id : input.anonymousId;
  if (key) context.targetingKey = key;
  const domainHash = visitor.signedIn ? emailDomainHash(visitor.email) : undefined;
  if (domainHash) context.emailDomainHash = domainHash;
  const country = visitor.signedIn ? countryOfTimeZone(cohort.zoneinfo ?? cohort.timeZone) : undefined;
  if (country) context.country = country;
  return context;
}
