/**
 * Pages not found: each miss is logged by its path alone and counted per path and day (from the page
 * cache too), bounded; staff insights list the most-requested missing paths with a suggested target.
 */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { build, tempContent, testDb } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from '../identity/helpers.ts';
import type { SessionUser } from '../../server/identity/types.ts';
import { MAX_MISS_PATH, MAX_PENDING, MAX_ROWS_PER_DAY, MissCounter, missPath } from '../../server/events/misses.ts';
import { pathWords } from '../../server/insights/tables.ts';

const STAFF: SessionUser = { ...ADA, sub: 'acct-sam', email: 'sam@fernhollow.example', name: 'Sam Staff' };
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0';

/** A table's rows as cell texts, without its last column (the change since the previous range). */
const tableRows = (html: string, id: string): string[][] => {
  const section = new RegExp(`<section[^>]* id="${id}">([\\s\\S]*?)</section>`).exec(html)?.[1] ?? '';
  const body = /<div class="table-scroll"[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(section)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...(m[1] ?? '').matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) => (c[1] ?? '').replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&amp;/g, '&')).slice(0, -1));
};

t.test('missed pages are logged, counted and listed for staff', async (t) => {
  const dir = await tempContent(t);
  const lines: Record<string, unknown>[] = [];
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
  });
  const app = await build(t, { contentDir: dir, logStream, env: { LOG_LEVEL: 'info', SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example' } });
  const visit = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers: { 'user-agent': BROWSER, ...headers } });

  for (let i = 0; i < 3; i++) t.equal((await visit('/first-steps.html?email=ann%40example.com&token=secret')).statusCode, 404);
  t.equal(app.pageCopies.missing.size > 0, true, 'the not-found page is kept: later misses are answered from the copy');
  await visit('/old/billing-faq/');
  await visit('/old/billing-faq', { dnt: '1' });
  await visit('/old/billing-faq', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
  await visit('/acme-cloud/docs/first-steps');
  await visit(`/${'x'.repeat(400)}`);
  await app.misses.flush();

  const misses = lines.filter((l) => l.msg === 'page not found');
  t.equal(misses.length, 7, 'every miss is logged, counted or not');
  t.same(misses[0]?.miss, { path: '/first-steps.html' }, 'the path alone: no query values');
  t.notMatch(JSON.stringify(misses), /ann%40example|ann@example|secret/, 'nothing of the query in the log');

  const rows = await app.db.query<{ path: string; count: string }>('select path, count::text from page_misses order by path');
  t.same(rows, [
    { path: '/first-steps.html', count: '3' },
    { path: '/old/billing-faq', count: '1' },
    { path: `/${'x'.repeat(MAX_MISS_PATH - 1)}`, count: '1' },
  ], 'per path and day; cached misses counted; Do-Not-Track and bots not counted; a long path cut');

  // A redirect added since is the suggestion for its path.
  await writeFile(join(dir, 'redirects.yaml'), '- { from: /old/billing-faq, to: /acme-cloud/docs/basics }\n');
  t.ok((await app.importContentTree(dir)).imported);
  t.equal((await visit('/old/billing-faq')).statusCode, 301, 'a redirected path is no longer a miss');
  await app.misses.flush();

  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const range = `from=${from}&to=${today}`;
  const cookie = sealed(app, STAFF);
  t.equal((await visit(`/insights/pages?${range}`)).statusCode, 404, 'staff only');
  const page = await visit(`/insights/pages?${range}`, { cookie });
  t.equal(page.statusCode, 200);
  t.match(page.body, /<h2[^>]*>Missing pages<\/h2>/);
  t.match(page.body, /<th scope="col"[^>]*>Suggested target<\/th>/, 'an accessible table, headed like the others');
  const shown = tableRows(page.body, 'missing');
  t.same(shown, [
    ['/first-steps.html', '3', 'First steps (/acme-cloud/docs/first-steps)', 'search for "first steps"'],
    ['/old/billing-faq', '1', '/acme-cloud/docs/basics', 'redirect'],
    [`/${'x'.repeat(MAX_MISS_PATH - 1)}`, '1', 'none found', ''],
  ]);
  t.match(page.body, '<a href="/acme-cloud/docs/first-steps">First steps (/acme-cloud/docs/first-steps)</a>', 'the target is linked');
  const csv = await visit(`/insights/pages/missing.csv?${range}`, { cookie });
  t.equal(csv.statusCode, 200);
  const csvLines = csv.body.trimEnd().split('\r\n');
  t.match(csvLines[0], /,Change from \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}$/, 'the change since the previous range, last');
  t.same(csvLines.map((line) => line.replace(/,[^,]*$/, '')), [
    'Path,Requests,Suggested target,Suggested by',
    '/first-steps.html,3,First steps (/acme-cloud/docs/first-steps),"search for ""first steps"""',
    '/old/billing-faq,1,/acme-cloud/docs/basics,redirect',
    `/${'x'.repeat(MAX_MISS_PATH - 1)},1,none found,`,
  ], 'the CSV is the table');
});

t.test('the counts are bounded: paths held between writes, and paths a day', async (t) => {
  const db = await testDb(t);
  const log = { error: () => undefined } as unknown as FastifyBaseLogger;
  const now = Date.parse('2026-03-01T10:00:00Z');
  const counter = new MissCounter(() => db, log, () => now, 400);
  for (let i = 0; i <= MAX_PENDING; i++) counter.count(`/p${i}`);
  t.equal(counter.dropped, 1, 'a new path past the buffer is dropped and counted');
  counter.count('/p1');
  t.equal(counter.dropped, 1, 'a path already held still counts');
  await counter.flush();
  t.equal(Number((await db.query<{ n: string }>(`select count(*) as n from page_misses`))[0]?.n), MAX_PENDING);

  await db.query(`insert into page_misses (day, path, count) select '2026-03-01', '/fill' || g, 1 from generate_series(1, $1::int) g`, [MAX_ROWS_PER_DAY - MAX_PENDING]);
  counter.count('/one-too-many');
  counter.count('/p1');
  await counter.flush();
  t.equal(counter.dropped, 2, "a new path past the day's rows is dropped");
  t.same(await db.query(`select count::int from page_misses where path in ('/p1', '/one-too-many')`), [{ count: 3 }], 'known paths keep counting');

  await db.query(`insert into page_misses (day, path, count) values ('2024-01-01', '/ancient', 5)`);
  const later = new MissCounter(() => db, log, () => Date.parse('2026-03-02T10:00:00Z'), 400);
  later.count('/p1');
  await later.flush();
  t.same(await db.query(`select path from page_misses where day < '2026-01-01'`), [], 'days past the retention are deleted');
});

t.test('what a miss is stored and searched as', async (t) => {
  t.equal(missPath('/a%20b/?x=1#y'), '/a b');
  t.equal(missPath('/bad%zz'), '/bad%zz');
  t.equal(missPath('/mail/ann@example.com'), '[email]', 'e-mail-like text masked');
  t.equal(missPath('/a\u0000b'), '/ab');
  t.equal(pathWords('/en/docs/Getting-Started_2/index.html'), 'getting started');
  t.equal(pathWords('/2023/10/'), '');
});
