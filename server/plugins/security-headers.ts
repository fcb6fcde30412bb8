import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers of an answer with no request behind it, as header lines (server/http/client-error.ts). */
    securityHeaderLines: string;
  }
}

export interface SecurityHeadersOptions {
  publicUrl: string;
}

/** The strict policy of anything that is not a page: nothing may load. */
const STRICT_CSP = "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'self'";
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * The headers helmet gives every answer below, for the answers the HTTP parser makes before there is a
 * request to run hooks on (400 for a malformed request line, 431 for headers too large). Kept equal to
 * helmet's by test/server/client-error.test.ts, which compares them with an ordinary answer's.
 */
export function parserErrorHeaders(publicUrl: string): Record<string, string> {
  return {
    'content-security-policy': STRICT_CSP,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(publicUrl.startsWith('https:') ? { 'strict-transport-security': HSTS } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  };
}

/**
 * Security headers on every response (HTML, JSON, text, redirects, sitemap, static files) from
 * @fastify/helmet: nosniff, referrer policy, frame ancestors, cross-origin isolation headers.
 * The Content-Security-Policy here is the strict one for anything that is not a page: nothing may
 * load. Pages replace it with their own, the same for every page: scripts from the site only (render.ts).
 * HSTS only when the site is served over https, or browsers would be told to use a scheme it lacks.
 */
export default fp<SecurityHeadersOptions>(async (app, opts) => {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'none'"],
        frameAncestors: ["'self'"],
      },
    },
    frameguard: { action: 'sameorigin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: opts.publicUrl.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  app.decorate('securityHeaderLines', Object.entries(parserErrorHeaders(opts.publicUrl)).map(([name, value]) => `${name}: ${value}\r\n`).join(''));
}, { name: 'security-headers' });
