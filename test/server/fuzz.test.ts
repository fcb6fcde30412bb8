/**
 * A bounded, deterministic fuzz of the whole app, route group by route group (issues 8 and 25): pages,
 * search, feedback, sign-in and the embedded provider, support forms (multipart whole and broken,
 * urlencoded, text/plain, JSON), requests as a customer and as staff, the helpdesk's API, analytics
 * batches (JSON and text/plain beacons), the assistant, insights, and every route at random. NUL bytes,
 * malformed percent-encodings, lone surrogates, overlong values, wrong types, wrong content types and
 * wrong methods. No answer may be a server error, every request is answered within FUZZ_HANG_MS, no error
 * is publicly cacheable, and no analytics batch is lost to one bad event.
 *
 * FUZZ_REQUESTS is the count per group (small by default, to keep the suite fast; FUZZ_REQUESTS_FORMS and
 * the like set one group's), FUZZ_SEED changes the sequence, FUZZ_GROUPS=forms,events runs some groups only; `npm run fuzz` runs 10 000 per group. Each
 * group prints its requests, 5xx, hangs, time and statuses. Cut-off bodies on a real socket:
 * test/server/fuzz-sockets.test.ts.
 */
import t from 'tap';
import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { InMemoryProvider } from '@openfeature/server-sdk';
import { loadConfig, trustProxyOption } from '../../server/config.ts';
import app, { serverOptions } from '../../server/app.ts';
import { storedAttachment } from '../../server/support/forms/attachments.ts';
import { REQUEST_STATUSES } from '../../server/support/requests/statuses.ts';
import { EVENT_TYPES } from '../../server/events/catalogue.ts';
import { EVENTS_PATH } from '../../server/events/plugin.ts';
import { SECTIONS, TABLES } from '../../server/insights/tables.ts';
import { PREVIEW_TOKEN, SAMPLE_CONTENT, testDb } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { Jar } from '../identity/oidc-peer.ts';
import { BEA, HELPDESK_TOKEN, PARKER, STAFF, sendRequest } from '../support/requests-helpers.ts';
import { Fuzz, encode, failureLines, multipartBody, runGroup, type Part, type Sent, CONTENT_TYPES, METHODS, RAW } from './fuzz-helpers.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 150);
const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
const HANG_MS = Number(process.env.FUZZ_HANG_MS ?? 30_000);
/** FUZZ_LOG=error shows the app's own log lines for the errors found (on stdout). */
const ONLY = (process.env.FUZZ_GROUPS ?? '').split(',').map((g) => g.trim()).filter(Boolean);
const ORIGIN = 'https://help.example.test';
const PARTNER_HOST = 'partners.help.example';
const PASSWORD = 'correct horse battery staple';
const ELI = 'eli@fernhollow.example';
/** The assistant's flags on for Ada and staff. */
const forSome = { variants: { on: true, off: false }, defaultVariant: 'off', disabled: false,
  contextEvaluator: (context: { targetingKey?: string }) => (context.targetingKey === ADA.sub || context.targetingKey === STAFF.sub ? 'on' : 'off') };
const BOB = { ...ADA, sub: 'acct-bob', email: 'bob@customer.example', name: 'Bob' };
const FORM_PATHS = ['/contact', '/ja/contact', '/hot-contact', '/partnercontact', '/statuspage-contact', '/file-download', '/report-problem',
  '/named-contact', '/de/contact', '/codebarn-cloud/contact', '/contact/', '/CONTACT'];
const FORM_IDS: Record<string, string> = {
  '/contact': 'contact-form', '/ja/contact': 'contact-form', '/hot-contact': 'hot-contact-form', '/partnercontact': 'partner-contact-form',
  '/statuspage-contact': 'status-page-contact-form', '/file-download': 'file-download-form', '/report-problem': 'report-problem-form',
};

interface Setup {
  app: FastifyInstance;
  routes: { method: string; url: string }[];
  pages: string[];
  entries: string[];
  references: string[];
  attachment: { reference: string; id: string };
  cookies: Record<'ada' | 'bea' | 'bob' | 'staff' | 'parker' | 'eli', string>;
}

