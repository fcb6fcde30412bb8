/**
 * The embedded provider's screens are valid HTML by the Nu Html Checker, as every page of the site is
 * (test/routes/html-validity.test.ts): sign-in, its error and locked states, consent, sign-out, signed
 * out, an expired step and a provider error.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import vnuJar from 'vnu-jar';
import { build } from '../helpers/build.ts';
import { authorizationRequest, CLIENT_SECRET, follow, ISSUER, Jar, ORIGIN, PASSWORD, postForm, startSignIn, visit } from './provider-flow.ts';

const run = promisify(execFile);
const PORTAL = { id: 'portal', redirect: 'https://portal.example.test/cb' };

t.test('identity screens are valid HTML', async (t) => {
  const app = await build(t, {
    signInThrottle: { delayStepMs: 1, lockAfter: 2 },
    env: {
      OIDC_CLIENT_SECRET: CLIENT_SECRET,
      OIDC_PROVIDER_CLIENTS: JSON.stringify([{ client_id: PORTAL.id, client_secret: 'portal-secret-0123456789', redirect_uris: [PORTAL.redirect], client_name: 'Partner Portal' }]),
    },
  });
  await app.accounts.create({ email: 'ada@customer.example', password: PASSWORD });
  const pages = new Map<string, string>();
  const jar = new Jar();
  const { path } = await startSignIn(app, jar, authorizationRequest({}, PORTAL));
  pages.set('sign-in', (await visit(app, jar, path)).body);
  pages.set('sign-in, error', (await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: 'wrong password' })).body);
  pages.set('sign-in, locked', (await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: 'wrong password' })).body);
  await app.accounts.resetPassword('ada@customer.example', PASSWORD);
  pages.set('consent', (await follow(app, jar, await postForm(app, jar, `${path}/login`, { email: 'ada@customer.example', password: PASSWORD }))).body);
  pages.set('sign-out', (await visit(app, jar, `${ISSUER}/session/end`)).body);
  pages.set('site signed out', (await visit(app, new Jar(), '/auth/signed-out')).body);
  pages.set('expired step', (await visit(app, new Jar(), '/auth/interaction/gone')).body);
  pages.set('provider error', (await visit(app, new Jar(), authorizationRequest({ client_id: 'nobody' }).url)).body);
  const signedOut = /action="([^"]+)"/.exec(pages.get('sign-out') ?? '')?.[1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(pages.get('sign-out') ?? '')?.[1];
  const done = await postForm(app, jar, signedOut ?? '', { xsrf: xsrf ?? '', logout: 'yes' });
  pages.set('signed out', (await visit(app, jar, new URL(String(done.headers.location), ORIGIN).href)).body);

  const dir = await mkdtemp(join(tmpdir(), 'signpost-identity-html-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const files = new Map<string, string>();
  const headings: Record<string, string> = {
    'sign-in': 'Sign in to Test Support', 'sign-in, error': 'Sign in to Test Support', 'sign-in, locked': 'Sign in to Test Support',
    consent: 'Allow Partner Portal to use your Test Support account?', 'sign-out': 'Sign out of Test Support?', 'expired step': 'This sign-in has expired',
    'provider error': 'This sign-in cannot go on', 'signed out': 'You are signed out', 'site signed out': 'You are signed out of Test Support',
  };
  for (const [name, html] of pages) {
    t.match(html, /^<!doctype html>/, `${name} is a whole page`);
    t.match(html, `<h1>${headings[name]}</h1>`, `${name}: its heading`);
    const file = join(dir, `${files.size}.html`);
    await writeFile(file, html);
    files.set(`file:${file}`, name);
  }
  let output = '';
  try {
    output = (await run('java', ['-jar', String(vnuJar), '--format', 'json', '--errors-only', ...[...files.keys()].map((f) => f.slice(5))], { maxBuffer: 16 << 20 })).stderr;
  } catch (error) {
    const failure = error as { code?: string | number; stderr?: string };
    if (failure.code === 'ENOENT') throw new Error('No Java runtime for the HTML checker: install one (Debian: apt-get install openjdk-17-jre-headless).');
    output = failure.stderr ?? '';
  }
  const report = JSON.parse(output || '{"messages":[]}') as { messages: { type: string; url?: string; lastLine?: number; message: string }[] };
  const errors = report.messages.filter((m) => m.type === 'error').map((m) => `${files.get(m.url ?? '') ?? m.url}:${m.lastLine ?? 0}: ${m.message}`);
  t.same(errors, [], `${files.size} screens, no HTML errors`);
});
