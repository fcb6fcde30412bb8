/**
 * Flags on pages: the featured video follows its flag, a definitions change drops rendered pages,
 * anonymous visitors in different rollout buckets never get each other's page from a cache, staff alone
 * see the flags a page was rendered with, and a broken flags file refuses the import while the old one
 * serves. The tree's flags.json is published by importing the tree (test/flags/stored.test.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import t from 'tap';
import type { LightMyRequestResponse } from 'fastify';
import { build } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed, setCookies } from '../identity/helpers.ts';
import { STAFF } from '../support/requests-helpers.ts';
import { ANONYMOUS_ID_COOKIE, newAnonymousId } from '../../server/flags/context.ts';
import { booleanFlag, contentWithVideo, definitions, rollout, VIDEO_TOPIC, until } from './helpers.ts';
import { ContentError, formatProblem } from '../../server/content/problems.ts';
import type { FlagName } from '../../server/flags/catalogue.ts';

const PAGE = VIDEO_TOPIC;
const VIDEO = 'class="featured-video"';

const isPublic = (res: LightMyRequestResponse) => String(res.headers['cache-control']).startsWith('public');
const isPrivate = (res: LightMyRequestResponse) => String(res.headers['cache-control']) === 'private, no-store';

t.test('flags on pages', async (t) => {
  const content = await contentWithVideo(t);
  const flags = join(content, 'flags.json');
  await writeFile(flags, definitions({ 'sac-featured-video': booleanFlag('on') }));
  const app = await build(t, {
    contentDir: content, env: { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example', LOG_LEVEL: 'warn' },
    // What a page of the AI assistant (a later part) will ask: one flag, through request.flags.
    extend: (server) => server.get<{ Params: { name: string } }>('/test-flag/:name', async (request) => {
      const name = request.params.name as FlagName;
      return { value: await request.flags.boolean(name), evaluated: request.flags.evaluated() };
    }),
  });
  const get = (url: string, cookie?: string) => app.inject({ url, headers: cookie ? { cookie } : {} });
  const publish = async (text: string) => {
    await writeFile(flags, text);
    await app.importContentTree(content);
  };

  t.test('a flag the same for everyone keeps the page public and cached; a change of definitions drops it', async (t) => {
    const first = await get(PAGE);
    t.equal(first.statusCode, 200);
    t.match(first.body, VIDEO, 'the video flag is on');
    t.ok(isPublic(first), 'shared-cacheable');
    t.same(setCookies(first), [], 'no cookie for a flag without rules');
    t.equal(first.headers['x-signpost-flags'], undefined, 'no flag header for anonymous visitors');
    t.match((await get(PAGE)).body, VIDEO, 'the kept copy');

    await publish(definitions({ 'sac-featured-video': booleanFlag('off') }));
    await until(async () => !(await get(PAGE)).body.includes(VIDEO), 'the new definitions on the page');
    const after = await get(PAGE);
    t.notMatch(after.body, VIDEO, 'the page kept before the change is not answered after it');
    t.ok(isPublic(after));
  });

  t.test('anonymous visitors in different rollout buckets never get each other\'s page', async (t) => {
    await publish(definitions({ 'sac-featured-video': booleanFlag('off', rollout(50)) }));
    await until(async () => app.flags.shapeOf('sac-featured-video') === 'visitor', 'the rollout');

    const fresh = await get(PAGE);
    const cookie = setCookies(fresh).find((l) => l.startsWith(`${ANONYMOUS_ID_COOKIE}=`));
    t.ok(cookie, 'a visitor without an id gets one, because a rollout needs it');
    t.match(cookie, /HttpOnly/i);
    t.match(cookie, /SameSite=Lax/i);
    t.ok(isPrivate(fresh), 'a page decided by one visitor\'s bucket is theirs alone');

    // Two visitors, one in each bucket.
    const bucket = async (id: string) => (await app.flags.evaluate('sac-featured-video', { targetingKey: id })).value;
    const ids: Record<'on' | 'off', string | undefined> = { on: undefined, off: undefined };
    while (!ids.on || !ids.off) {
      const id = newAnonymousId();
      ids[(await bucket(id)) ? 'on' : 'off'] ??= id;
    }
    const a = `${ANONYMOUS_ID_COOKIE}=${ids.on}`;
    const b = `${ANONYMOUS_ID_COOKIE}=${ids.off}`;
    for (const round of [1, 2]) {
      const ra = await get(PAGE, a);
      const rb = await get(PAGE, b);
      t.match(ra.body, VIDEO, `round ${round}: the visitor in the 'on' bucket sees the video`);
      t.notMatch(rb.body, VIDEO, `round ${round}: the visitor in the 'off' bucket does not`);
      t.ok(isPrivate(ra) && isPrivate(rb), 'neither answer may be kept by a shared cache');
      t.same([...setCookies(ra), ...setCookies(rb)], [], 'their ids are kept, not replaced');
    }
    t.match((await get(PAGE, a)).body, VIDEO, 'sticky');

    const bogus = await get(PAGE, `${ANONYMOUS_ID_COOKIE}=<script>`);
    t.ok(setCookies(bogus).some((l) => /^sp_anon=[A-Za-z0-9_-]{22};/.test(l)), 'an id the site did not make is replaced');

    const search = await get('/search-results/', a);
    t.ok(isPublic(search), 'a page whose flags are the same for everyone stays public for the same visitor');
    t.same(setCookies(search), []);
  });

  t.test('staff see which flags a page was rendered with; nobody else', async (t) => {
    const anonymous = await get(PAGE);
    t.equal(anonymous.headers['x-signpost-flags'], undefined, 'anonymous');
    const customer = await get(PAGE, sealed(app, ADA));
    t.equal(customer.statusCode, 200);
    t.equal(customer.headers['x-signpost-flags'], undefined, 'customer');
    const staff = await get(PAGE, sealed(app, STAFF));
    t.match(String(staff.headers['x-signpost-flags']), /sac-featured-video=(true|false) \((on|off)\); targeting_match/, 'staff');
    t.ok(isPrivate(staff));
  });

  t.test('the AI summary experiment is evaluated with the compliance entitlement and the staff flag', async (t) => {
    await publish(definitions({
      'sac-health-data-compliance-entitlement': booleanFlag('off', { if: [{ '==': [{ var: 'targetingKey' }, ADA.sub] }, 'on', 'off'] }),
      'sac-search-ai-experiment': booleanFlag('off', { if: [{ or: [{ var: 'healthDataCompliance' }, { var: 'vendorAccount' }] }, 'on', 'off'] }),
      'sac-featured-video': booleanFlag('off', rollout(50)),
    }));
    await until(async () => app.flags.shapeOf('sac-search-ai-experiment') === 'context', 'the new definitions');
    const ask = async (cookie?: string) => (await get('/test-flag/sac-search-ai-experiment', cookie)).json() as { value: boolean; evaluated: { name: string }[] };
    const ada = await ask(sealed(app, ADA));
    t.equal(ada.value, true, 'an entitled account');
    t.same(ada.evaluated.map((e) => e.name), ['sac-health-data-compliance-entitlement', 'sac-search-ai-experiment']);
    t.equal((await ask(sealed(app, STAFF))).value, true, 'vendor staff');
    t.equal((await ask(sealed(app, { ...ADA, sub: 'acct-other', email: 'o@customer.example' }))).value, false, 'neither');
    t.equal((await ask()).value, false, 'anonymous');
  });

  t.test('a broken flags file refuses the import with what and where; the old definitions keep serving', async (t) => {
    const broken = definitions({ 'sac-featured-video': booleanFlag('on') }).replace('"state": "ENABLED"', '"state": ENABLED');
    const refused = await publish(broken).then(() => undefined, (error: unknown) => error);
    t.ok(refused instanceof ContentError, 'the import is refused');
    t.match((refused as ContentError).problems.map(formatProblem), [/^flags\.json:4:\d+: .*not valid JSON/], 'the file and line');
    t.equal(app.flags.shapeOf('sac-featured-video'), 'visitor', 'the rollout still decides');
    t.equal((await get(PAGE)).statusCode, 200);
  });
});