t.test(`fuzz: ${REQUESTS} requests per route group, seed ${SEED}`, async (t) => {
  const db = await testDb(t);
  const config = loadConfig({
    CONTENT_DIR: SAMPLE_CONTENT, PREVIEW_TOKEN, PUBLIC_URL: ORIGIN, LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example', HELPDESK_TOKEN, PARTNER_HOSTS: PARTNER_HOST,
    // Limits high enough that the fuzz reaches the handlers behind them; small attachment caps keep big parts cheap.
    RATE_LIMIT_MAX: '1000000', REQUEST_RATE_LIMIT: '1000000', ANALYTICS_RATE_LIMIT: '1000000', ATTACHMENT_MAX_FILES: '2', ATTACHMENT_MAX_BYTES: '4096',
  });
  const server = Fastify({ ...serverOptions, logger: { level: process.env.FUZZ_LOG ?? 'silent' }, trustProxy: trustProxyOption(config.trustProxy) });
  const routes: { method: string; url: string }[] = [];
  server.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  t.teardown(() => server.close());
  await server.register(app, {
    config, db, flagProvider: new InMemoryProvider({ 'csm-ai-agent-on-sac': forSome, 'sac-search-ai-experiment': forSome }),
    // Wrong passwords still lock a login name, without the growing wait between answers.
    signInThrottle: { delayStepMs: 0, maxDelayMs: 0 },
  });
  await server.ready();
  await server.contentReady;
  t.ok(routes.some((r) => r.url === '/gateway/api/help-content/v2/search') && routes.some((r) => r.url === EVENTS_PATH)
    && routes.some((r) => r.url === '/auth/interaction/:uid') && routes.some((r) => r.url === '/*'), `${routes.length} routes listed from the app`);

  await server.accounts.create({ email: ELI, password: PASSWORD, displayName: 'Eli Editor', canEdit: true, partner: true, attributes: { plan: 'gold' } });
  const sitemap = await server.inject('/sitemap.xml');
  const pages = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] as string).pathname);
  t.ok(pages.length > 20, `${pages.length} pages from the sitemap`);
  const entries = new Set<string>();
  for (const path of pages.slice(0, 40)) {
    for (const m of (await server.inject(path)).body.matchAll(/name="entryId" value="([^"]+)"/g)) entries.add(m[1] as string);
  }
  const references = [
    await sendRequest(server, ADA, { subject: 'Contact about Codebarn', product: 'codebarn-cloud' }),
    await sendRequest(server, BEA, { subject: 'A problem report', formId: 'report-problem-form', kind: 'reportProblem' }),
    await sendRequest(server, { email: 'anon@example.com' }),
    await sendRequest(server, PARKER, { subject: 'Partner ticket', partner: true, kind: 'partnerContact' }),
    await sendRequest(server, ADA, { attachments: [storedAttachment('log.txt', Buffer.from('a log line\n'))] }),
  ];
  const [attached] = await server.supportRequests.attachments(references[4] as string);
  const setup: Setup = {
    app: server, routes, pages, entries: [...entries], references, attachment: { reference: references[4] as string, id: String(attached?.id) },
    cookies: {
      ada: sealed(server, ADA), bea: sealed(server, BEA), bob: sealed(server, BOB), staff: sealed(server, STAFF), parker: sealed(server, PARKER),
      eli: sealed(server, { ...ADA, sub: 'acct-eli', email: ELI, name: 'Eli Editor', canEdit: true }),
    },
  };

  const groups: [string, (f: Fuzz, s: Setup) => (i: number) => Sent | Promise<Sent>][] = [
    ['pages', pagesGroup], ['search', searchGroup], ['feedback', feedbackGroup], ['identity', identityGroup], ['forms', formsGroup],
    ['requests', requestsGroup], ['helpdesk', helpdeskGroup], ['events', eventsGroup], ['assistant', assistantGroup],
    ['insights', insightsGroup], ['routes', anyRouteGroup],
  ];
  const totals = { requests: 0, fiveHundreds: 0, hangs: 0 };
  for (const [name, group] of groups) {
    if (ONLY.length > 0 && !ONLY.includes(name)) continue;
    const count = Number(process.env[`FUZZ_REQUESTS_${name.toUpperCase()}`] ?? REQUESTS);
    await t.test(`${name}: ${count} requests`, async (t) => {
      // Each group its own sequence, so one group's count does not change another's requests.
      const fuzz = new Fuzz(SEED + [...name].reduce((sum, c) => sum * 31 + c.charCodeAt(0), 0));
      const result = await runGroup(server, name, count, HANG_MS, await group(fuzz, setup));
      totals.requests += result.requests;
      totals.fiveHundreds += result.fiveHundreds;
      totals.hangs += result.hangs;
      t.comment(`fuzz ${name}: requests ${result.requests}, 5xx ${result.fiveHundreds}, hangs ${result.hangs}, ${(result.ms / 1000).toFixed(1)} s, statuses ${JSON.stringify(result.statuses)}`);
      const lines = failureLines(result);
      for (const line of lines) t.comment(`  ${line}`);
      t.equal(result.fiveHundreds, 0, `${name}: no server errors`);
      t.equal(result.hangs, 0, `${name}: every request answered within ${HANG_MS} ms`);
      t.same(lines, [], `${name}: ${result.failures.size} kinds of failure`);
    });
  }

  t.test('no analytics batch was lost to a bad event', async (t) => {
    await server.analytics.writer.flush();
    t.equal(server.analytics.writer.dropped.database, 0, `${server.analytics.writer.written} events written, ${server.analytics.writer.dropped.database} dropped by the database`);
  });
  t.comment(`fuzz total: requests ${totals.requests}, 5xx ${totals.fiveHundreds}, hangs ${totals.hangs}`);
});

const headersOf = (request: InjectOptions) => request.headers as Record<string, string>;

/** Who sends it: nobody, a customer, staff, a partner, or a cookie that is not ours. */
function cookieFor(f: Fuzz, s: Setup, weights: 'customer' | 'staff' | 'any' = 'any'): string | undefined {
  if (weights === 'staff' && f.chance(0.6)) return s.cookies.staff;
  if (weights === 'customer' && f.chance(0.6)) return f.pick([s.cookies.ada, s.cookies.bea]);
  return f.pick([undefined, s.cookies.ada, s.cookies.bea, s.cookies.bob, s.cookies.staff, s.cookies.parker, s.cookies.eli,
    'sp_session=garbage', `sp_session=${'A'.repeat(4000)}`, 'sp_session=%00', 'sp_session=', `${s.cookies.ada}; ${s.cookies.staff}`]);
}

/** The request's common trimmings: cookie, origin (mostly our own, as a browser's form sends), client address, host. */
function dress(f: Fuzz, s: Setup, request: InjectOptions, who: 'customer' | 'staff' | 'any' = 'any'): InjectOptions {
  const headers = (request.headers ??= {}) as Record<string, string>;
  const cookie = cookieFor(f, s, who);
  if (cookie) headers.cookie = cookie;
  if (request.method && request.method !== 'GET' && request.method !== 'HEAD' && headers.origin === undefined) {
    const origin = f.chance(0.85) ? ORIGIN : f.pick(['https://evil.example', 'null', '', 'http://help.example.test']);
    if (origin) headers.origin = origin;
  }
  if (f.chance(0.1)) headers.host = f.pick([PARTNER_HOST, 'help.example.test', 'evil.example', '[::1]']);
  if (f.chance(0.1)) headers['hx-request'] = 'true';
  if (f.chance(0.05)) headers['accept-language'] = f.pick(['ja', 'de-DE,de;q=0.9', '*', '\u0000']);
  request.remoteAddress = f.address();
  return request;
}

