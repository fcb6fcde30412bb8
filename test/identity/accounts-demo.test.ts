import t from 'tap';
import { Writable } from 'node:stream';
import { writeFile, cp } from 'node:fs/promises';
import { join } from 'node:path';
import pino from 'pino';
import { AccountStore } from '../../server/identity/accounts.ts';
import { readDemoAccounts, seedDemoAccounts } from '../../server/identity/demo-accounts.ts';
import { loadContent } from '../../server/content/load.ts';
import { build, SAMPLE_CONTENT, tempContent, testDb } from '../helpers/build.ts';

function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk, _enc, done) { for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l)); done(); } });
  return { log: pino({ level: 'info' }, stream), lines, text: () => lines.map((l) => JSON.stringify(l)).join('\n') };
}

t.test('the sample content has one demo account for each role of spec §6', async (t) => {
  const demo = await readDemoAccounts(SAMPLE_CONTENT);
  t.ok(demo);
  t.same(demo!.map((a) => a.role), ['customer', 'author', 'vendor staff', 'partner']);
  const [customer, author, staff, partner] = demo!;
  t.notOk(customer!.canEdit || customer!.partner, 'the customer has no extra role');
  t.equal(author!.canEdit, true, 'the author can edit');
  t.match(staff!.email, /@fernhollow\.example$/, "staff's address is at the sample vendor's staff domain");
  t.equal(partner!.partner, true, 'the partner carries the partner claim');
  for (const a of demo!) t.ok(a.password.length >= 10, `${a.role}: a password of at least 10 characters`);
});

t.test('seeding adds the missing accounts once and leaves existing ones untouched', async (t) => {
  const accounts = new AccountStore(await testDb(t));
  const first = capture();
  t.same(await seedDemoAccounts(accounts, SAMPLE_CONTENT, first.log), { listed: 4, added: 4 });
  const demo = (await readDemoAccounts(SAMPLE_CONTENT))!;
  const stored = await accounts.list();
  t.equal(stored.length, 4);
  const author = await accounts.byEmail(demo[1]!.email);
  t.equal(author?.canEdit, true);
  t.equal((await accounts.byEmail(demo[3]!.email))?.partner, true);
  t.equal((await accounts.signIn(demo[0]!.email, demo[0]!.password)).ok, true, 'the demo password signs in');

  const warn = first.lines.filter((l) => l.level === 40);
  t.equal(warn.length, 1, 'one warning line');
  t.match(warn[0], { demoAccounts: 4, added: 4, msg: /demo accounts are active/ });
  t.notMatch(first.text(), /@/, 'no e-mail address is logged');
  t.notMatch(first.text(), demo[0]!.password, 'no password is logged');

  // Someone changed the customer's password and disabled the partner: a restart keeps both.
  await accounts.resetPassword(demo[0]!.email, 'changed by its owner');
  await accounts.setDisabled(demo[3]!.email, true);
  const second = capture();
  t.same(await seedDemoAccounts(accounts, SAMPLE_CONTENT, second.log), { listed: 4, added: 0 }, 'nothing added again');
  t.equal((await accounts.list()).length, 4);
  t.equal((await accounts.signIn(demo[0]!.email, 'changed by its owner')).ok, true, 'the changed password stays');
  t.equal((await accounts.byEmail(demo[3]!.email))?.disabled, true, 'the disabled account stays disabled');
});

t.test('a content tree without the file seeds nothing and says nothing', async (t) => {
  const accounts = new AccountStore(await testDb(t));
  const out = capture();
  t.equal(await seedDemoAccounts(accounts, await tempContent(t), out.log), undefined);
  t.same(await accounts.list(), []);
  t.same(out.lines, []);
});

t.test('a broken file is a logged warning naming file and field, and seeds nothing', async (t) => {
  const cases: [string, RegExp][] = [
    ['accounts:\n  - { role: customer, email: a@example.com, name: A, password: short }\n', /demo-accounts\.yaml: accounts\[0\]\.password: .*10/],
    ['accounts:\n  - { role: customer, email: a@example.com, name: A, password: long enough 1, colour: red }\n', /accounts\[0\]\.colour: unknown field/],
    ['accounts:\n  - { role: customer, name: A, password: long enough 1 }\n', /accounts\[0\]\.email: is required/],
    ['accounts: [\n', /demo-accounts\.yaml(:\d+)?: yaml: /],
    ['just text\n', /demo-accounts\.yaml: file: /],
  ];
  for (const [text, problem] of cases) {
    const dir = await tempContent(t);
    await writeFile(join(dir, 'demo-accounts.yaml'), text);
    const accounts = new AccountStore(await testDb(t));
    const out = capture();
    t.equal(await seedDemoAccounts(accounts, dir, out.log), undefined, 'not seeded');
    t.same(await accounts.list(), [], 'no account added');
    const warn = out.lines.filter((l) => l.level === 40);
    t.equal(warn.length, 1);
    t.match(String(warn[0]?.problem), problem, String(warn[0]?.problem));
    t.notMatch(out.text(), 'long enough 1', 'the password is not logged');
  }
  // An address the store refuses skips that account only, naming its place, not the address.
  const dir = await tempContent(t);
  await writeFile(join(dir, 'demo-accounts.yaml'), 'accounts:\n  - { role: customer, email: not-an-address, name: A, password: long enough 1 }\n' +
    '  - { role: author, email: b@example.com, name: B, password: long enough 2, canEdit: true }\n');
  const accounts = new AccountStore(await testDb(t));
  const out = capture();
  t.same(await seedDemoAccounts(accounts, dir, out.log), { listed: 2, added: 1 });
  t.match(out.text(), 'demo-accounts.yaml: accounts[0].email: must be an e-mail address');
  t.notMatch(out.text(), /not-an-address|b@example/);
});

t.test('the site starts with a broken demo file, and its content import stays clean', async (t) => {
  const dir = await tempContent(t);
  await writeFile(join(dir, 'demo-accounts.yaml'), 'accounts: [\n');
  const app = await build(t, { contentDir: dir });
  t.equal((await app.inject('/acme-cloud/docs/first-steps')).statusCode, 200, 'the site serves its pages');
  t.same(await app.accounts.list(), []);

  const sample = await tempContent(t);
  await cp(join(SAMPLE_CONTENT, 'demo-accounts.yaml'), join(sample, 'demo-accounts.yaml'));
  const { problems, entries } = await loadContent(sample);
  t.same(problems, [], 'demo-accounts.yaml is not read as a content entry');
  t.notOk(entries.some((e) => JSON.stringify(e).includes('demo-accounts')));
});

t.test('the app seeds the demo accounts at start when it runs the embedded provider', async (t) => {
  const dir = await tempContent(t);
  await cp(join(SAMPLE_CONTENT, 'demo-accounts.yaml'), join(dir, 'demo-accounts.yaml'));
  const app = await build(t, { contentDir: dir });
  t.equal((await app.accounts.list()).length, 4);
});
