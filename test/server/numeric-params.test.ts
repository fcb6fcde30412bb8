/**
 * Numbers a visitor writes and the log lines they cause (issue 25 item 5): `?page=Infinity` and
 * `?page=1e309` are a 400 naming the parameter, not a 500 from the database; a database error's log
 * line carries no statement values (PGlite attaches them to its errors) and no address; stack frames
 * through scoped packages stay readable.
 */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { build } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import { STAFF, sendRequest } from '../support/requests-helpers.ts';

t.test('numeric parameters and what their errors log', async (t) => {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const app = await build(t, { logStream: stream, env: { LOG_LEVEL: 'debug', SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example' } });
  await sendRequest(app, ADA);
  const ada = sealed(app, ADA);
  const staff = sealed(app, STAFF);

  t.test('a page number that is not a finite integer is a 400 naming it, signed in or staff', async (t) => {
    const cases: [string, string][] = [
      ['/requests?page=Infinity', ada], ['/requests/?page=-Infinity', ada], ['/requests?page=1e309', ada],
      ['/staff/requests?page=1e309', staff], ['/staff/requests?page=Infinity', staff],
    ];
    for (const [url, cookie] of cases) {
      const res = await app.inject({ url, headers: { cookie } });
      t.equal(res.statusCode, 400, url);
      t.match(res.body, 'querystring/page must be a finite number', `${url}: the answer names the parameter`);
    }
    const list = await app.inject({ url: '/requests', headers: { cookie: ada } });
    t.ok(list.statusCode < 400, `the list without a page answers ${list.statusCode}`);
    t.equal((await app.inject({ url: '/requests?page=1', headers: { cookie: ada } })).statusCode, list.statusCode, 'a page number still works');
    t.equal((await app.inject({ url: '/requests?page=1e0', headers: { cookie: ada } })).statusCode, list.statusCode, 'as does one in exponent form');
  });

  t.test('a database error is logged without the statement\'s values or an address', async (t) => {
    const before = lines.length;
    const error = await app.db.query('select $1::bigint as n', [ADA.email]).then(() => undefined, (e: unknown) => e);
    t.ok(error instanceof Error, 'the database refuses the value');
    app.log.error({ err: error }, 'probe: a database error');
    const line = lines.slice(before).find((l) => l.includes('probe: a database error')) ?? '';
    t.match(line, 'invalid input syntax for type bigint', 'the error is logged');
    t.notMatch(line, ADA.email, 'without the address');
    t.notMatch(line, /"(params|parameters|queryParams)"/, 'and without the statement\'s parameters');
  });

  t.test('stack frames stay readable; addresses in them are masked', async (t) => {
    const before = lines.length;
    const error = new Error(`no account for ${ADA.email}`);
    error.stack = [
      `Error: no account for ${ADA.email}`,
      '    at Parser.onFile (file:///app/node_modules/@fastify/multipart/index.js:12:34)',
      '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)',
      '    at run (/srv/.pnpm/fastify@5.12.8/node_modules/fastify/lib/hooks.js:1:2)',
      '    at load (/home/ada.lovelace@customer.example/app/server.ts:3:4)',
    ].join('\n');
    app.log.error({ err: error }, 'probe: a stack');
    const line = lines.slice(before).find((l) => l.includes('probe: a stack')) ?? '';
    const stack = String((JSON.parse(line) as { err?: { stack?: string } }).err?.stack);
    t.match(stack, '(file:///app/node_modules/@fastify/multipart/index.js:12:34)', 'a frame through a scoped package is kept');
    t.match(stack, '(node:internal/process/task_queues:95:5)', 'a frame of Node\'s own is kept');
    t.match(stack, 'fastify@5.12.8/node_modules', 'a versioned package folder is kept');
    t.match(stack, '/home/[email]/app/server.ts:3:4', 'an address in a folder name is masked, the frame kept');
    t.notMatch(line, /customer\.example/, 'no address anywhere in the line');
  });

  t.test('no log line of the whole run carries an address or a statement\'s parameters', async (t) => {
    const log = lines.join('\n');
    t.ok(lines.length > 0);
    t.notMatch(log, /customer\.example|fernhollow\.example/, 'no address');
    t.notMatch(log, /"(params|parameters|queryParams)"/, 'no parameters');
  });
});