/** A body of any shape for a route that takes one. */
function anyBody(f: Fuzz): { payload: string | Buffer; type: string } {
  const json = (v: unknown) => ({ payload: JSON.stringify(v), type: 'application/json' });
  switch (f.int(9)) {
    case 0: return json({ query: f.text(), pagination: { page: f.int(5), size: 10 } });
    case 1: return { payload: `{"a":${'['.repeat(2000 + f.int(4000))}${']'.repeat(2000)}}`, type: 'application/json' };
    case 2: return { payload: f.pick(['{"query":', '\u0000', 'null', '[]', '"str"', '1e999', '{"__proto__":{"x":1},"a":"b"}', '{"a":"\\u0000"}', '{"a":"\\ud800"}']), type: 'application/json' };
    case 3: return { payload: `_csrf=${f.urlValue()}&entryId=${f.urlValue()}&returnTo=${f.urlValue()}&status=${f.urlValue()}`, type: 'application/x-www-form-urlencoded' };
    case 4: return { payload: 'x'.repeat(f.int(40_000)), type: f.pick(CONTENT_TYPES) };
    case 5: return { payload: JSON.stringify({ query: f.text() }), type: f.pick(CONTENT_TYPES) };
    case 6: {
      const { payload, boundary } = multipartBody([{ name: f.text(), value: f.text() }], { close: f.chance(0.5) });
      return { payload, type: `multipart/form-data; boundary=${boundary}` };
    }
    default: return json({ [f.text()]: f.wrongValue() });
  }
}

function withBody(f: Fuzz, request: InjectOptions): InjectOptions {
  const b = anyBody(f);
  request.payload = b.payload;
  if (b.type) headersOf(request)['content-type'] = b.type;
  return request;
}

/** A path with its segments fuzzed now and then. */
function mutatePath(f: Fuzz, path: string): string {
  const r = f.random();
  if (r < 0.6) return path;
  if (r < 0.7) return `${path}/${f.urlValue()}`;
  if (r < 0.8) return path.replace(/[^/]+$/, () => f.urlValue());
  if (r < 0.85) return `${path}//`;
  if (r < 0.9) return path.toUpperCase();
  if (r < 0.95) return `/${f.pick(['ja', 'de', 'en', 'xx', '%00'])}${path}`;
  return `${path};${f.urlValue()}`;
}

function pagesGroup(f: Fuzz, s: Setup) {
  const params = ['version', 'platform', 'deployment', 'product', 'preview', 'from', 'page', 'tab', 'sort', '_', 'utm_source'];
  return (): Sent => {
    const r = f.random();
    let url: string;
    if (r < 0.75) url = `${mutatePath(f, f.pick(s.pages))}${f.query(params)}`;
    else if (r < 0.85) url = `/preview/${f.chance(0.5) ? f.pick(s.entries.length > 0 ? s.entries : ['x']) : f.urlValue()}${f.query(['preview', 'token'], () => PREVIEW_TOKEN)}`;
    else if (r < 0.9) url = `/version-switch${f.query(['entry', 'version', 'from', 'product'])}`;
    else url = f.pick(['/sitemap.xml', '/robots.txt', '/favicon.ico', '/healthz', '/readyz', '/assets/theme/x.css', `/assets/files/${f.urlValue()}/${f.urlValue()}`, '/', '/ja', '/ja/']);
    const method = f.chance(0.85) ? f.pick(['GET', 'GET', 'HEAD']) : f.pick(METHODS);
    const request: InjectOptions = { method: method as 'GET', url, headers: {} };
    const headers = headersOf(request);
    if (f.chance(0.2)) headers['accept-encoding'] = f.pick(['gzip', 'br', 'gzip, deflate, br', 'identity;q=0', '*', 'x'.repeat(500)]);
    if (f.chance(0.1)) headers['if-none-match'] = f.pick(['"x"', '*', 'W/"abc"', '\u0000']);
    if (f.chance(0.05)) headers.range = f.pick(['bytes=0-10', 'bytes=-1', 'bytes=999999999-', 'bytes=a-b']);
    if (f.chance(0.1)) headers['x-preview-token'] = f.pick([PREVIEW_TOKEN, 'wrong', 'é'.repeat(40), '']);
    if (method !== 'GET' && method !== 'HEAD' && f.chance(0.8)) withBody(f, request);
    return { request: dress(f, s, request) };
  };
}

function searchGroup(f: Fuzz, s: Setup) {
  const params = ['searchTerm', 'page', 'sort', 'product', 'version', 'contentType', 'category', 'deployment', 'exact', 'platform', 'language'];
  const value = (name: string) => (name === 'page' ? f.number() : name === 'searchTerm' && f.chance(0.5) ? f.pick(['install', 'billing', 'reset password', 'codebarn', 'tracklight filter']) : f.urlValue());
  const body = (): { payload: string; type: string } => {
    const json = (v: unknown) => ({ payload: JSON.stringify(v), type: 'application/json' });
    switch (f.int(8)) {
      case 0: return json({ query: f.text(), pagination: { page: f.pick([0, 1, 2, -1, 1e308, 1.5, '2', null]), size: f.pick([10, 0, -1, 1000, 1e9, '10']) } });
      case 1: return json({ query: f.text(), facetFilters: { contentTypes: [f.text()], products: [{ name: f.text(), versions: [f.text()] }] }, sort: { by: f.text() } });
      case 2: return { payload: `{"query":"x","facetFilters":${'['.repeat(2000 + f.int(4000))}${']'.repeat(2000)}}`, type: 'application/json' };
      case 3: return json({ query: 'x', junk: Array.from({ length: 5000 }, (_, i) => i) });
      case 4: return { payload: f.pick(['{"query":', '\u0000', 'null', '[]', '"str"', '1e999', '{"__proto__":{"x":1},"query":"a"}', '{"query":"a\\u0000"}', '{"query":"\\ud800"}']), type: 'application/json' };
      case 5: return { payload: JSON.stringify({ query: f.text() }), type: f.pick(CONTENT_TYPES) };
      case 6: return json({ query: f.wrongValue(), facetFilters: f.wrongValue(), sort: f.wrongValue(), pagination: f.wrongValue() });
      default: return json({ query: f.pick(['install', 'billing', 'codebarn', f.text()]) });
    }
  };
  return (): Sent => {
    if (f.chance(0.5)) {
      const path = f.pick(['/search-results', '/search-results/', '/ja/search-results', '/search-results%00']);
      const request: InjectOptions = { method: f.chance(0.9) ? 'GET' : f.pick(METHODS), url: `${path}${f.query(params, value, 6)}`, headers: {} };
      return { request: dress(f, s, request) };
    }
    if (f.chance(0.05)) return { request: dress(f, s, { method: 'GET', url: '/gateway/api/help-content/v2/openapi.json', headers: {} }) };
    const b = body();
    const request: InjectOptions = { method: f.chance(0.92) ? 'POST' : f.pick(METHODS), url: `/gateway/api/help-content/v2/search${f.chance(0.1) ? f.query(params, value) : ''}`,
      headers: { 'content-type': b.type }, payload: b.payload };
    return { request: dress(f, s, request) };
  };
}

