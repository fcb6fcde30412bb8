/**
 * Spec §8 flag failures: pages never fail because of flags. A provider that throws, a flag service over
 * OFREP (a local server speaking the single-flag evaluate endpoint) that answers, fails, is slow or is
 * down, and a service configured without its URL (logged once): every flag takes its default.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import t from 'tap';
import type { Provider, ResolutionDetails } from '@openfeature/server-sdk';
import { build, testDb } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed, setCookies } from '../identity/helpers.ts';
import { contentWithVideo, VIDEO_TOPIC } from './helpers.ts';

const PAGE = VIDEO_TOPIC;

function logTo(lines: string[]) {
  return new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } });
}

type Mode = 'ok' | 'targeted' | 'fail' | 'slow';

/** A flag service that speaks OFREP's single-flag evaluation (POST /ofrep/v1/evaluate/flags/{key}). */
async function ofrepServer(t: { teardown: (fn: () => unknown) => void }) {
  const state = { mode: 'ok' as Mode, contexts: [] as Record<string, unknown>[] };
  const body = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text ? JSON.parse(text) as { context?: Record<string, unknown> } : {};
  };
  const server: Server = createServer(async (req, res) => {
    const key = /^\/ofrep\/v1\/evaluate\/flags\/([^/?]+)$/.exec(req.url ?? '')?.[1];
    const request = await body(req);
    if (req.method !== 'POST' || !key) {
      res.writeHead(404).end();
      return;
    }
    state.contexts.push(request.context ?? {});
    if (state.mode === 'fail') {
      res.writeHead(500, { 'content-type': 'application/json' }).end('{"errorCode":"GENERAL","errorDetails":"boom"}');
      return;
    }
    // Far slower than the time limit: the page must not wait for it (the wait ends when the client gives up).
    if (state.mode === 'slow') await new Promise<void>((r) => { const timer = setTimeout(r, SLOW_MS); res.once('close', () => { clearTimeout(timer); r(); }); });
    const value = decodeURIComponent(key) === 'sac-featured-video' ? false : key.startsWith('sac-new') || key.startsWith('sac_new');
    const targeted = state.mode === 'targeted';
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
      key: decodeURIComponent(key), value: targeted ? Boolean(request.context?.targetingKey) : value,
      reason: targeted ? 'TARGETING_MATCH' : 'STATIC', variant: value ? 'on' : 'off', metadata: {},
    }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  t.teardown(close);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state, close };
}

/**
 * How long the slow flag service takes to answer, against a time limit of 2 s: far apart, so a loaded
 * machine's delays never turn a prompt answer into a time-out or a time-out into a wait for the answer.
 */
const SLOW_MS = 120_000;

// One database and one content tree for the three apps below: only their flag settings differ.
const db = await testDb(t);
const contentDir = await contentWithVideo(t);

t.test('a flag service over OFREP: answers, fails, is slow, is down', async (t) => {
  const service = await ofrepServer(t);
  const lines: string[] = [];
  const app = await build(t, {
    db, contentDir,
    env: { FLAGS_PROVIDER: 'ofrep', FLAGS_URL: service.url, FLAGS_TIMEOUT_MS: '2000', SESSION_SECRET, LOG_LEVEL: 'warn' },
    logStream: logTo(lines),
  });
  const get = (url: string, cookie?: string) => app.inject({ url, headers: cookie ? { cookie } : {} });

  const answered = await get(PAGE);
  t.equal(answered.statusCode, 200);
  t.notMatch(answered.body, 'featured-video', 'the service turned the video off');
  t.match(String(answered.headers['cache-control']), /^public/, 'a static answer keeps the page public');
  const context = service.state.contexts.at(-1) ?? {};
  t.match(context, { role: 'anonymous', path: PAGE, host: 'localhost' }, 'the context goes with the evaluation');
  t.equal(context.targetingKey, undefined, 'no visitor id while the answer does not depend on one');

  service.state.contexts.length = 0;
  await get(PAGE, sealed(app, ADA));
  const signedIn = service.state.contexts.at(-1) ?? {};
  t.match(signedIn, { targetingKey: ADA.sub, role: 'customer' });
  t.match(String(signedIn.emailDomainHash), /^[0-9a-f]{64}$/);
  t.notMatch(JSON.stringify(service.state.contexts), /@|customer\.example/i, 'never the e-mail address');

  service.state.mode = 'targeted';
  t.equal(await app.flags.recheck(), true, 'the service\'s new answers are noticed');
  const targeted = await get(PAGE);
  t.ok(setCookies(targeted).some((l) => l.startsWith('sp_anon=')), 'a targeted answer: decided again with a visitor id');
  t.equal(targeted.headers['cache-control'], 'private, no-store');

  for (const mode of ['fail', 'slow'] as const) {
    service.state.mode = mode;
    const started = Date.now();
    const res = await get(PAGE);
    t.equal(res.statusCode, 200, `${mode}: the page is served`);
    t.match(res.body, 'featured-video', `${mode}: the video flag takes its default (on)`);
    if (mode === 'slow') t.ok(Date.now() - started < SLOW_MS / 2, 'a slow service costs its time limit per flag, not its delay');
  }
  // Recovered, with no recheck in between: a page rendered with a fallback was not kept.
  service.state.mode = 'ok';
  const recovered = await get(PAGE);
  t.notMatch(recovered.body, 'featured-video', "recovered: the next request asks the service again and gets its answer, not the kept fallback");
  t.match(String(recovered.headers['cache-control']), /^public/);
  t.notMatch((await get(PAGE)).body, 'featured-video', 'and the good answer is kept');
  await service.close();
  app.content.invalidate(); // a page rendered while the service is down, not the copy kept above
  const down = await get(PAGE);
  t.equal(down.statusCode, 200, 'down: the page is served');
  t.match(down.body, 'featured-video');
  t.equal((await get('/search-results/?searchTerm=widget')).statusCode, 200);
  t.ok(lines.some((l) => l.includes('flag evaluation failed: default used')), 'failures are logged');
  t.notMatch(lines.join(''), /ada@|customer\.example/, 'no address in the log');
});

