import { createHash } from 'node:crypto';
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { entryArgs, freePort, ROOT } from '../helpers/server-process.ts';
import { fetchSend, signInCookie } from '../../scripts/sign-in-flow.ts';
import { upstreamFile } from '../../scripts/cluster.ts';
import { startSettings } from '../../scripts/start-settings.ts';
import { getOnNewConnection } from '../../scripts/bench-http.ts';

/**
 * `npm run cluster` (issue 28, "no stickiness"): two instances of the production build behind nginx on a
 * PostgreSQL primary with a streaming replica. Every journey goes through the proxy, whose round-robin
 * sends consecutive requests to different instances; nginx's access log says which instance answered.
 */
const pgBin = ['15', '16', '17'].map((v) => `/usr/lib/postgresql/${v}/bin`).find((dir) => existsSync(join(dir, 'initdb')));
const nginx = existsSync('/usr/sbin/nginx');
const skip = process.env.DATABASE_URL
  ? 'runs once, in the PGlite run: the cluster brings its own PostgreSQL servers'
  : !pgBin ? 'PostgreSQL server binaries not installed (Debian: apt-get install postgresql)'
  : !nginx ? 'nginx not installed (Debian: apt-get install nginx)' : false;

const TOPIC = '/tracklight-cloud/docs/save-and-share-a-filter';
const CASEY = ['casey.customer@example.com', 'demo-customer-2026'] as const;
const HELPDESK_TOKEN = 'cluster-test-helpdesk-token-0123456789';
/** Questions one account may ask the assistant an hour, set low so the limit is reached in a few. */
const ASSISTANT_LIMIT = 5;
const QUESTION = 'how do I save and share a filter';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface State {
  pid: number; url: string;
  primary: { url: string; pid: number }; replica?: { pid: number }; nginx: { pid: number };
  instances: { index: number; url: string; port: number; pid: number }[];
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A browser's cookies: what each answer sets goes with the next request (names only; one site). */
function cookieJar() {
  const jar = new Map<string, string>();
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const take = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at), pair.slice(at + 1)];
      if (value === '' || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return res;
  };
  return { jar, header, take };
}

/** Server-sent events in a text: each block's event name and parsed data. */
function eventsOf(text: string): { event: string; data: unknown }[] {
  return text.split('\n\n').filter((b) => b.trim()).map((block) => ({
    event: /^event: (.*)$/m.exec(block)?.[1] ?? '',
    data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null'),
  }));
}

