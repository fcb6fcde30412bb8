/**
 * Flag figures (npm run bench:flags -- [--content DIR] [--renders 1500]): evaluations per second through
 * the OpenFeature SDK and the definitions-file provider, the cost of one evaluation with its context
 * (p50, µs), and the flag evaluation cost per page render (p50, µs) with the page throughput it leaves,
 * as a ratio to a render without it. In-process, on an in-memory database with the content imported.
 *
 * The flags file of the copy puts the featured-video flag on a 50 % rollout, so every render of a topic
 * with a video evaluates it for a visitor id (the visitor, the context, the SDK, flagd's evaluator). The
 * page is asked at fresh addresses (a query string the page ignores), so it is rendered every time; the
 * time spent in its flag calls is measured around each call.
 */
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '../server/config.ts';
import { openDb } from '../server/db/driver.ts';
import { migrate } from '../server/db/migrate.ts';
import app, { serverOptions } from '../server/app.ts';
import { evaluationContext, newAnonymousId } from '../server/flags/context.ts';
import { ANONYMOUS } from '../views/view-model.ts';
import { option } from './bench-http.ts';

const contentDir = resolve(option('--content') ?? 'content');
const RENDERS = Number(option('--renders') ?? 1500);
const EVALUATIONS = 50_000;

const work = await mkdtemp(join(tmpdir(), 'signpost-bench-flags-'));
const copy = join(work, 'content');
await cp(contentDir, copy, { recursive: true });
await writeFile(join(copy, 'flags.json'), JSON.stringify({
  flags: {
    'sac-featured-video': {
      state: 'ENABLED', variants: { on: true, off: false }, defaultVariant: 'off',
      targeting: { fractional: [['on', 50], ['off', 50]] },
    },
  },
}));

const db = await openDb({ pgliteDir: 'memory://' });
await migrate(db);
const config = loadConfig({ CONTENT_DIR: copy, DATA_DIR: join(work, 'data'), LOG_LEVEL: 'silent', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0' });
const server = Fastify({ ...serverOptions, logger: { level: 'silent' } });
try {
  await server.register(app, { config, db });
  // Times each request's flag calls and reports them in a header (this benchmark's own instrument).
  server.addHook('onRequest', async (request, reply) => {
    const flags = request.flags;
    let spent = 0;
    request.flags = {
      ...flags,
      async boolean(name) {
        const t0 = performance.now();
        try {
          return await flags.boolean(name);
        } finally {
          spent += performance.now() - t0;
          reply.header('x-bench-flag-ms', String(spent));
        }
      },
    };
  });
  await server.ready();
  await server.contentReady;

  const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

  // 1. Evaluations through the SDK and flagd's evaluator, each for another targeting key (median of 3 rounds).
  const keys = Array.from({ length: EVALUATIONS }, () => newAnonymousId());
  const rates: number[] = [];
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    for (const key of keys) await server.flags.evaluate('sac-featured-video', { targetingKey: key });
    rates.push(EVALUATIONS / ((performance.now() - started) / 1000));
  }

  // 2. One evaluation with the context a page builds (hashes, role, path), timed one by one.
  const times: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const t0 = performance.now();
    await server.flags.evaluate('sac-featured-video', evaluationContext({ visitor: ANONYMOUS, anonymousId: keys[i], path: '/x', host: 'localhost' }));
    times.push(performance.now() - t0);
  }

  // 3. A topic page with a video, rendered (fresh addresses, a visitor id): the time its flags take
  // (request.flags, timed around each call) against the whole request.
  const topics = await server.content.ofType('topic', { preview: false });
  const withVideo = topics.find((e) => e.path && e.fields.featuredVideo);
  if (!withVideo?.path) throw new Error('the content has no topic with a featured video');
  const cookie = `sp_anon=${keys[0]}`;
  const perPage: number[] = [];
  const shares: number[] = [];
  for (let i = 0; i < RENDERS; i++) {
    const t0 = performance.now();
    const res = await server.inject({ url: `${withVideo.path}?r=${i}`, headers: { cookie } });
    const total = performance.now() - t0;
    if (res.statusCode !== 200) throw new Error(`${withVideo.path}: ${res.statusCode}`);
    const flagMs = Number(res.headers['x-bench-flag-ms'] ?? 0);
    if (i < RENDERS / 10) continue; // warm-up
    perPage.push(flagMs);
    shares.push(flagMs / total);
  }

  console.log(`flag evaluations: ${Math.round(median(rates)).toLocaleString('en')} per second (SDK + flagd evaluator, 50 % rollout, distinct keys)`);
  console.log(`one evaluation with a page's context: p50 ${(median(times) * 1000).toFixed(1)} µs`);
  console.log(`flag evaluation per page render: p50 ${(median(perPage) * 1000).toFixed(1)} µs (${withVideo.path}, ${perPage.length} renders)`);
  console.log(`page throughput with flags / without: ${(1 - median(shares)).toFixed(4)} (flags take ${(median(shares) * 100).toFixed(2)} % of a render, p50)`);
} finally {
  await server.close();
  await db.close().catch(() => undefined);
  await rm(work, { recursive: true, force: true });
}
