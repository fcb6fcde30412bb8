/**
 * Support form figures (npm run bench:forms -- [--seconds 10] [--clients 10] [--content DIR] [--path /contact]
 * [--no-delivery]).
 *
 * The production server runs in its own process on a fresh database (file-backed PGlite, or a new
 * database on DATABASE_URL), delivering to a local webhook receiver in this process. Clients submit the
 * contact form for the given time the way a browser without JavaScript does: GET /contact, read the
 * support form (its action, enctype and hidden inputs), fill the visible fields by type, POST it, and
 * expect a 303 to the confirmation page naming the reference. Printed: sustained submissions a second,
 * p50/p95 of the POST, the answers by status, the CPU time per submission of the server and of this
 * process; then, with the server stopped, the requests stored against the 303s received (none lost, none
 * duplicated); and how long the outbox took to drain to the receiver after the load stopped, with every
 * request arriving once.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { openDb, pgliteDirFor, type Db } from '../server/db/driver.ts';
import { freshDb } from './bench-db.ts';
import { freePort, option, waitFor } from './bench-http.ts';

const SECONDS = Number(option('--seconds') ?? 10);
const CLIENTS = Number(option('--clients') ?? 10);
const contentDir = resolve(option('--content') ?? 'content');
const FORM_PATH = option('--path') ?? '/contact';
/** Without a webhook configured: the cost of the forms alone, no outbox rows nor worker. */
const DELIVERY = !process.argv.includes('--no-delivery');
const DRAIN_DEADLINE_MS = 120_000;
const SECRET = 'bench-forms-webhook-secret-0123456789';

const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))] ?? 0;
const ms = (n: number) => `${n.toFixed(1)} ms`;

