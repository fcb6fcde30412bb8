import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemoryProvider } from '@openfeature/server-sdk';
import { build } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';

const on = { variants: { on: true, off: false }, defaultVariant: 'on', disabled: false };
const provider = () => new InMemoryProvider({ 'csm-ai-agent-on-sac': on, 'sac-search-ai-experiment': on });
const BOB = { ...ADA, sub: 'acct-bob', email: 'bob@customer.example', name: 'Bob' };
const CAROL = { ...ADA, sub: 'acct-carol', email: 'carol@customer.example', name: 'Carol' };
const QUESTION = 'how do I install the widget';

/** Waits for a state, however long a loaded machine takes to reach it. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((r) => setTimeout(r, 5));
}

/**
 * A chat-completions peer that counts the calls it gets and how many are open at once; with `hold`,
 * it answers none until `release()`.
 */
async function modelPeer(t: { teardown: (fn: () => unknown) => void }, hold = false) {
  const peer = { calls: 0, inFlight: 0, maxInFlight: 0, release: () => {} };
  const released = new Promise<void>((r) => (peer.release = r));
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    peer.calls += 1;
    peer.inFlight += 1;
    peer.maxInFlight = Math.max(peer.maxInFlight, peer.inFlight);
    res.on('close', () => (peer.inFlight -= 1));
    for await (const _ of req);
    if (hold) await released;
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Run the installer [1].' } }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { peer.release(); server.closeAllConnections(); server.close(() => resolve()); }));
  return { peer, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` };
}

// Issue 25 item 8: the assistant has per-account and per-network limits, counted in the database.
t.test('questions past ASSISTANT_RATE_LIMIT or ASSISTANT_NETWORK_RATE_LIMIT are refused with 429 and no model call', async (t) => {
  const { peer, url } = await modelPeer(t);
  const app = await build(t, { flagProvider: provider(), env: {
    SESSION_SECRET, AI_BASE_URL: url, AI_MODEL: 'test-model', ASSISTANT_RATE_LIMIT: '3', ASSISTANT_NETWORK_RATE_LIMIT: '5',
  } });
  const ada = { cookie: sealed(app, ADA) };
  const q = encodeURIComponent(QUESTION);

  // Every way in counts against the same limit: the page, the stream, the results' summary.
  t.equal((await app.inject({ url: `/assistant?q=${q}`, headers: ada })).statusCode, 200);
  t.match((await app.inject({ url: `/assistant/stream?q=${q}`, headers: ada })).body, /event: answer\n/);
  t.equal((await app.inject({ url: `/assistant/summary?q=${q}`, headers: ada })).statusCode, 200);
  t.equal(peer.calls, 3, 'three generated answers');
  t.equal((await app.inject({ url: '/assistant', headers: ada })).statusCode, 200, 'the empty form is not a question');

  const page = await app.inject({ url: `/assistant?q=${q}`, headers: ada });
  t.equal(page.statusCode, 429, 'the account\'s fourth question is refused');
  const wait = Number(page.headers['retry-after']);
  t.ok(wait >= 1 && wait <= 3600, `Retry-After: ${wait}`);
  t.equal(page.headers['cache-control'], 'private, no-store');
  t.match(page.body, /<p role="alert">You have asked the assistant many questions in a short while\. Please try again in \d+ minutes?/);
  t.match(page.body, `value="${QUESTION}"`, 'the form keeps the question');
  t.notMatch(page.body, 'assistant-answer-heading', 'and there is no answer');

  const stream = await app.inject({ url: `/assistant/stream?q=${q}`, headers: ada });
  t.equal(stream.statusCode, 429, 'the stream too');
  t.ok(stream.headers['retry-after']);
  t.match(stream.headers['content-type'], 'text/event-stream');
  t.match(stream.body, /^event: failed\ndata: \{"message":"You have asked the assistant many questions[^"]*","retryAfter":\d+\}\n\n$/);
  t.equal((await app.inject({ url: `/assistant/summary/stream?q=${q}`, headers: ada })).statusCode, 429, 'and the summary');
  const ja = await app.inject({ url: `/assistant?lang=ja&q=${q}`, headers: ada });
  t.match(ja.body, /<p role="alert">短時間に多くの質問が送信されました。/, 'in the page\'s language');
  t.equal(peer.calls, 3, 'no model call for a refused question');

  // The network (127.0.0.1's /24) has asked 7 questions by now: another account there is refused too.
  const bob = await app.inject({ url: `/assistant?q=${q}`, headers: { cookie: sealed(app, BOB) } });
  t.equal(bob.statusCode, 429, 'another account on the same network');
  const carol = await app.inject({ url: `/assistant?q=${q}`, headers: { cookie: sealed(app, CAROL) }, remoteAddress: '10.20.30.40' });
  t.equal(carol.statusCode, 200, 'an account on another network is answered');
  t.equal(peer.calls, 4);
  const counted = await app.db.query<{ n: number }>('select count(*)::int as n from rate_limits');
  t.ok((counted[0]?.n ?? 0) >= 4, 'counted in the database, where every instance sees the counts');
});

t.test('model calls at once never pass AI_MAX_CONCURRENT; the questions past it are answered from the passages at once', async (t) => {
  const { peer, url } = await modelPeer(t, true);
  const app = await build(t, { flagProvider: provider(), env: {
    SESSION_SECRET, AI_BASE_URL: url, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '600000', AI_MAX_CONCURRENT: '3',
    ASSISTANT_RATE_LIMIT: '1000', ASSISTANT_NETWORK_RATE_LIMIT: '1000',
    // The 40 retrievals wait for the database as long as a loaded machine takes (test/search/overload.test.ts sheds them).
    SEARCH_QUEUE_TIMEOUT_MS: '600000',
  } });
  const ada = { cookie: sealed(app, ADA) };
  let settled = 0;
  const asked = Array.from({ length: 40 }, (_, i) => {
    const url = i % 2 === 0 ? `/assistant?q=${encodeURIComponent(`${QUESTION} ${i}`)}` : `/assistant/stream?q=${encodeURIComponent(`${QUESTION} ${i}`)}`;
    return app.inject({ url, headers: ada }).finally(() => { settled += 1; });
  });
  // Three questions hold the model; the other 37 are answered without waiting for it (or, unbounded,
  // a fourth call reaches the model).
  await until(() => (settled === 37 && peer.inFlight === 3) || peer.inFlight > 3);
  t.equal(peer.inFlight, 3, 'three model calls at once');
  t.equal(settled, 37, 'the other questions are answered without waiting');
  peer.release();
  const answers = await Promise.all(asked);
  t.equal(peer.maxInFlight, 3, 'never more than AI_MAX_CONCURRENT at the model');
  t.equal(peer.calls, 3);
  t.ok(answers.every((a) => a.statusCode === 200), 'every question is answered');
  const busy = answers.filter((a) => a.body.includes('The AI assistant is answering many questions right now'));
  t.equal(busy.length, 37, 'the others from the passages, saying why');
  t.ok(busy.every((a) => a.body.includes('/acme-cloud/docs/first-steps#install-the-widget')), 'with their citations');
  t.equal(answers.filter((a) => a.body.includes('Run the installer [1].')).length, 3, 'the three generated answers');

  // The places are given back: the next question is generated again.
  const next = await app.inject({ url: `/assistant?q=${encodeURIComponent(QUESTION)}`, headers: ada });
  t.match(next.body, 'Run the installer [1].');
  t.equal(peer.calls, 4);
});
