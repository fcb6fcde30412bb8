import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';

export interface SecurityHeadersOptions {
  publicUrl: string;
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
}, { name: 'security-headers' });