/** Runs a command to its end, failing with its output. */
function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${args.join(' ')} exited ${code}:\n${out}`))));
  });
}

t.test('the upstream file: an instance failing /readyz or drained on purpose is down, and none ready leaves the rest listed', async (t) => {
  const servers = (text: string) => text.split('\n').filter((l) => l.startsWith('server '));
  const instance = (index: number, ready: boolean, drained?: boolean) => ({ index, port: 3000 + index, ready, restarts: 0, ...(drained ? { drained } : {}) });
  t.same(servers(upstreamFile([instance(1, true), instance(2, false), instance(3, true, true)])), [
    'server 127.0.0.1:3001 max_fails=1 fail_timeout=5s;',
    'server 127.0.0.1:3002 max_fails=1 fail_timeout=5s down;',
    'server 127.0.0.1:3003 max_fails=1 fail_timeout=5s down;',
  ], 'a benchmark\'s fewer instances and a rolling restart take an instance out whatever its /readyz says');
  t.same(servers(upstreamFile([instance(1, false), instance(2, false, true)])), [
    'server 127.0.0.1:3001 max_fails=1 fail_timeout=5s;',
    'server 127.0.0.1:3002 max_fails=1 fail_timeout=5s down;',
  ], 'fail open for the instances not drained: with none ready, nginx\'s own retries decide');
});

t.test('npm run cluster: journeys through nginx with no stickiness, and an instance killed', { skip }, async (t) => {
  await run(['scripts/build.mjs']);
  const dir = await mkdtemp(join(tmpdir(), 'signpost-cluster-test-'));
  // PostgreSQL (as the postgres account when root) and nginx's workers go through it.
  await chmod(dir, 0o755);
  // The instances' content tree: a copy, so nothing the fleet does touches the repository's.
  const content = await mkdtemp(join(tmpdir(), 'signpost-cluster-tree-'));
  t.teardown(() => rm(content, { recursive: true, force: true }));
  await cp(join(ROOT, 'content'), content, { recursive: true });

  // An OpenAI-compatible model of the test's own: it streams two pieces, and while `hold` is set it
  // waits between them until the test has received the first one through nginx.
  let hold: Promise<void> | undefined;
  const model = createServer((req, res) => {
    req.resume();
    req.on('end', () => void (async () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const piece = (text: string) => res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: text } }] })}\n\n`);
      piece('Save the filter, ');
      if (hold) await hold;
      piece('then share it from its menu.');
      res.end('data: [DONE]\n\n');
    })());
  });
  const modelPort = await freePort();
  await new Promise<void>((resolve) => model.listen(modelPort, '127.0.0.1', resolve));
  t.teardown(() => {
    model.closeAllConnections();
    return new Promise<void>((resolve) => model.close(() => resolve()));
  });

  const port = await freePort();
  const cli = spawn(process.execPath, [...entryArgs('scripts/cluster.ts'), '--instances', '2', '--port', String(port), '--dir', dir, '--content', content], {
    cwd: ROOT,
    env: {
      ...process.env, LOG_LEVEL: 'info', HELPDESK_TOKEN, AI_BASE_URL: `http://127.0.0.1:${modelPort}/v1`, AI_MODEL: 'test-model',
      ASSISTANT_RATE_LIMIT: String(ASSISTANT_LIMIT),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  cli.stdout.on('data', (d: Buffer) => (output += d.toString()));
  cli.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const cliExit = new Promise<number | null>((resolve) => cli.once('exit', (code) => resolve(code)));
  const state = (): State => JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as State;
  t.teardown(async () => {
    if (cli.exitCode === null && cli.signalCode === null) {
      cli.kill('SIGTERM');
      const timer = setTimeout(() => cli.kill('SIGKILL'), 60_000);
      await cliExit;
      clearTimeout(timer);
    }
    // Whatever a failed run left behind.
    if (existsSync(join(dir, 'cluster.json'))) {
      const s = state();
      for (const pid of [s.nginx?.pid, ...s.instances.map((i) => i.pid), s.replica?.pid, s.primary?.pid]) if (pid && alive(pid)) process.kill(pid, 'SIGKILL');
    }
    await rm(dir, { recursive: true, force: true });
  });

  const until = Date.now() + 150_000;
  while (!output.includes('Serving at ') && Date.now() < until) {
    if (cli.exitCode !== null) break;
    await sleep(100);
  }
  t.match(output, `Serving at http://127.0.0.1:${port}`, 'the URL is printed once everything is up');
  if (!output.includes('Serving at ')) return;
  const url = `http://127.0.0.1:${port}`;
  const started = state();
  t.equal(started.instances.length, 2);
  t.ok(started.replica, 'a streaming replica runs beside the primary');
  const upstreams = new Map(started.instances.map((i) => [`127.0.0.1:${i.port}`, i.index]));

  const accessLog = join(dir, 'logs', 'nginx-access.log');
  const logLines = () => (existsSync(accessLog) ? readFileSync(accessLog, 'utf8').trim().split('\n') : []);
  /** The instances (1, 2) that answered the requests logged from line `from` on, in order. */
  const servedBy = (from: number) => logLines().slice(from).map((line) => upstreams.get(/upstream=(\S+?),? /.exec(line)?.[1] ?? '') ?? 0);

  /** Casey's browser: the site's session and the embedded provider's own, across the subtests. */
  const casey = cookieJar();
  const signIn = () => signInCookie(fetchSend, url, ...CASEY, '/auth', casey.jar);

  await t.test('every instance runs with the memory settings a single instance starts with', async (t) => {
    const { env, flags } = startSettings(ROOT);
    t.ok(Object.keys(env).length > 0 && flags.length > 0, 'start:built names settings');
    for (const instance of state().instances) {
      const environ = readFileSync(`/proc/${instance.pid}/environ`, 'utf8').split('\0');
      const args = readFileSync(`/proc/${instance.pid}/cmdline`, 'utf8').split('\0');
      for (const [name, value] of Object.entries(env)) t.ok(environ.includes(`${name}=${value}`), `instance ${instance.index}: ${name}=${value}`);
      for (const flag of flags) t.ok(args.includes(flag), `instance ${instance.index}: ${flag}`);
    }
  });

  await t.test('sign-in through the embedded provider, its steps on alternating instances', async (t) => {
    const from = logLines().length;
    const cookie = await signIn();
    t.match(cookie, /^sp_session=./);
    const steps = servedBy(from);
    t.ok(steps.length >= 5, `the sign-in took ${steps.length} requests`);
    t.same(new Set(steps), new Set([1, 2]), 'both instances served steps of it');
    // Round-robin alternates them (2 1 2 1 …); a reload by the health checker may repeat one, so only
    // the mix is asserted.
    t.ok(steps.some((n, i) => i > 0 && n !== steps[i - 1]), `consecutive steps on different instances (${steps.join(' ')})`);

    const pageFrom = logLines().length;
    // Round-robin alternates; asked until each instance has answered, should a health check have
    // reloaded nginx meanwhile.
    for (let i = 0; i < 6 && new Set(servedBy(pageFrom)).size < 2; i++) {
      const res = await fetch(`${url}/auth/account`, { headers: { cookie }, redirect: 'manual' });
      t.equal(res.status, 200, 'the signed-in profile page');
      t.match(await res.text(), 'casey.customer@example.com');
    }
    t.same(new Set(servedBy(pageFrom)), new Set([1, 2]), 'served signed in by each instance');
  });

  /** Follows a sign-in from B/login with Casey's cookies; the page it ends on. */
  const loginAttempt = async () => {
    let res = casey.take(await fetch(`${url}/auth/login?continue=%2F`, { headers: { cookie: casey.header() }, redirect: 'manual' }));
    for (let i = 0; i < 10 && res.status >= 300 && res.status < 400; i++) {
      res = casey.take(await fetch(new URL(res.headers.get('location') ?? '/', url), { headers: { cookie: casey.header() }, redirect: 'manual' }));
    }
    return { status: res.status, body: await res.text() };
  };
  const passwordForm = /<input[^>]*type="password"/;

  await t.test('sign-out ends the provider\'s session on every instance: the next sign-in asks for the password', async (t) => {
    // While the provider's session lives, a new sign-in with the site's session gone goes straight through.
    casey.jar.delete('sp_session');
    const quiet = await loginAttempt();
    t.notMatch(quiet.body, passwordForm, 'signed in again without the form: the provider knows the browser');
    t.ok(casey.jar.get('sp_session'), 'and the site\'s session is back');

    // The provider's session cookie as it was: sign-out clears it, and a copy kept elsewhere (another
    // tab's request in flight, a restored browser) must still find the session over.
    const kept = [...casey.jar].filter(([name]) => name.startsWith('sp_op'));
    t.ok(kept.some(([name]) => name === 'sp_op'), 'the browser holds the provider\'s session cookie');
    const from = logLines().length;
    const out = casey.take(await fetch(`${url}/auth/logout`, { method: 'POST', headers: { cookie: casey.header(), origin: url }, redirect: 'manual' }));
    t.equal(out.status, 303, 'log out');
    t.notOk(casey.jar.get('sp_session'), 'the session cookie is cleared');
    let next = out.headers.get('location');
    for (let i = 0; next && i < 5; i++) {
      const res = casey.take(await fetch(new URL(next, url), { headers: { cookie: casey.header() }, redirect: 'manual' }));
      if (res.status < 300 || res.status >= 400) {
        t.equal(res.status, 200, 'the sign-out ends on a page');
        break;
      }
      next = res.headers.get('location');
    }
    const after = await fetch(`${url}/auth/account`, { headers: { cookie: casey.header() }, redirect: 'manual' });
    t.not(after.status, 200, 'signed out, the profile page asks to sign in');
    // Cleared by the sign-out (the provider may then hand out a new, empty session of its own).
    t.not(casey.jar.get('sp_op'), kept.find(([name]) => name === 'sp_op')?.[1], 'the provider\'s session cookie is no longer the signed-in one');
    // Sent anyway: the session it names is over in the database, whichever instance is asked.
    for (const [name, value] of kept) casey.jar.set(name, value);
    const asked = await loginAttempt();
    t.match(asked.body, passwordForm, 'a new sign-in asks for the password again');
    const steps = servedBy(from);
    t.same(new Set(steps), new Set([1, 2]), `sign-out and the new sign-in went to both instances (${steps.join(' ')})`);
    t.match(await signIn(), /^sp_session=./, 'and signs in with it');
  });

  let reference: string | undefined;
  let confirmation = "";
  await t.test('a support request with an attachment: form, post and confirmation on different instances', async (t) => {
    const from = logLines().length;
    const page = await (await fetch(`${url}/contact`)).text();
    const form = new FormData();
    form.set('_csrf', /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '');
    form.set('submission', /name="submission" value="([^"]+)"/.exec(page)?.[1] ?? '');
    for (const [k, v] of Object.entries({ email: 'visitor@customer.example', name: 'Vera Visitor', product: 'codebarn-data-center', version: '9.4', severity: 'high',
      subject: 'Pushes to main are rejected', description: 'Every push to the main branch is rejected with a hook error.' })) form.set(k, v);
    form.set('attachments', new Blob(['push rejected: hook exited 1\n'], { type: 'text/plain' }), 'push.log');
    const posted = await fetch(`${url}/contact`, { method: 'POST', body: form, headers: { origin: url }, redirect: 'manual' });
    t.equal(posted.status, 303, 'stored, then redirected');
    const location = posted.headers.get('location') ?? '';
    reference = /\/request-sent\/(SR-\d+)\?token=/.exec(location)?.[1];
    confirmation = location;
    t.ok(reference, `the confirmation names the reference (${location})`);
    const sent = await fetch(new URL(location, url));
    t.equal(sent.status, 200);
    t.match(await sent.text(), `data-reference="${reference}"`);
    const steps = servedBy(from);
    t.ok(steps.some((n, i) => i > 0 && n !== steps[i - 1]), `consecutive steps on different instances (${steps.join(' ')})`);
  });

  await t.test('the helpdesk API: a request read, updated and read back on alternating instances', async (t) => {
    const auth = { authorization: `Bearer ${HELPDESK_TOKEN}` };
    const from = logLines().length;
    const read = async () => {
      const res = await fetch(`${url}/api/requests/${reference}`, { headers: auth });
      t.equal(res.status, 200);
      return res.json() as Promise<{ status: string; attachments: unknown[]; updates: { status: string; note?: string | null }[] }>;
    };
    const before = await read();
    t.equal(before.status, 'open');
    t.equal(before.attachments.length, 1, 'with its attachment');
    const set = await fetch(`${url}/api/requests/${reference}/status`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ status: 'in-progress', note: 'Looking at the hook.' }),
    });
    t.equal(set.status, 200, 'status set');
    for (let i = 0; i < 2; i++) {
      const after = await read();
      t.equal(after.status, 'in-progress', 'read back with the new status');
      t.ok(after.updates.some((u) => u.status === 'in-progress' && u.note === 'Looking at the hook.'), 'and its note');
    }
    const steps = servedBy(from);
    t.same(new Set(steps), new Set([1, 2]), `read and update on both instances (${steps.join(' ')})`);
    t.ok(steps.some((n, i) => i > 0 && n !== steps[i - 1]), 'consecutive calls on different instances');
    t.equal((await fetch(`${url}/api/requests/${reference}`)).status, 401, 'no token, no answer');
  });

  await t.test('a conversation through the private link and the helpdesk API, on alternating instances', async (t) => {
    const auth = { authorization: `Bearer ${HELPDESK_TOKEN}`, 'content-type': 'application/json' };
    const from = logLines().length;
    const first = await fetch(`${url}/api/requests/${reference}/comments`, { method: 'POST', headers: auth, body: JSON.stringify({ body: 'Which hook rejects it?', name: 'Agent Kim', id: 'hd-1' }) });
    t.equal(first.status, 201, 'the helpdesk replies');
    const again = await fetch(`${url}/api/requests/${reference}/comments`, { method: 'POST', headers: auth, body: JSON.stringify({ body: 'Which hook rejects it?', name: 'Agent Kim', id: 'hd-1' }) });
    t.equal(again.status, 200, 'the same comment again, on the other instance, is stored once');
    // The requester sent it signed out: the key of the private link was signed on one instance, checked on the other.
    const token = encodeURIComponent(/token=([^"&]+)/.exec(confirmation)?.[1] ?? '');
    const sentPage = await (await fetch(`${url}/request-sent/${reference}?token=${token}`)).text();
    const link = /href="(\/requests\/SR-\d+\?key=[^"]+)"/.exec(sentPage)?.[1] ?? '';
    t.ok(link, 'the confirmation gives the private link');
    const page = await (await fetch(new URL(link, url))).text();
    t.match(page, 'Which hook rejects it?', 'the helpdesk reply is shown');
    const form = new FormData();
    for (const name of ['_csrf', 'submissionKey', 'key']) form.set(name, new RegExp(`name="${name}" value="([^"]+)"`).exec(page.slice(page.indexOf('request-reply-form')))?.[1] ?? '');
    form.set('body', 'The pre-receive hook.');
    const reply = await fetch(`${url}/requests/${reference}/comments`, { method: 'POST', body: form, headers: { origin: url }, redirect: 'manual' });
    t.equal(reply.status, 303, 'the reply is stored');
    const resent = await fetch(`${url}/requests/${reference}/comments`, { method: 'POST', body: form, headers: { origin: url }, redirect: 'manual' });
    t.equal(resent.status, 303, 'sent twice');
    const thread = await (await fetch(`${url}/api/requests/${reference}`, { headers: auth })).json() as { comments: { author: string; body: string }[] };
    t.same(thread.comments.map((c) => [c.author, c.body]), [['helpdesk', 'Which hook rejects it?'], ['requester', 'The pre-receive hook.']], 'each reply once');
    const steps = servedBy(from);
    t.ok(steps.some((n, i) => i > 0 && n !== steps[i - 1]), `consecutive steps on different instances (${steps.join(' ')})`);
  });

  await t.test('a flag change reaches every instance; the assistant streams through nginx; its limit counts across instances', async (t) => {
    const cookie = casey.header();
    for (const instance of state().instances) {
      t.equal((await fetch(`${instance.url}/assistant`, { headers: { cookie }, redirect: 'manual' })).status, 404, `instance ${instance.index}: no assistant with its flag off`);
    }
    // Flag definitions are published with the content: the change is made in a copy of the tree the
    // instances never read and imported once; each instance hears the import and reads them again.
    const published = await mkdtemp(join(tmpdir(), 'signpost-cluster-flags-publish-'));
    t.teardown(() => rm(published, { recursive: true, force: true }));
    await cp(content, published, { recursive: true });
    const flagsFile = join(published, 'flags.json');
    const flags = JSON.parse(await readFile(flagsFile, 'utf8')) as { flags: Record<string, { defaultVariant: string }> };
    flags.flags['csm-ai-agent-on-sac']!.defaultVariant = 'on';
    await writeFile(flagsFile, JSON.stringify(flags, null, 2));
    const { DATABASE_URL: _unused, ...env } = process.env;
    await run(['--enable-source-maps', join(ROOT, 'dist/scripts/import.js'), published], { ...env, DATABASE_URL: state().primary.url, LOG_LEVEL: 'warn' });
    for (const instance of state().instances) {
      const deadline = Date.now() + 30_000;
      let status = 0;
      while (Date.now() < deadline && status !== 200) {
        status = (await fetch(`${instance.url}/assistant`, { headers: { cookie }, redirect: 'manual' })).status;
        if (status !== 200) await sleep(100);
      }
      t.equal(status, 200, `instance ${instance.index} evaluates the flag on`);
    }
    const pageFrom = logLines().length;
    for (let i = 0; i < 4; i++) t.equal((await fetch(`${url}/assistant`, { headers: { cookie } })).status, 200, 'the assistant through the proxy');
    t.same(new Set(servedBy(pageFrom)), new Set([1, 2]), 'served by each instance');

    // The model holds its second piece until the first has come out of nginx: were the stream buffered,
    // nothing would arrive before the end and the model would wait for ever (until AI_TIMEOUT_MS).
    let release = () => {};
    hold = new Promise<void>((resolve) => (release = resolve));
    t.teardown(() => release());
    const res = await fetch(`${url}/assistant/stream?q=${encodeURIComponent(QUESTION)}`, { headers: { cookie } });
    t.equal(res.status, 200);
    t.match(res.headers.get('content-type'), 'text/event-stream');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    let beforeRelease = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      if (!beforeRelease && text.includes('event: text')) {
        beforeRelease = text;
        release();
      }
    }
    hold = undefined;
    t.match(beforeRelease, 'Save the filter', 'the first piece arrived while the model held back the rest');
    t.notMatch(beforeRelease, 'event: answer', 'before the answer ended');
    const events = eventsOf(text);
    t.same(events.map((e) => e.event), ['text', 'text', 'answer'], 'two pieces, then the whole answer');
    t.match((events.at(-1)?.data as { text?: string } | undefined)?.text, 'Save the filter, then share it from its menu.');

    // The stream was the first question of ASSISTANT_LIMIT; the rest go to alternating instances,
    // and the one past the limit is refused whichever instance gets it.
    const limitFrom = logLines().length;
    const statuses: number[] = [];
    for (let i = 0; i < ASSISTANT_LIMIT; i++) {
      const asked = await fetch(`${url}/assistant?q=${encodeURIComponent(`${QUESTION} ${i}`)}`, { headers: { cookie } });
      statuses.push(asked.status);
      await asked.arrayBuffer();
      if (asked.status === 429) t.ok(Number(asked.headers.get('retry-after')) > 0, 'with Retry-After');
    }
    t.same(statuses, [...Array(ASSISTANT_LIMIT - 1).fill(200), 429], `${ASSISTANT_LIMIT} questions in all, then refused`);
    const steps = servedBy(limitFrom);
    t.same(new Set(steps.slice(0, -1)), new Set([1, 2]), `the counted questions went to both instances (${steps.join(' ')})`);
  });

  await t.test('content imported once is served by every instance', async (t) => {
    const content = await mkdtemp(join(tmpdir(), 'signpost-cluster-content-'));
    t.teardown(() => rm(content, { recursive: true, force: true }));
    await cp(join(ROOT, 'content'), content, { recursive: true });
    const file = join(content, 'topics/tracklight-cloud/save-and-share-a-filter.md');
    const marker = `Published across the fleet ${Date.now()}`;
    await writeFile(file, (await readFile(file, 'utf8')).replace(/^title: .*$/m, `title: ${marker}`));
    const { DATABASE_URL: _unused, ...env } = process.env;
    await run(['--enable-source-maps', join(ROOT, 'dist/scripts/import.js'), content], { ...env, DATABASE_URL: state().primary.url, LOG_LEVEL: 'warn' });
    // Each instance drops its caches on the import's NOTIFY; a generous deadline, no timing asserted.
    for (const instance of state().instances) {
      const deadline = Date.now() + 30_000;
      let text = '';
      while (Date.now() < deadline && !text.includes(marker)) {
        text = await (await fetch(instance.url + TOPIC)).text();
        if (!text.includes(marker)) await sleep(100);
      }
      t.ok(text.includes(marker), `instance ${instance.index} serves the new title`);
    }
    for (let i = 0; i < 4; i++) t.match(await (await fetch(url + TOPIC)).text(), marker, 'and so does the proxy');
  });

  await t.test('a page names the same scripts, inline script and policy on every instance, and each serves them', async (t) => {
    // Each instance builds its islands at start: a page cached by one, or its preload followed to another,
    // must name files every instance serves, and the inline script's hash must be the one each one's policy allows.
    const heads = [];
    for (const instance of state().instances) {
      const res = await fetch(instance.url + TOPIC);
      const html = await res.text();
      heads.push({
        index: instance.index, csp: res.headers.get('content-security-policy') ?? '',
        inline: [...html.matchAll(/<script>([^<]*)<\/script>/g)].map((m) => m[1] ?? ''),
        scripts: [...html.matchAll(/<script type="module" src="([^"]+)"|<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1] ?? m[2] ?? ''),
      });
    }
    const [first, ...others] = heads;
    t.equal(first?.inline.length, 1, 'one inline script');
    t.ok(first?.scripts.length && first.scripts.length >= 2, `the entry and its preloaded chunk (${first?.scripts.join(' ')})`);
    const hash = createHash('sha256').update(first?.inline[0] ?? '').digest('base64');
    for (const head of heads) t.ok(head.csp.includes(`'sha256-${hash}'`), `instance ${head.index}: its policy allows the inline script by its hash`);
    for (const head of others) t.same([head.inline, head.scripts, head.csp], [first?.inline, first?.scripts, first?.csp], `instance ${head.index} names the same as instance ${first?.index}`);
    for (const instance of state().instances) {
      for (const script of first?.scripts ?? []) {
        const res = await fetch(instance.url + script);
        t.equal(res.status, 200, `instance ${instance.index} serves ${script}`);
        await res.arrayBuffer();
      }
    }
    const from = logLines().length;
    for (let i = 0; i < 4; i++) {
      for (const script of first?.scripts ?? []) {
        const res = await fetch(url + script);
        t.equal(res.status, 200, `${script} through nginx`);
        await res.arrayBuffer();
      }
    }
    t.ok(new Set(servedBy(from)).size > 1, 'the script requests through nginx reached more than one instance');
  });

  await t.test('kill -9 of an instance: GETs through the proxy still succeed, and it comes back', async (t) => {
    const victim = state().instances[0]!;
    process.kill(victim.pid, 'SIGKILL');
    const paths = ['/', TOPIC, '/contact', '/sitemap.xml'];
    const failed: string[] = [];
    let resent = 0;
    for (let i = 0; i < 20; i++) {
      const path = paths[i % paths.length]!;
      // The health checker reloads nginx when the instance goes; its old workers close idle keep-alive
      // connections, and a request already written on one is lost with it. A browser sends such a
      // request again on a new connection (undici does not, and its other pooled ones may be closing too):
      // so does this client, once.
      const status = await fetch(url + path).then((r) => r.status, () => (resent++, getOnNewConnection(url + path).then((r) => r.status, () => 0)));
      if (status !== 200) failed.push(`${path}: ${status}`);
    }
    t.same(failed, [], `every GET answered 200 (${resent} sent again after a keep-alive connection closed)`);
    const deadline = Date.now() + 90_000;
    let back = false;
    while (Date.now() < deadline && !back) {
      const now = state().instances[0]!;
      back = now.pid !== victim.pid && (await fetch(`${now.url}/readyz`).then((r) => r.status === 200, () => false));
      if (!back) await sleep(200);
    }
    t.ok(back, 'the killed instance was started again and is ready');
  });

  await t.test('SIGTERM stops every process it started', async (t) => {
    const last = state();
    cli.kill('SIGTERM');
    t.equal(await cliExit, 0, 'exits 0');
    t.match(output, /SIGTERM: stopping the cluster[\s\S]*stopped/);
    const pids = [last.nginx.pid, ...last.instances.map((i) => i.pid), last.replica?.pid, last.primary.pid].filter((p): p is number => !!p);
    t.same(pids.filter(alive), [], 'nginx, the instances and PostgreSQL are gone');
    const left = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(dir);
      } catch {
        return false;
      }
    });
    t.same(left, [], 'no process runs from the cluster directory');
  });
});
