import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, tempContent } from '../helpers/build.ts';
import { isStaffEmail, visitorFor } from '../../server/identity/roles.ts';
import { editorLink } from '../../server/pages/chrome.ts';
import { ADA, SESSION_SECRET, sealed } from './helpers.ts';

const KB = '/acme/kb/widget-crash';
const TOPIC = '/acme-cloud/docs/first-steps';

t.test('staff: the staff domain or a subdomain of it, never a look-alike', async (t) => {
  const domain = 'fernhollow.example';
  const staff = ['grace@fernhollow.example', 'GRACE@FernHollow.Example', 'ops@eu.fernhollow.example', 'a@deep.sub.fernhollow.example', 'b@fernhollow.example.'];
  for (const email of staff) t.ok(isStaffEmail(email, true, domain), email);
  const not = [
    'eve@notfernhollow.example', 'eve@fernhollow.example.evil', 'eve@fernhollow-example.com', 'eve@fernhollowexample',
    'eve@evil.example', 'fernhollow.example@evil.example', 'eve@xfernhollow.example', 'eve@fernhollow.examples', 'eve@',
    '@fernhollow.example', 'eve', 'eve@fernhollow.example@evil.example',
  ];
  for (const email of not) t.notOk(isStaffEmail(email, true, domain), email);
  t.notOk(isStaffEmail('grace@fernhollow.example', false, domain), 'an unverified address is never staff');
  t.notOk(isStaffEmail('grace@fernhollow.example', true, undefined), 'no staff domain, nobody is staff');
  t.ok(isStaffEmail('grace@fernhollow.example', true, 'FERNHOLLOW.EXAMPLE'));
});

t.test('signed in needs an account id and an e-mail; partner by host or claim', async (t) => {
  const settings = { staffDomain: 'fernhollow.example', partnerHosts: ['partners.help.example'] };
  const host = (hostname: string) => ({ hostname });
  t.same(visitorFor(undefined, host('help.example'), settings), { signedIn: false, canEdit: false, staff: false, partner: false });
  t.equal(visitorFor({ ...ADA, email: '' }, host('help.example'), settings).signedIn, false);
  t.equal(visitorFor({ ...ADA, sub: '' }, host('help.example'), settings).signedIn, false);
  const ada = visitorFor(ADA, host('help.example'), settings);
  t.match(ada, { signedIn: true, id: 'acct-ada', email: 'ada@customer.example', displayName: 'Ada Lovelace', canEdit: false, staff: false, partner: false });
  t.equal(visitorFor(ADA, host('Partners.Help.Example'), settings).partner, true, 'partner host');
  t.equal(visitorFor({ ...ADA, partner: true }, host('help.example'), settings).partner, true, 'partner claim');
  t.equal(visitorFor({ ...ADA, canEdit: true }, host('help.example'), settings).canEdit, true);
});

t.test('editor link templates: every placeholder filled, else no link', async (t) => {
  const values = { file: 'topics/acme cloud/first-steps.md', entryId: 'acme-cloud-first-steps', path: '/acme-cloud/docs/first-steps', pageId: undefined };
  t.equal(editorLink('https://forge.example/edit/main/content/{file}', values), 'https://forge.example/edit/main/content/topics/acme%20cloud/first-steps.md');
  t.equal(editorLink('https://cms.example/entries/{entryId}?from={path}', values), 'https://cms.example/entries/acme-cloud-first-steps?from=/acme-cloud/docs/first-steps');
  t.equal(editorLink('https://docs.example/pages/{pageId}', values), undefined, 'no page id, no document editor');
  t.equal(editorLink(undefined, values), undefined);
  t.equal(editorLink('javascript:alert({entryId})', values), undefined, 'only web addresses and site paths');
  t.equal(editorLink('//evil.example/{entryId}', values), undefined);
});

