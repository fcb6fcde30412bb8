import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    formTokens: FormTokens;
    visitorIds: VisitorIds;
    requestLinks: RequestLinks;
  }
}

/** Length of one token window; a token is accepted in its window and the next, so for 1 to 2 hours. */
export const TOKEN_WINDOW_MS = 60 * 60 * 1000;

function mac(secret: Buffer, text: string): string {
  return createHmac('sha256', secret).update(text).digest('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Tokens for the site's POST forms. Anonymous pages are shared-cacheable and never
 * set a cookie, so the token a page carries cannot name a visitor: it names its purpose (the entry
 * a feedback form is for) and the hour it was issued, signed. It is accepted for at most two hours,
 * which covers a page kept in a cache (5 minutes) or left open in a tab for a while, and a
 * harvested token stops working. The visitor binding is the signed visitor cookie (VisitorIds),
 * given on the first POST. The hour window keeps one page's HTML, and so its ETag, stable within
 * the hour. The secret lives in the database, so every instance accepts the same tokens.
 */
export class FormTokens {
  constructor(private readonly secret: Buffer, private readonly clock: () => number = Date.now) {}

  issue(purpose: string, now = this.clock()): string {
    const window = Math.floor(now / TOKEN_WINDOW_MS).toString(36);
    return `${window}.${mac(this.secret, `form:${purpose}:${window}`)}`;
  }

  verify(purpose: string, token: unknown, now = this.clock()): boolean {
    if (typeof token !== 'string') return false;
    const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match) return false;
    const window = parseInt(match[1] as string, 36);
    const current = Math.floor(now / TOKEN_WINDOW_MS);
    if (window !== current && window !== current - 1) return false;
    return sameText(match[2] as string, mac(this.secret, `form:${purpose}:${match[1]}`));
  }
}

/**
 * Visitor ids for one-answer-per-visitor (spec §4 Feedback): random, and signed, so a client cannot
 * make up fresh visitors by sending made-up cookie values. Also the keyed hash of a client's
 * network, so helpfulness is counted per network without keeping an address.
 */
export class VisitorIds {
  constructor(private readonly secret: Buffer) {}

  /** A new visitor: the cookie value to set and the id to store. */
  create(): { cookie: string; id: string } {
    const id = randomBytes(18).toString('base64url');
    return { cookie: `${id}.${mac(this.secret, `visitor:${id}`).slice(0, 22)}`, id };
  }

  /** The visitor id in a cookie value we signed, or undefined for anything else. */
  verify(cookie: unknown): string | undefined {
    if (typeof cookie !== 'string') return undefined;
    const match = /^([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{22})$/.exec(cookie);
    if (!match) return undefined;
    const id = match[1] as string;
    return sameText(match[2] as string, mac(this.secret, `visitor:${id}`).slice(0, 22)) ? id : undefined;
  }

  /**
   * A keyed hash of the client's network: the /24 of an IPv4 address (also written IPv4-mapped,
   * `::ffff:a.b.c.d`), the /48 of an IPv6 one, or its /64 when asked (one subnet rather than one site).
   */
  networkKey(ip: string, ipv6Prefix: 48 | 64 = 48): string {
    const v4 = ip.toLowerCase().startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
    let network: string;
    if (isIPv4(v4)) network = `${v4.split('.').slice(0, 3).join('.')}.0/24`;
    else network = `${expandIPv6(ip).slice(0, ipv6Prefix / 16).join(':')}::/${ipv6Prefix}`;
    return mac(this.secret, `network:${network}`).slice(0, 22);
  }
}

/**
 * The link that lets whoever holds it follow and answer one request without signing in (a request sent
 * anonymously has no account to read it by): `/requests/{reference}?key=…`, a MAC of the reference. It
 * is given on the confirmation page and in the mail the requester gets, and does not expire, as a
 * helpdesk's own request links do not.
 */
export class RequestLinks {
  constructor(private readonly secret: Buffer) {}

  key(reference: string): string {
    return mac(this.secret, `request-link:${reference}`).slice(0, 32);
  }

  verify(reference: string, key: unknown): boolean {
    return typeof key === 'string' && /^[A-Za-z0-9_-]{32}$/.test(key) && sameText(key, this.key(reference));
  }
}

function expandIPv6(ip: string): string[] {
  const [head = '', tail = ''] = ip.split('%')[0]!.split('::');
  const h = head ? head.split(':') : [];
  const t = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const fill = ip.includes('::') ? Array(Math.max(0, 8 - h.length - t.length)).fill('0') : [];
  return [...h, ...fill, ...t].map((part) => part.toLowerCase().replace(/^0+(?=.)/, ''));
}

export interface SecretsOptions {
  /** The clock form tokens are issued and checked by (tests move it across token windows). */
  clock?: (() => number) | undefined;
}

export default fp<SecretsOptions>(async (app, opts) => {
  await app.db.query(
    `insert into app_secrets (name, value) values ('form-token', $1) on conflict (name) do nothing`,
    [randomBytes(32).toString('base64url')],
  );
  const rows = await app.db.query<{ value: string }>(`select value from app_secrets where name = 'form-token'`);
  const secret = Buffer.from(rows[0]?.value ?? '', 'base64url');
  app.decorate('formTokens', new FormTokens(secret, opts.clock));
  app.decorate('visitorIds', new VisitorIds(secret));
  app.decorate('requestLinks', new RequestLinks(secret));
}, { name: 'secrets', dependencies: ['db'] });