function feedbackGroup(f: Fuzz, s: Setup) {
  const entry = () => (f.chance(0.7) && s.entries.length > 0 ? f.pick(s.entries) : f.text());
  return (): Sent => {
    const entryId = entry();
    const token = f.chance(0.7) ? s.app.formTokens.issue(`feedback:${entryId}`) : f.pick(['', 'x', s.app.formTokens.issue('feedback:other'), f.text()]);
    const fields: Record<string, string> = { _csrf: token, entryId, returnTo: f.pick(['/', f.pick(s.pages), '//evil.example', 'https://evil.example', f.text()]),
      helpful: f.pick(['yes', 'no', f.text()]) };
    if (f.chance(0.5)) fields.reason = f.pick(['not-accurate', 'not-clear', 'not-relevant', f.text()]);
    if (f.chance(0.2)) delete fields[f.pick(Object.keys(fields))];
    if (f.chance(0.1)) fields[f.text()] = f.text();
    const request: InjectOptions = { method: f.chance(0.95) ? 'POST' : f.pick(METHODS), url: `/feedback${f.chance(0.1) ? `?${f.urlValue()}` : ''}`, headers: {} };
    const r = f.random();
    if (r < 0.7) {
      let encoded: string;
      try {
        encoded = new URLSearchParams(fields).toString();
      } catch {
        encoded = '_csrf=%ED%A0%80';
      }
      request.payload = f.chance(0.1) ? `${encoded}&entryId=${f.urlValue()}&helpful=${f.urlValue()}` : encoded;
      headersOf(request)['content-type'] = 'application/x-www-form-urlencoded';
    } else if (r < 0.8) {
      request.payload = JSON.stringify(f.chance(0.5) ? fields : { ...fields, helpful: f.wrongValue(), entryId: f.wrongValue() });
      headersOf(request)['content-type'] = 'application/json';
    } else withBody(f, request);
    return { request: dress(f, s, request) };
  };
}