t.test('pages: staff hints, author shortcuts and partner items, decided on the server', async (t) => {
  const app = await build(t, {
    env: {
      SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example', PARTNER_HOSTS: 'partners.help.example',
      CONTENT_EDITOR_URL: 'https://forge.example/help/-/edit/main/{file}', CONTENT_EDITOR_NAME: 'Forge',
    },
  });
  const staff = sealed(app, { ...ADA, email: 'grace@fernhollow.example', name: 'Grace Hopper' });
  const staffKb = (await app.inject({ url: KB, headers: { cookie: staff } })).body;
  t.match(staffKb, '<p class="staff-edit-hint"><a href="https://forge.example/help/-/edit/main/kb/acme/widget-crash.md" target="_blank" rel="noopener">' +
    'Edit this KB Article<span class="visually-hidden"> (opens in a new tab)</span></a></p>', 'staff, not authors, get the hint as a link to the editor');
  t.notMatch(staffKb, 'class="edit-links"', 'but not the author shortcuts');
  t.notMatch((await app.inject({ url: TOPIC, headers: { cookie: staff } })).body, 'Edit this', 'the staff hint is for KB articles only');
  for (const email of ['eve@notfernhollow.example', 'eve@fernhollow.example.evil']) {
    const body = (await app.inject({ url: KB, headers: { cookie: sealed(app, { ...ADA, email }) } })).body;
    t.match(body, 'Account menu for Ada Lovelace', `${email} is signed in`);
    t.notMatch(body, 'Edit this KB Article', `${email} is not staff`);
  }
  const unverified = (await app.inject({ url: KB, headers: { cookie: sealed(app, { ...ADA, email: 'grace@fernhollow.example', emailVerified: false }) } })).body;
  t.notMatch(unverified, 'Edit this KB Article');

  const author = (await app.inject({ url: TOPIC, headers: { cookie: sealed(app, { ...ADA, canEdit: true }) } })).body;
  t.match(author, '<a class="edit-link" href="https://forge.example/help/-/edit/main/topics/acme-cloud/first-steps.md" target="_blank" rel="noopener">',
    'the content editor opens the entry\'s file, in a new tab');
  t.match(author, '<span class="edit-hint" id="edit-hint">Edit this topic</span>', 'the \'Edit this …\' hint names what the page is');
  t.match(author, '<span>Edit Page in Forge</span>', 'the editor is named as configured');
  t.notMatch(author, 'Edit Page in topic', 'never by the entry\'s type');
  const authorKb = (await app.inject({ url: KB, headers: { cookie: sealed(app, { ...ADA, canEdit: true }) } })).body;
  t.match(authorKb, '<span class="edit-hint" id="edit-hint">Edit this KB Article</span>');
  t.notMatch(authorKb, 'class="staff-edit-hint"', 'the staff hint only for staff');
  t.notMatch((await app.inject({ url: TOPIC, headers: { cookie: sealed(app, ADA) } })).body, 'class="edit-links"', 'not for customers');

  const onPartnerHost = (await app.inject({ url: TOPIC, headers: { host: 'partners.help.example', cookie: sealed(app, ADA) } })).body;
  t.match(onPartnerHost, 'View Support Requests');
  t.match(onPartnerHost, 'Named contacts');
  const customer = (await app.inject({ url: TOPIC, headers: { cookie: sealed(app, ADA) } })).body;
  t.notMatch(customer, 'View Support Requests');
  t.match(customer, '<a href="/named-contact">Named contacts</a>', 'customers keep named contacts too (spec §2)');
});

t.test('without configuration the content metadata gives the staff domain and editor templates; neither, no icons', async (t) => {
  const dir = await tempContent(t);
  const site = join(dir, 'site.yaml');
  await writeFile(site, `${await readFile(site, 'utf8')}staffDomain: fernhollow.example\n` +
    'contentEditorUrl: https://forge.fernhollow.example/help/-/blob/main/{file}\ndocumentEditorUrl: https://docs.fernhollow.example/pages/{pageId}\n' +
    'contentEditorName: Fernhollow Forge\n');
  const app = await build(t, { contentDir: dir, env: { SESSION_SECRET } });
  const cookie = sealed(app, { ...ADA, email: 'grace@fernhollow.example', canEdit: true });
  t.match((await app.inject({ url: KB, headers: { cookie } })).body, 'Edit this KB Article');
  const topic = (await app.inject({ url: TOPIC, headers: { cookie } })).body;
  t.match(topic, 'href="https://forge.fernhollow.example/help/-/blob/main/topics/acme-cloud/first-steps.md"');
  t.match(topic, '<span>Edit Page in Fernhollow Forge</span>', 'the content\'s editor, named by the content');

  const bare = await build(t, { env: { SESSION_SECRET, STAFF_EMAIL_DOMAIN: 'fernhollow.example' } });
  const body = (await bare.inject({ url: TOPIC, headers: { cookie: sealed(bare, { ...ADA, canEdit: true }) } })).body;
  t.notMatch(body, 'class="edit-links"', 'no editor configured: no shortcuts');
  const staffKb = (await bare.inject({ url: KB, headers: { cookie: sealed(bare, { ...ADA, email: 'grace@fernhollow.example' }) } })).body;
  t.match(staffKb, 'Account menu for Ada Lovelace');
  t.notMatch(staffKb, 'Edit this KB Article', 'no editor configured: no hint that leads nowhere');
});