t.test('a provider that throws: every page is served with the defaults, experiments hidden', async (t) => {
  const fail = async (): Promise<ResolutionDetails<never>> => {
    throw new Error('provider exploded calling https://flags:pa55word@flags.example/ofrep/v1/evaluate/flags/x?api_key=s3cret-key&env=prod');
  };
  const throwing: Provider = {
    metadata: { name: 'throwing' }, runsOn: 'server',
    resolveBooleanEvaluation: fail, resolveStringEvaluation: fail, resolveNumberEvaluation: fail, resolveObjectEvaluation: fail,
  };
  const lines: string[] = [];
  const app = await build(t, { db, contentDir, flagProvider: throwing, env: { SESSION_SECRET, LOG_LEVEL: 'warn' }, logStream: logTo(lines) });
  for (const url of [PAGE, '/search-results/?searchTerm=widget', '/']) {
    const res = await app.inject(url);
    t.ok(res.statusCode < 500, `${url}: ${res.statusCode}`);
  }
  t.match((await app.inject(PAGE)).body, 'featured-video', 'the video flag\'s default');
  t.notMatch((await app.inject('/search-results/?searchTerm=widget')).body, 'name="contentType"', 'the new filters stay hidden');
  t.match((await app.inject({ url: '/requests', headers: { cookie: sealed(app, ADA) } })).body, 'data-portal-variant="standard"', 'the standard portal');
  t.ok(lines.some((l) => l.includes('provider exploded')), 'logged');
  const logged = lines.join('');
  t.match(logged, 'https://…@flags.example/ofrep/v1/evaluate/flags/x?…', 'the service is named by its address');
  t.notMatch(logged, /pa55word|s3cret-key|env=prod/, 'neither its password nor its query string is logged');
  const experiment = await app.flags.evaluate('sac-search-ai-experiment', { targetingKey: 'a' });
  t.same(experiment, { name: 'sac-search-ai-experiment', value: false, reason: 'ERROR', errorCode: 'GENERAL' });
  t.ok(lines.some((l) => l.includes('experiment failed: feature hidden')), 'an experiment\'s failure hides it');
});

t.test('a flag service configured without its URL: logged once, every flag its default', async (t) => {
  const lines: string[] = [];
  const app = await build(t, { db, contentDir, env: { FLAGS_PROVIDER: 'flagd', LOG_LEVEL: 'warn' }, logStream: logTo(lines) });
  for (let i = 0; i < 3; i++) t.equal((await app.inject(PAGE)).statusCode, 200);
  t.match((await app.inject(PAGE)).body, 'featured-video');
  t.equal(lines.filter((l) => l.includes('no flag provider configured')).length, 1, 'logged once');
  t.match(lines.find((l) => l.includes('no flag provider configured')), 'FLAGS_URL');
  t.equal(app.flags.source, 'none');
});