function identityGroup(f: Fuzz, s: Setup) {
  /** Sign-in screens of the embedded provider that really started, with the cookies that started them. */
  const interactions: { path: string; cookie: string }[] = [];
  async function startInteraction() {
    const jar = new Jar();
    let res = await s.app.inject({ url: `/auth/login?continue=${encode(f.pick(s.pages))}`, headers: {} });
    for (let hops = 0; hops < 5 && res.statusCode >= 300 && res.statusCode < 400; hops++) {
      jar.take(res.headers['set-cookie'] as string[] | string | undefined);
      const next = new URL(String(res.headers.location), ORIGIN);
      if (next.pathname.startsWith('/auth/interaction/')) {
        interactions.push({ path: next.pathname, cookie: jar.header() });
        if (interactions.length > 8) interactions.shift();
        return;
      }
      res = await s.app.inject({ url: next.pathname + next.search, headers: { cookie: jar.header() } });
    }
  }
  const oidc = ['.well-known/openid-configuration', 'jwks', 'auth', 'token', 'me', 'session/end', 'session/end/confirm', 'reg', 'token/introspection',
    'token/revocation', 'request', 'device/auth', 'backchannel', '%00', '..%2f..%2f', 'auth/x'];
  const continues = () => encode(f.pick(['/', f.pick(s.pages), '//evil.example', 'https://evil.example/x', 'javascript:alert(1)', '/\\evil', f.text()]));
  return async (i: number): Promise<Sent> => {
    if (i % 25 === 0) await startInteraction();
    const r = f.random();
    let request: InjectOptions;
    if (r < 0.12) {
      request = { method: 'GET', url: `/auth/login${f.query(['continue', 'prompt', 'application', 'login_hint'], (n) => (n === 'continue' ? continues() : f.pick(['select_account', 'login', 'none', 'sac', f.urlValue()])))}`, headers: {} };
    } else if (r < 0.24) {
      request = { method: 'GET', url: `/auth/callback${f.query(['code', 'state', 'error', 'error_description', 'iss', 'session_state'])}`, headers: {} };
      const started = interactions.length > 0 && f.chance(0.5) ? f.pick(interactions) : undefined;
      if (started) headersOf(request).cookie = started.cookie;
    } else if (r < 0.4) {
      const path = f.pick(oidc);
      const method = f.pick(['GET', 'POST', 'GET', 'OPTIONS', 'HEAD', 'DELETE']);
      request = { method: method as 'GET', url: `/auth/oidc/${path}${f.query(['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'nonce', 'code_challenge', 'code_challenge_method', 'prompt', 'id_token_hint', 'post_logout_redirect_uri', 'grant_type', 'code', 'token'],
        (n) => (n === 'client_id' ? f.pick(['signpost', 'other', f.urlValue()]) : n === 'redirect_uri' ? encode(f.pick([`${ORIGIN}/auth/callback`, 'https://evil.example/cb', f.text()])) : n === 'response_type' ? f.pick(['code', 'token', 'id_token', f.urlValue()]) : n === 'scope' ? f.pick(['openid', 'openid%20email%20profile%20roles', f.urlValue()]) : f.urlValue()), 8)}`, headers: {} };
      if (method === 'POST' && f.chance(0.7)) {
        request.payload = f.chance(0.7) ? `grant_type=${f.pick(['authorization_code', 'refresh_token', 'client_credentials', f.urlValue()])}&code=${f.urlValue()}&client_id=signpost&redirect_uri=${f.urlValue()}&xsrf=${f.urlValue()}&logout=${f.pick(['yes', ''])}` : anyBody(f).payload;
        headersOf(request)['content-type'] = f.chance(0.8) ? 'application/x-www-form-urlencoded' : f.pick(CONTENT_TYPES);
      }
      if (f.chance(0.2)) headersOf(request).authorization = f.pick(['Basic c2lnbnBvc3Q6eA==', 'Bearer x', 'Basic %%%', 'Bearer ']);
    } else if (r < 0.72) {
      const started = interactions.length > 0 && f.chance(0.8) ? f.pick(interactions) : undefined;
      const base = started ? started.path : `/auth/interaction/${f.chance(0.5) ? f.urlValue() : 'x'.repeat(f.int(100))}`;
      const action = f.pick(['', '', '/login', '/login', '/login', '/confirm', '/abort', '/x']);
      const method = action === '' ? f.pick(['GET', 'GET', 'HEAD', 'POST']) : f.chance(0.9) ? 'POST' : 'GET';
      request = { method: method as 'GET', url: `${base}${action}`, headers: started && f.chance(0.85) ? { cookie: started.cookie } : {} };
      if (method === 'POST') {
        const email = f.pick([ELI, ELI, ELI.toUpperCase(), 'nobody@example.com', '', 'a\u0000b@example.com', f.text(), 'x'.repeat(5000)]);
        const password = f.pick([PASSWORD, 'wrong password', '', '\u0000', f.text(), 'p'.repeat(100_000)]);
        const r2 = f.random();
        if (r2 < 0.7) {
          let payload: string;
          try {
            payload = new URLSearchParams({ email, password }).toString();
          } catch {
            payload = 'email=%ED%A0%80&password=x';
          }
          request.payload = f.chance(0.1) ? `${payload}&email=${f.urlValue()}&password=${f.urlValue()}` : payload;
          headersOf(request)['content-type'] = 'application/x-www-form-urlencoded';
        } else if (r2 < 0.85) {
          request.payload = JSON.stringify({ email: f.chance(0.5) ? email : f.wrongValue(), password: f.chance(0.5) ? password : f.wrongValue() });
          headersOf(request)['content-type'] = 'application/json';
        } else withBody(f, request);
      }
    } else if (r < 0.86) {
      const path = f.pick(['/auth/account', '/auth/account', '/auth/account/password', '/auth/account/password', '/auth/manage-profile', '/auth/logout']);
      const post = path === '/auth/logout' || path.endsWith('/password');
      request = { method: post && f.chance(0.9) ? 'POST' : f.pick(['GET', 'HEAD']), url: `${path}${f.query(['done', 'continue', 'x'])}`, headers: {} };
      if (request.method === 'POST') {
        const token = f.chance(0.6) ? s.app.formTokens.issue(f.pick(['account:password', 'password', 'logout'])) : f.urlValue();
        request.payload = `_csrf=${encode(token)}&current=${f.urlValue()}&currentPassword=${f.urlValue()}&password=${f.urlValue()}&newPassword=${f.urlValue()}&confirm=${f.urlValue()}`;
        headersOf(request)['content-type'] = f.chance(0.9) ? 'application/x-www-form-urlencoded' : f.pick(CONTENT_TYPES);
      }
      return { request: dress(f, s, request, 'customer') };
    } else {
      request = { method: f.chance(0.9) ? 'GET' : f.pick(METHODS), url: f.pick(['/gateway/api/customer-context/user/auth', '/gateway/api/customer-context/customer/cohort/csm-experiment', '/gateway/api/session/heartbeat']), headers: {} };
      return { request: dress(f, s, request, 'customer') };
    }
    // The sign-in screens come with the provider's own cookies: no session cookie of ours on top, mostly.
    const headers = headersOf(request);
    if (!headers.cookie && f.chance(0.3)) headers.cookie = cookieFor(f, s) ?? '';
    if (!headers.cookie) delete headers.cookie;
    if (request.method !== 'GET' && request.method !== 'HEAD') headers.origin = f.chance(0.9) ? ORIGIN : 'https://evil.example';
    request.remoteAddress = f.address();
    return { request };
  };
}

