import t from 'tap';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { importContent } from '../../server/content/import.ts';
import { answer } from '../../server/assistant/answer.ts';
import { retrieve } from '../../server/assistant/retrieve.ts';
import { measureQuality, readQuestions } from '../../server/assistant/quality.ts';
import { build, SAMPLE_CONTENT, tempContent, testDb } from '../helpers/build.ts';

const QUESTIONS = join(import.meta.dirname, '../fixtures/assistant-questions.yaml');

t.test('passages are the sections of each body and follow an incremental import', async (t) => {
  const db = await testDb(t);
  const dir = await tempContent(t);
  await importContent(db, dir);
  const rows = await db.query<{ heading: string | null; anchor: string | null; body: string }>(
    `select heading, anchor, body from assistant_passages where entry_id = 'acme-cloud-first-steps' order by position`);
  t.same(rows.map((r) => [r.heading, r.anchor]), [[null, null], ['Install the widget', 'install-the-widget'], ['Configure the widget', 'configure-the-widget']]);
  t.match(rows[1]?.body, /Run the installer/);
  const found = await retrieve(db, 'how do I install the widget');
  t.equal(found[0]?.url, '/acme-cloud/docs/first-steps#install-the-widget');

  const file = join(dir, 'topics/acme-cloud/first-steps.md');
  await writeFile(file, (await readFile(file, 'utf8')).replace('Run the installer.', 'Run the installer.\n\n## Calibrate the sprocket\n\nTurn the sprocket dial twice.'));
  const result = await importContent(db, dir);
  t.equal(result.written.full, false, 'the second import writes only what changed');
  const sprocket = await retrieve(db, 'calibrate sprocket');
  t.equal(sprocket[0]?.url, '/acme-cloud/docs/first-steps#calibrate-the-sprocket');
  t.match(sprocket[0]?.text, /dial twice/);
});

t.test('over the sample content', async (t) => {
  const db = await testDb(t);
  await importContent(db, SAMPLE_CONTENT);

  t.test('the extractive answer cites a right page in its top 3 for at least 80 % of the questions', async (t) => {
    const questions = await readQuestions(QUESTIONS);
    t.ok(questions.length >= 30, `${questions.length} questions`);
    const { share, misses } = await measureQuality(db, questions);
    t.ok(share >= 0.8, `right page cited for ${(share * 100).toFixed(0)} % (missed: ${JSON.stringify(misses)})`);
  });

  t.test('an extractive answer quotes passages with their page links', async (t) => {
    const a = await answer(db, 'How do I create an on-call schedule with rotations?');
    t.equal(a.mode, 'extractive');
    t.ok(a.citations.length >= 1 && a.citations.length <= 3);
    for (const c of a.citations) {
      t.match(c.url, /^\/[^#]+(#[\w-]+)?$/);
      t.ok(c.quote.length > 0 && c.quote.length <= 361, 'a short quote');
    }
    t.equal(new Set(a.citations.map((c) => c.url.split('#')[0])).size, a.citations.length, 'one passage per page');
  });

  t.test('nothing relevant: says so and offers the contact form with the question', async (t) => {
    const a = await answer(db, 'banana bread recipe with walnuts');
    t.equal(a.mode, 'nothing');
    t.same(a.citations, []);
    t.equal(a.contactHref, '/contact?subject=banana+bread+recipe+with+walnuts');
    t.equal(a.searchHref, '/search-results/?searchTerm=banana+bread+recipe+with+walnuts');
  });

  t.test('the contact form offered takes the question as its subject', async (t) => {
    // The same database: the content is already imported, so the app starts at once.
    const app = await build(t, { db, contentDir: SAMPLE_CONTENT });
    const res = await app.inject('/contact?subject=banana+bread+recipe');
    t.equal(res.statusCode, 200);
    t.match(res.body, /<input[^>]*name="subject"[^>]*value="banana bread recipe"|<input[^>]*value="banana bread recipe"[^>]*name="subject"/);
  });

  t.test('questions reach the log with e-mail-like text masked', async (t) => {
    const lines: string[] = [];
    const log = pino({ level: 'info' }, new Writable({ write(chunk, _e, done) { lines.push(String(chunk)); done(); } }));
    await answer(db, 'jo.bloggs@example.com cannot create an on-call schedule', { log });
    t.equal(lines.length, 1);
    t.notMatch(lines.join(''), /bloggs|example\.com/);
    t.match(lines.join(''), /\[email\] cannot create an on-call schedule/);
  });

  t.test('with a model: generated from the passages only, streamed, with citations', async (t) => {
    const seen: { body: { model: string; stream: boolean; messages: { role: string; content: string }[] }; auth?: string }[] = [];
    let behaviour: 'stream' | 'json' | 'slow' | 'fail' | 'broken' = 'stream';
    const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      for await (const c of req) raw += c;
      seen.push({ body: JSON.parse(raw), auth: req.headers.authorization });
      if (behaviour === 'fail') return res.writeHead(503, { 'content-type': 'application/json' }).end('{"error":{"message":"overloaded"}}');
      if (behaviour === 'json') {
        return res.writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'Create a schedule, then add rotations [1].' } }] }));
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (behaviour === 'slow') {
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: 'Create' } }] })}\n\n`);
        return; // never finishes
      }
      if (behaviour === 'broken') return res.end('data: {not json\n\n');
      for (const piece of ['Create a schedule', ', then add ', 'rotations [1].']) {
        res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: piece } }] })}\n\n`);
      }
      res.end('data: [DONE]\n\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
    const model = { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, model: 'test-model', apiKey: 'k-123', timeoutMs: 60_000 };
    const question = 'How do I create an on-call schedule with rotations?';

    const pieces: string[] = [];
    const streamed = await answer(db, question, { model, onText: (p) => pieces.push(p) });
    t.equal(streamed.mode, 'generated');
    t.equal(streamed.text, 'Create a schedule, then add rotations [1].');
    t.same(pieces, ['Create a schedule', ', then add ', 'rotations [1].']);
    t.ok(streamed.citations.length >= 1, 'cites its passages');
    const request = seen[0];
    t.equal(request?.body.model, 'test-model');
    t.equal(request?.body.stream, true);
    t.equal(request?.auth, 'Bearer k-123');
    t.match(request?.body.messages[1]?.content, /\[1\] Create an on-call schedule with rotations/);
    t.match(request?.body.messages[0]?.content, /only the numbered passages/);

    behaviour = 'json';
    t.equal((await answer(db, question, { model })).text, 'Create a schedule, then add rotations [1].', 'a non-streamed answer');

    for (const [b, notice] of [['fail', 'failed'], ['slow', 'slow'], ['broken', 'failed']] as const) {
      behaviour = b;
      let fellBack = false;
      // The model that never finishes is cut off by the time limit; the others answer at once, so a
      // loaded machine's delays only ever meet the long limit.
      const limited = b === 'slow' ? { ...model, timeoutMs: 300 } : model;
      const a = await answer(db, question, { model: limited, onFallback: () => { fellBack = true; } });
      t.equal(a.mode, 'extractive', `${b}: the extractive answer stands in`);
      t.equal(a.notice, notice);
      t.ok(fellBack);
      t.ok(a.citations.length >= 1);
    }

    const count = seen.length;
    const nothing = await answer(db, 'banana bread recipe with walnuts', { model });
    t.equal(nothing.mode, 'nothing');
    t.equal(seen.length, count, 'nothing relevant: the model is not asked');

    const closed = await answer(db, question, { model: { ...model, baseUrl: 'http://127.0.0.1:1/v1' } });
    t.equal(closed.notice, 'unavailable');
  });
});
