import t from 'tap';
import { build } from '../helpers/build.ts';
import { SESSION_SECRET } from './helpers.ts';

/**
 * The embedded provider's resume endpoint (/auth/oidc/auth/{uid}) is reached only by the provider's own
 * redirect, without a query; one sent with a query naming the client is a 400 like any unknown
 * interaction, not the library's 500 (found by test/server/fuzz.test.ts).
 */
t.test('the resume endpoint with a query is a 400, never a 500', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  for (const url of ['/auth/oidc/auth/x?client_id=signpost', '/auth/oidc/auth/x?client_id=signpost&state=a&state=b&code', '/auth/oidc/auth/x']) {
    const res = await app.inject(url);
    t.equal(res.statusCode, 400, url);
    t.match(res.headers['cache-control'], 'no-store');
    t.equal(res.headers['x-content-type-options'], 'nosniff');
  }
});