function formsGroup(f: Fuzz, s: Setup) {
  const fieldNames = ['email', 'name', 'product', 'version', 'severity', 'subject', 'description', 'page', 'reason', 'website', 'submission', '_csrf', 'attachments', 'company', 'url'];
  const good = (path: string): Record<string, string> => ({
    _csrf: s.app.formTokens.issue(`support:${FORM_IDS[path] ?? 'contact-form'}`),
    submission: f.chance(0.9) ? f.uuid() : f.pick(['short', 'x'.repeat(70), '%00', f.text()]),
    email: f.pick(['visitor@customer.example', 'not-an-address', '', 'a\u0000@b.example', f.text()]),
    name: f.pick(['Vera Visitor', '', f.text()]),
    product: f.pick(['codebarn-data-center', 'codebarn-cloud', 'tracklight-cloud', '', f.text()]),
    version: f.pick(['9.4', '8.19', '', f.text()]),
    severity: f.pick(['high', 'low', 'critical', '', f.text()]),
    subject: f.pick(['Pushes to main are rejected', '', f.text()]),
    description: f.pick(['Every push to the main branch is rejected with a hook error.', '', f.text()]),
    website: f.chance(0.9) ? '' : 'http://spam.example',
    page: f.pick(['/codebarn/kb/diff-too-large-to-display', f.pick(s.pages), '//evil.example', f.text()]),
    reason: f.pick(['broken-link', 'outdated', '', f.text()]),
  });
  const fileParts = (): Part[] => {
    const n = f.pick([0, 1, 1, 2, 3, 4, 6]);
    return Array.from({ length: n }, () => ({
      name: f.chance(0.7) ? 'attachments' : f.pick(['file', 'description', 'attachments[]', '\u0000', f.text()]),
      filename: f.pick(['log.txt', 'shot.png', 'x.exe', '', '../../etc/passwd', 'a\u0000b.txt', '\ud800.txt', 'x'.repeat(300), 'é.pdf']),
      type: f.pick(['text/plain', 'image/png', 'application/octet-stream', '\u0000']),
      value: f.pick([Buffer.from('a log line\n'), Buffer.from('\x89PNG\r\n\x1a\n'), Buffer.alloc(4097, 'x'), Buffer.alloc(20_000, 0), Buffer.from('')]),
    }));
  };
  return (): Sent => {
    const path = f.chance(0.85) ? f.pick(Object.keys(FORM_IDS)) : f.pick(FORM_PATHS);
    const url = `${path}${f.chance(0.2) ? f.query(['page', 'product', 'subject', 'reason'], (n) => (n === 'page' ? encode(f.pick(s.pages)) : f.urlValue())) : ''}`;
    if (f.chance(0.1)) {
      const ref = f.pick(s.references);
      const sent = `/request-sent/${f.chance(0.7) ? ref : f.urlValue()}?token=${f.chance(0.5) ? encode(s.app.formTokens.issue(`sent:${ref}`)) : f.urlValue()}`;
      return { request: dress(f, s, { method: 'GET', url: f.chance(0.5) ? url : sent, headers: {} }) };
    }
    const request: InjectOptions = { method: f.chance(0.95) ? 'POST' : f.pick(METHODS), url, headers: {} };
    const fields = good(path);
    if (f.chance(0.3)) for (let k = f.int(4); k >= 0; k--) fields[f.pick(fieldNames)] = f.text();
    if (f.chance(0.1)) delete fields[f.pick(Object.keys(fields))];
    const r = f.random();
    if (r < 0.55) {
      // Multipart, as the form page sends it, whole or broken.
      let parts: Part[] = [...Object.entries(fields).map(([name, value]) => ({ name, value })), ...fileParts()];
      if (f.chance(0.15)) parts.push({ name: f.pick(['\u0000', 'a\u0000b', '', '"', 'x'.repeat(1000)]), value: f.pick(['\u0000', 'v\u0000', '']) });
      if (f.chance(0.1)) parts = [...parts, ...Array.from({ length: 100 }, (_, k) => ({ name: `f${k}`, value: 'v' }))];
      if (f.chance(0.1)) parts.push({ name: 'description', value: 'd'.repeat(f.pick([100_001, 300_000])) });
      if (f.chance(0.15)) parts = parts.sort(() => f.random() - 0.5);
      const { payload, boundary } = multipartBody(parts, { close: f.chance(0.8), boundary: f.chance(0.9) ? undefined : f.pick(['x', 'y'.repeat(80), 'a b', '"q"']) });
      const kind = f.random();
      const type = kind < 0.8 ? `multipart/form-data; boundary=${boundary}`
        : kind < 0.85 ? 'multipart/form-data; boundary=wrong-boundary'
          : kind < 0.9 ? 'multipart/form-data'
            : kind < 0.95 ? `multipart/form-data; boundary="${boundary}"` : `multipart/form-data; boundary=${boundary}; boundary=other`;
      let body = payload;
      if (f.chance(0.1)) body = body.subarray(0, f.int(body.length));
      request.payload = body;
      headersOf(request)['content-type'] = type;
    } else if (r < 0.8) {
      let encoded: string;
      try {
        encoded = new URLSearchParams(fields).toString();
      } catch {
        encoded = '_csrf=%ED%A0%80';
      }
      request.payload = f.chance(0.1) ? `${encoded}&${f.urlValue()}=${f.urlValue()}&email=${f.urlValue()}` : f.chance(0.05) ? `${encoded}&description=${'x'.repeat(600_000)}` : encoded;
      headersOf(request)['content-type'] = 'application/x-www-form-urlencoded';
    } else if (r < 0.88) {
      request.payload = f.chance(0.5) ? JSON.stringify(fields) : `email=${f.urlValue()}\u0000&description=${f.text()}`;
      headersOf(request)['content-type'] = f.pick(['text/plain', 'text/plain;charset=UTF-8']);
    } else if (r < 0.96) {
      const wrong: Record<string, unknown> = { ...fields };
      for (let k = f.int(4); k >= 0; k--) wrong[f.pick(fieldNames)] = f.wrongValue();
      request.payload = JSON.stringify(f.chance(0.9) ? wrong : f.wrongValue());
      headersOf(request)['content-type'] = 'application/json';
    } else withBody(f, request);
    return { request: dress(f, s, request) };
  };
}