// The helpdesk's receiver: counts each reference it is sent, by Idempotency-Key.
const arrivals = new Map<string, number>();
let lastArrival = 0;
const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const key = String(req.headers['idempotency-key'] ?? '');
    arrivals.set(key, (arrivals.get(key) ?? 0) + 1);
    lastArrival = performance.now();
    res.writeHead(200).end();
  });
});
await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/support`;

// --- The form contract: a <form data-support-form> with its action, hidden inputs and fields. ---

interface Field {
  tag: 'input' | 'textarea' | 'select';
  name: string;
  type: string;
  required: boolean;
  value: string;
  minLength: number;
  maxLength: number;
  options: string[];
}
interface Form {
  action: string;
  multipart: boolean;
  fields: Field[];
}

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
function attrs(tag: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const m of tag.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
    found.set(m[1]!.toLowerCase(), decode(m[2] ?? m[3] ?? m[4] ?? ''));
  }
  return found;
}

function parseForm(html: string, pageUrl: string): Form | undefined {
  const open = /<form\b[^>]*\bdata-support-form\b[^>]*>/i.exec(html);
  if (!open) return undefined;
  const end = html.indexOf('</form>', open.index);
  const body = html.slice(open.index + open[0].length, end < 0 ? undefined : end);
  const formAttrs = attrs(open[0].slice(5));
  const fields: Field[] = [];
  for (const m of body.matchAll(/<(input|textarea|select)\b([^>]*)>/gi)) {
    const tag = m[1]!.toLowerCase() as Field['tag'];
    const a = attrs(m[2] ?? '');
    const name = a.get('name');
    if (!name || a.has('disabled')) continue;
    let value = a.get('value') ?? '';
    const options: string[] = [];
    if (tag === 'select') {
      const after = body.slice((m.index ?? 0) + m[0].length);
      for (const o of after.slice(0, Math.max(0, after.search(/<\/select>/i))).matchAll(/<option\b([^>]*)>([^<]*)/gi)) {
        const oa = attrs(o[1] ?? '');
        if (!oa.has('disabled')) options.push(oa.get('value') ?? decode(o[2] ?? '').trim());
      }
    } else if (tag === 'textarea') {
      value = decode(/^[^]*?(?=<\/textarea>)/i.exec(body.slice((m.index ?? 0) + m[0].length))?.[0] ?? '');
    }
    fields.push({
      tag, name, value, options, required: a.has('required'),
      type: tag === 'input' ? (a.get('type') ?? 'text').toLowerCase() : tag,
      minLength: Number(a.get('minlength') ?? 0), maxLength: Number(a.get('maxlength') ?? 10_000),
    });
  }
  return {
    action: new URL(formAttrs.get('action') || pageUrl, pageUrl).toString(),
    multipart: (formAttrs.get('enctype') ?? '').toLowerCase() === 'multipart/form-data',
    fields,
  };
}

/** What a visitor types: hidden inputs as given, the honeypot left empty, visible fields by type. */
function fill(form: Form, n: string): [string, string][] {
  const values: [string, string][] = [];
  const text = (f: Field, words: string) => {
    let s = words;
    while (s.length < f.minLength) s += ` ${words}`;
    return s.slice(0, f.maxLength);
  };
  for (const f of form.fields) {
    if (f.type === 'hidden' || f.type === 'submit' || f.type === 'button' || f.type === 'file') {
      if (f.type === 'hidden') values.push([f.name, f.value]);
      continue;
    }
    if (f.name === 'website') {
      values.push([f.name, '']); // the honeypot: people never see it
      continue;
    }
    if (f.type === 'checkbox' || f.type === 'radio') {
      if (f.required || f.type === 'radio') values.push([f.name, f.value || 'on']);
      continue;
    }
    if (f.tag === 'select') {
      // A required choice takes the first real option; an optional one (a version that depends on the
      // product chosen) is left as it is.
      values.push([f.name, f.required ? f.options.find((o) => o !== '') ?? '' : f.value]);
      continue;
    }
    if (f.type === 'email') values.push([f.name, `bench-${n}@example.test`]);
    else if (f.tag === 'textarea') values.push([f.name, text(f, `Load test request ${n}: what was done, what was expected, what happened.`)]);
    else values.push([f.name, text(f, `Bench request ${n}`)]);
  }
  return values;
}

/** A client's cookies: kept from each answer, sent with the next request. */
class Jar {
  private readonly cookies = new Map<string, string>();

  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(';')[0] ?? '';
      const at = pair.indexOf('=');
      if (at > 0) this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

// --- The server ---

const bench = await freshDb();
if (bench.db.engine === 'pglite') await bench.db.close(); // the server process opens the same files
let server: ChildProcess | undefined;
let counted: Db | undefined;
try {
  execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'ignore' });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      ...process.env, ...bench.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', CONTENT_DIR: contentDir,
      PUBLIC_URL: base, LOG_LEVEL: 'warn', ACCESS_LOG: 'off',
      // The load is one network and no account: the per-client limits would refuse it after a few posts.
      REQUEST_RATE_LIMIT: '100000000', RATE_LIMIT_MAX: '100000000',
      ...(DELIVERY ? { SUPPORT_WEBHOOK_URL: hookUrl, SUPPORT_WEBHOOK_SECRET: SECRET, DELIVERY_BACKOFF_MS: '1000', DELIVERY_POLL_MS: '1000' } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`${base}${FORM_PATH}`);
  const probe = await fetch(`${base}${FORM_PATH}`);
  if (!parseForm(await probe.text(), `${base}${FORM_PATH}`)) throw new Error(`no <form data-support-form> at ${FORM_PATH}`);

  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const acknowledged: string[] = [];
  const problems: string[] = [];
  let submitted = 0;
  const serverCpuBefore = cpuMs(server.pid!);
  const benchCpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + SECONDS * 1000;
  const client = async (c: number) => {
    const jar = new Jar();
    for (let i = 0; performance.now() < until; i++) {
      const n = `${c}-${i}`;
      const page = await fetch(`${base}${FORM_PATH}`, { headers: { cookie: jar.header() } });
      jar.keep(page);
      const form = parseForm(await page.text(), page.url);
      if (!form) {
        problems.push(`GET ${FORM_PATH} answered ${page.status} without the form`);
        continue;
      }
      const values = fill(form, n);
      let body: FormData | URLSearchParams;
      if (form.multipart) {
        body = new FormData();
        for (const [k, v] of values) body.append(k, v);
      } else {
        body = new URLSearchParams(values);
      }
      const t0 = performance.now();
      const res = await fetch(form.action, { method: 'POST', body, redirect: 'manual', headers: { cookie: jar.header(), origin: base } });
      jar.keep(res);
      const text = await res.text();
      latencies.push(performance.now() - t0);
      submitted++;
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 303) {
        const reference = /[A-Z][A-Z0-9]*-\d+/.exec(decodeURIComponent(res.headers.get('location') ?? ''))?.[0];
        if (reference) acknowledged.push(reference);
        else problems.push(`303 without a reference: ${res.headers.get('location')}`);
      } else if (problems.length < 5) {
        const invalid = [...text.matchAll(/<(?:input|select|textarea)\b[^>]*aria-invalid="true"[^>]*>/gi)].map((m) => attrs(m[0]).get('name'));
        problems.push(`POST answered ${res.status}${invalid.length ? `; fields marked invalid: ${invalid.join(', ')}` : ''}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  const elapsedS = (performance.now() - started) / 1000;
  const loadEnded = performance.now();

  // The outbox drains to the receiver: every acknowledged request arrives.
  const wanted = new Set(acknowledged);
  while (DELIVERY && [...wanted].some((r) => !arrivals.has(r)) && performance.now() - loadEnded < DRAIN_DEADLINE_MS) {
    await new Promise((r) => setTimeout(r, 20));
  }
  const drainMs = Math.max(0, lastArrival - loadEnded);
  const serverCpu = cpuMs(server.pid!) - serverCpuBefore;
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const missing = [...wanted].filter((r) => !arrivals.has(r)).length;

  // Stop the server, then count what is stored.
  server.kill('SIGTERM');
  await new Promise((r) => server!.once('exit', r));
  counted = bench.db.engine === 'postgres' ? bench.db : await openDb({ pgliteDir: pgliteDirFor(bench.env.DATA_DIR!) });
  const rows = await counted.query<{ reference: string; n: number }>(`select reference, 1 as n from support_requests`);
  const stored = new Set(rows.map((r) => r.reference));
  const [subs] = await counted.query<{ dup: number }>(
    `select count(*)::int as dup from (select fingerprint from support_requests group by fingerprint having count(*) > 1) d`,
  );
  const [deliveries] = await counted.query<{ delivered: number; other: number }>(
    `select count(*) filter (where state = 'delivered')::int as delivered, count(*) filter (where state <> 'delivered')::int as other from support_deliveries`,
  );
  const lost = acknowledged.filter((r) => !stored.has(r)).length;
  const duplicatedAcks = acknowledged.length - wanted.size;
  const twice = [...arrivals.values()].filter((n) => n > 1).length;

  const fmt = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
  console.log(`bench:forms on ${bench.db.engine === 'postgres' ? 'PostgreSQL' : 'PGlite'}: ${CLIENTS} clients, ${SECONDS} s, ${FORM_PATH} (GET the form, POST it)`);
  console.log(`  submissions     ${(submitted / elapsedS).toFixed(1)}/s sustained (${submitted} in ${elapsedS.toFixed(1)} s); answers ${fmt}`);
  console.log(`  POST latency    p50 ${ms(pct(latencies, 0.5))}, p95 ${ms(pct(latencies, 0.95))}, p99 ${ms(pct(latencies, 0.99))}`);
  console.log(`  CPU             server ${(serverCpu / Math.max(1, submitted)).toFixed(1)} ms per submission (load and delivery), clients and receiver ${((benchCpu.user + benchCpu.system) / 1000 / Math.max(1, submitted)).toFixed(1)} ms`);
  console.log(`  stored          ${stored.size} rows for ${acknowledged.length} 303s: lost ${lost}, references acknowledged twice ${duplicatedAcks}, same contents stored twice ${subs?.dup ?? 0}, rows never acknowledged ${stored.size - wanted.size}`);
  if (DELIVERY) console.log(`  webhook         ${arrivals.size} requests received, ${twice} more than once, ${missing} missing; outbox drained ${Math.round(drainMs)} ms after the load stopped; outbox rows delivered ${deliveries?.delivered}, other ${deliveries?.other}`);
  for (const p of problems.slice(0, 5)) console.log(`  ! ${p}`);
  if (lost || duplicatedAcks || (DELIVERY && missing) || twice) process.exitCode = 1;
} finally {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  if (counted && counted !== bench.db) await counted.close();
  await bench.done();
  receiver.close();
}
