/**
 * The site's colours reach the pages built without the chrome: the identity screens, the simple error
 * page (and the 503 page) link the theme stylesheet (site.yaml theme) after the base one, on a second
 * vendor's tree.
 */
import { join } from 'node:path';
import t from 'tap';
import { build } from '../helpers/build.ts';
import { authorizationRequest, CLIENT_SECRET, Jar, startSignIn, visit } from './provider-flow.ts';

const SECOND_VENDOR = join(import.meta.dirname, '../fixtures/second-vendor');
const THEME_LINK = /<link rel="stylesheet" href="\/assets\/main\.[\w]+\.css"\/><link rel="stylesheet" href="(\/assets\/theme\/[\w-]+\.css)"\/>/;

t.test('identity screens and error pages link the theme', async (t) => {
  const app = await build(t, { contentDir: SECOND_VENDOR, env: { OIDC_CLIENT_SECRET: CLIENT_SECRET } });
  const theme = await app.themeStylesheet();
  t.ok(theme, 'the second vendor has a theme');
  t.match((await app.inject(theme ?? '')).body, '#7a1fa2', 'its accent colour is in it');

  const jar = new Jar();
  const { path } = await startSignIn(app, jar, authorizationRequest({}));
  const pages: Record<string, string> = {
    'sign-in': (await visit(app, jar, path)).body,
    'expired step': (await visit(app, new Jar(), '/auth/interaction/gone')).body,
    'provider error': (await visit(app, new Jar(), authorizationRequest({ client_id: 'nobody' }).url)).body,
    'bad request': (await app.inject({ url: '/feedback', method: 'POST', payload: 'x', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).body,
  };
  for (const [name, html] of Object.entries(pages)) {
    t.equal(THEME_LINK.exec(html)?.[1], theme, `${name}: the theme stylesheet after the base one`);
  }
  // What the 503 page and the error handler link without waiting on the database.
  t.same(app.pageStylesheetsNow(), [app.assets.css, theme], 'the last theme known is at hand for answers made synchronously');
});