function requestsGroup(f: Fuzz, s: Setup) {
  const ref = () => (f.chance(0.7) ? f.pick(s.references) : f.pick(['SR-1', 'SR-99999', 'SR-0', 'SR--1', 'sr-1', 'SR-1e309', 'SR-Infinity', f.urlValue()]));
  return (): Sent => {
    const r = f.random();
    let request: InjectOptions;
    if (r < 0.25) {
      request = { method: 'GET', url: `${f.pick(['/requests', '/requests/', '/requests//'])}${f.query(['page', 'view', 'status', 'done'], (n) => (n === 'page' ? f.number() : n === 'view' ? f.pick(['mine', 'partner', f.urlValue()]) : f.urlValue()))}`, headers: {} };
      return { request: dress(f, s, request, 'customer') };
    }
    if (r < 0.5) {
      request = { method: 'GET', url: `/staff/requests${f.query(['page', 'form', 'product', 'status'], (n) => (n === 'page' ? f.number() : n === 'form' ? f.pick(['report-problem-form', 'contact-form', f.urlValue()]) : n === 'status' ? f.pick([...REQUEST_STATUSES, f.urlValue()]) : f.pick(['codebarn-cloud', f.urlValue()])), 5)}`, headers: {} };
      return { request: dress(f, s, request, 'staff') };
    }
    if (r < 0.7) {
      request = { method: f.chance(0.9) ? 'GET' : f.pick(METHODS), url: `/requests/${ref()}${f.query(['done'], () => f.pick(['status', '1', f.urlValue()]), 1)}`, headers: {} };
      return { request: dress(f, s, request, f.chance(0.5) ? 'staff' : 'customer') };
    }
    if (r < 0.8) {
      const id = f.chance(0.5) ? s.attachment.id : f.number();
      request = { method: 'GET', url: `/requests/${f.chance(0.7) ? s.attachment.reference : ref()}/attachments/${id}`, headers: {} };
      return { request: dress(f, s, request, f.chance(0.5) ? 'staff' : 'customer') };
    }
    const reference = ref();
    const token = f.chance(0.7) ? s.app.formTokens.issue(`request-status:${reference}`) : f.urlValue();
    request = { method: f.chance(0.95) ? 'POST' : f.pick(METHODS), url: `/requests/${reference}/status`, headers: {} };
    if (f.chance(0.8)) {
      let payload: string;
      try {
        payload = new URLSearchParams({ _csrf: token, status: f.pick([...REQUEST_STATUSES, f.text()]), note: f.pick(['', 'Looked into it.', 'n'.repeat(2001), f.text()]) }).toString();
      } catch {
        payload = `_csrf=${token}&status=%ED%A0%80`;
      }
      request.payload = payload;
      headersOf(request)['content-type'] = 'application/x-www-form-urlencoded';
    } else if (f.chance(0.5)) {
      request.payload = JSON.stringify({ _csrf: token, status: f.wrongValue(), note: f.wrongValue() });
      headersOf(request)['content-type'] = 'application/json';
    } else withBody(f, request);
    return { request: dress(f, s, request, 'staff') };
  };
}

function helpdeskGroup(f: Fuzz, s: Setup) {
  return (): Sent => {
    const reference = f.chance(0.7) ? f.pick(s.references) : f.pick(['SR-99999', 'SR-1e309', 'x'.repeat(200), f.urlValue()]);
    const authorization = f.pick([`Bearer ${HELPDESK_TOKEN}`, `Bearer ${HELPDESK_TOKEN}`, `Bearer ${HELPDESK_TOKEN}`, undefined, 'Bearer wrong', `Bearer ${HELPDESK_TOKEN}x`,
      `Basic ${HELPDESK_TOKEN}`, HELPDESK_TOKEN, 'Bearer ', `bearer ${HELPDESK_TOKEN}`, `Bearer  ${HELPDESK_TOKEN}`, 'Bearer \u00e9', `Bearer ${'x'.repeat(8000)}`]);
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    if (f.chance(0.15)) {
      const request: InjectOptions = { method: f.pick(['GET', 'HEAD', 'DELETE']), url: `/api/requests/${reference}`, headers };
      request.remoteAddress = f.address();
      return { request };
    }
    const request: InjectOptions = { method: f.chance(0.95) ? 'POST' : f.pick(METHODS), url: `/api/requests/${reference}/status${f.chance(0.05) ? f.query(['status']) : ''}`, headers };
    const r = f.random();
    if (r < 0.5) {
      const body: Record<string, unknown> = { status: f.pick([...REQUEST_STATUSES, 'done', '', f.text()]) };
      if (f.chance(0.5)) body.note = f.pick(['Closed by the helpdesk.', 'n'.repeat(2001), '\u0000', f.text()]);
      if (f.chance(0.1)) body[f.text()] = f.wrongValue();
      request.payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    } else if (r < 0.75) {
      request.payload = JSON.stringify(f.chance(0.5) ? { status: f.wrongValue(), note: f.wrongValue() } : f.wrongValue());
      headers['content-type'] = f.pick(['application/json', 'application/json; charset=utf-8', 'text/plain']);
    } else withBody(f, request);
    request.remoteAddress = f.address();
    return { request };
  };
}

function eventsGroup(f: Fuzz, s: Setup) {
  const types = [...EVENT_TYPES, 'made_up', '', 'page_view', 'search'];
  const nasty = ['\u0000', 'a\u0000b', '\ud800', '\udfff', 'x\ud83d', '\uE000email\uE001', 'a@b.example', 'x'.repeat(300), '\u202e', '😀'];
  const event = (): unknown => {
    if (f.chance(0.05)) return f.wrongValue();
    const e: Record<string, unknown> = {
      type: f.chance(0.85) ? f.pick(EVENT_TYPES) : f.pick(types), path: f.chance(0.8) ? f.pick(s.pages) : f.pick(['no-slash', '/', `/${f.pick(nasty)}`, '//evil.example']),
      key: f.pick(['', '1', '75', 'Guides', 'start', f.pick(nasty)]),
    };
    if (f.chance(0.5)) e.value = f.pick([0, 1, 840, 0.8, -1, 1e308, 5000, '1', null]);
    if (f.chance(0.3)) e.at = f.pick([Date.now(), 0, -1, 1e20, 'now', Date.now() + 3_600_000]);
    if (f.chance(0.3)) e.term = f.pick(['install', f.pick(nasty)]);
    if (f.chance(0.2)) e.queryId = f.pick(['q-1234', f.pick(nasty)]);
    if (f.chance(0.2)) e.data = f.pick<unknown>([{ note: f.pick(nasty) }, { [f.pick(nasty)]: 1 }, { a: { b: { c: [1, 2, f.pick(nasty)] } } }, 'str', [1], null]);
    if (f.chance(0.1)) e[f.pick(['extra', '__proto__', 'constructor'])] = f.wrongValue();
    // One of the fields with a NUL or a lone surrogate in it, whatever the field.
    if (f.chance(0.15)) e[f.pick(['type', 'path', 'key', 'term', 'queryId'])] = `${String(e.type)}${f.pick(nasty)}`;
    return e;
  };
  return (): Sent => {
    const batch: Record<string, unknown> = { events: Array.from({ length: f.pick([1, 1, 2, 3, 5, 10, 50, 51, 200]) }, event) };
    if (f.chance(0.7)) batch.sessionId = f.pick(['session-0123456789', '', 's', 'x'.repeat(200), f.pick(nasty)]);
    if (f.chance(0.5)) batch.persistentId = f.pick(['visitor-0123456789', f.pick(nasty)]);
    if (f.chance(0.05)) batch.events = f.wrongValue();
    let payload: string | Buffer = JSON.stringify(f.chance(0.95) ? batch : f.wrongValue());
    const r = f.random();
    // A NUL written raw, as a client's own encoder might; JSON.stringify writes \u0000 escaped.
    if (r < 0.1) payload = payload.replace(/\\u0000/g, '\u0000');
    else if (r < 0.15) payload = payload.replace(/\\ud800/g, '\ud800');
    else if (r < 0.2) payload = payload.slice(0, f.int(payload.length));
    else if (r < 0.23) payload = `${payload}${'x'.repeat(40_000)}`;
    else if (r < 0.26) payload = Buffer.concat([Buffer.from(payload), Buffer.from([0xff, 0xfe, 0xc0, 0x80])]);
    const request: InjectOptions = {
      method: f.chance(0.95) ? 'POST' : f.pick(METHODS), url: `${EVENTS_PATH}${f.chance(0.05) ? f.query(['x']) : ''}`, payload,
      headers: { 'content-type': f.chance(0.45) ? 'application/json' : f.chance(0.8) ? f.pick(['text/plain;charset=UTF-8', 'text/plain']) : f.pick(CONTENT_TYPES),
        'user-agent': f.chance(0.9) ? 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' : f.pick(['Googlebot/2.1', '', '\u0000']) },
    };
    if (f.chance(0.05)) headersOf(request).dnt = '1';
    if (!headersOf(request)['content-type']) delete headersOf(request)['content-type'];
    return { request: dress(f, s, request) };
  };
}

function assistantGroup(f: Fuzz, s: Setup) {
  const question = () => f.pick(['how do I install the widget', 'reset password', 'banana bread recipe', '', 'a'.repeat(2100), f.urlValue()]);
  return (): Sent => {
    const path = f.pick(['/assistant', '/assistant', '/assistant/stream', '/assistant/summary', '/assistant/summary/stream', '/assistant/', '/assistant/x']);
    const request: InjectOptions = {
      method: f.chance(0.9) ? 'GET' : f.pick(METHODS),
      url: `${path}${f.query(['q', 'query', 'searchTerm', 'product', 'page'], (n) => (n === 'q' || n === 'searchTerm' ? encode(question()) : f.urlValue()))}`,
      headers: {},
    };
    if (request.method !== 'GET' && request.method !== 'HEAD' && f.chance(0.5)) withBody(f, request);
    dress(f, s, request, 'customer');
    // Mostly Ada, whose flags are on.
    if (f.chance(0.5)) headersOf(request).cookie = s.cookies.ada;
    return { request };
  };
}

function insightsGroup(f: Fuzz, s: Setup) {
  const date = () => f.pick(['2026-01-01', '2026-02-30', '2026-13-01', '1970-01-01', '9999-12-31', '0000-01-01', '2026-1-1', '', 'yesterday', '2026-01-01T00:00:00Z', f.urlValue()]);
  return (): Sent => {
    const section = f.chance(0.8) ? f.pick(SECTIONS) : f.urlValue();
    const tables = Object.keys((TABLES as Record<string, Record<string, unknown>>)[section] ?? { x: 1 });
    const path = f.pick(['/insights', `/insights/${section}`, `/insights/${section}`, `/insights/${section}/${f.chance(0.8) ? `${f.pick(tables)}.csv` : f.urlValue()}`]);
    const request: InjectOptions = {
      method: f.chance(0.9) ? 'GET' : f.pick(METHODS),
      url: `${path}${f.query(['from', 'to', 'product'], (n) => (n === 'product' ? f.pick(['codebarn-cloud', 'tracklight-cloud', '', f.urlValue()]) : date()))}`,
      headers: {},
    };
    return { request: dress(f, s, request, 'staff') };
  };
}

/** Any route the app has, with its parameters fuzzed: what the groups above do not name. */
function anyRouteGroup(f: Fuzz, s: Setup) {
  const params = ['searchTerm', 'entry', 'version', 'from', 'preview', 'page', 'sort', 'deployment', 'product', 'contentType', 'category', 'exact',
    'platform', 'feedback', 'q', 'to', 'view', 'status', 'continue'];
  const pathOf = (pattern: string) => pattern.split('/').map((part) => {
    if (part.startsWith(':')) return f.chance(0.3) ? f.pick(['acme-cloud', 'codebarn-cloud', 'ja', '2.0', ...s.references]) : f.urlValue();
    if (part === '*') return Array.from({ length: 1 + f.int(3) }, () => (f.chance(0.3) ? f.pick(['codebarn-cloud', 'docs', 'kb', 'ja']) : f.urlValue())).join('/');
    return f.chance(0.05) ? `${part}${f.urlValue()}` : part;
  }).join('/');
  return (): Sent => {
    const route = f.pick(s.routes);
    const method = f.chance(0.7) ? route.method : f.pick(METHODS);
    const request: InjectOptions = { method: method as 'GET', url: `${pathOf(route.url)}${f.query(params)}`, headers: {} };
    if (f.chance(0.15)) headersOf(request)['x-preview-token'] = f.pick([PREVIEW_TOKEN, 'wrong', 'é'.repeat(40), '']);
    if (method !== 'GET' && method !== 'HEAD' && f.chance(0.9)) withBody(f, request);
    if (f.chance(0.05)) headersOf(request).authorization = f.pick([`Bearer ${HELPDESK_TOKEN}`, 'Bearer wrong', `Basic ${f.pick(RAW)}`]);
    return { request: dress(f, s, request) };
  };
}
