import t from 'tap';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importContent } from '../../server/content/import.ts';
import { ContentError } from '../../server/content/problems.ts';
import { ContentSnapshot } from '../../server/content/load.ts';
import { checkLoaded } from '../../server/content/import.ts';
import { build, tempContent } from '../helpers/build.ts';

const LINKS = join(import.meta.dirname, '../fixtures/links');

t.test('files beside the Markdown are stored with the entries and served by content hash', async (t) => {
  const dir = await tempContent(t);
  await cp(join(LINKS, 'accepted'), dir, { recursive: true });
  const app = await build(t, { contentDir: dir });
  const stored = async () => (await app.db.query<{ name: string }>('select name from content_files order by name')).map((r) => r.name);
  t.same(await stored(), ['guide.pdf', 'login.png', 'logo.svg'], 'the files bodies use, and not the unused one');

  const page = await app.inject({ method: 'GET', url: '/acme-cloud/docs/sso' });
  t.equal(page.statusCode, 200);
  const urls = [...page.body.matchAll(/(?:src|href)="(\/assets\/files\/[0-9a-f]{32}\/[^"]+)"/g)].map((m) => m[1] as string);
  const png = urls.find((u) => u.endsWith('/login.png')) as string;
  const pdf = urls.find((u) => u.endsWith('/guide.pdf')) as string;
  const svg = urls.find((u) => u.endsWith('/logo.svg')) as string;
  t.ok(png && pdf && svg, 'the page links each file by its hash');
  // Block images reserve their box with the size their file's header gives (PNG 4×3, SVG 10×10).
  const imgs = [...page.body.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
  t.match(imgs.find((i) => i.includes('alt="The login screen"')), /width="4" height="3"/, 'a PNG: its pixels');
  t.match(imgs.find((i) => i.includes('alt="Logo"')), /width="10" height="10"/, 'an SVG: its width and height');
  t.notMatch(imgs.find((i) => i.includes('alt="The login screen again"')), /width=/, 'an HTML <img> keeps what its author wrote');

  const image = await app.inject({ method: 'GET', url: png });
  t.equal(image.statusCode, 200);
  t.match(image.headers, {
    'content-type': 'image/png', 'cache-control': 'public, max-age=31536000, immutable', 'x-content-type-options': 'nosniff', etag: /^"[0-9a-f]{32}"$/,
  });
  t.same(image.rawPayload, await readFile(join(dir, 'topics/acme-cloud/admin/img/login.png')), 'the bytes of the file');
  const again = await app.inject({ method: 'GET', url: png, headers: { 'if-none-match': image.headers.etag as string } });
  t.equal(again.statusCode, 304, 'revalidation by ETag');

  t.match((await app.inject({ method: 'GET', url: pdf })).headers, { 'content-type': 'application/pdf', 'content-disposition': /^inline; filename\*=UTF-8''guide\.pdf$/ });
  const drawing = await app.inject({ method: 'GET', url: svg });
  t.match(drawing.headers, { 'content-type': /^image\/svg\+xml/, 'content-security-policy': /sandbox/ }, 'SVG runs no script, even opened on its own');
  t.notMatch(String(drawing.headers['content-security-policy']), /script-src/);

  for (const url of ['/assets/files/0123456789abcdef0123456789abcdef/x.png', '/assets/files/nothex/x.png', '/assets/files/%00/x.png',
    `${png.slice(0, png.lastIndexOf('/'))}/..%2F..%2Fetc%2Fpasswd`, '/assets/files/../../package.json', '/assets/files/%2e%2e/x']) {
    const res = await app.inject({ method: 'GET', url });
    t.ok(res.statusCode >= 400 && res.statusCode < 500, `${url}: ${res.statusCode}`);
  }

  // A broken import leaves the files as they were.
  const sso = join(dir, 'topics/acme-cloud/admin/sso.md');
  const text = await readFile(sso, 'utf8');
  await writeFile(sso, text.replace('files/guide.pdf', 'files/gone.pdf'));
  t.type(await importContent(app.db, dir).catch((e: unknown) => e), ContentError);
  t.same(await stored(), ['guide.pdf', 'login.png', 'logo.svg'], 'a refused import changes no file');

  // Files no entry uses any more stop being served after the next import.
  await writeFile(sso, text.replace('Read [the guide](files/guide.pdf) before you start, and see', 'See'));
  await app.importContentTree(dir);
  t.same(await stored(), ['login.png', 'logo.svg']);
  t.equal((await app.inject({ method: 'GET', url: pdf })).statusCode, 404, 'the removed file is gone');
  t.equal((await app.inject({ method: 'GET', url: png })).statusCode, 200, 'the others stay');
});

t.test('live preview re-reads a changed or removed image and checks the tree again', async (t) => {
  const dir = await tempContent(t);
  await cp(join(LINKS, 'accepted'), dir, { recursive: true });
  const snapshot = new ContentSnapshot(dir);
  await snapshot.loadAll();
  const first = checkLoaded(snapshot.result());
  t.same(first.problems, []);
  const png = 'topics/acme-cloud/admin/img/login.png';
  t.same(await snapshot.update([png]), [], 'an unchanged file is no change');

  await writeFile(join(dir, png), Buffer.concat([await readFile(join(dir, png)), Buffer.from([0])]));
  t.same(await snapshot.update([png]), [png]);
  const changed = checkLoaded(snapshot.result());
  t.not(changed.digest, first.digest, 'a changed image is a changed tree');
  t.not(changed.plan.files.find((f) => f.name === 'login.png')?.hash, first.plan.files.find((f) => f.name === 'login.png')?.hash);

  await rm(join(dir, 'topics/acme-cloud/admin/img'), { recursive: true });
  await snapshot.update(['topics/acme-cloud/admin/img']);
  t.match(checkLoaded(snapshot.result()).problems.map((p) => `${p.file}:${p.line}: ${p.reason}`),
    [/sso\.md:11: image \.\/img\/login\.png: no file/, /sso\.md:17: image img\/login\.png: no file/, /links\.md:12: image admin\/img\/login\.png: no file/],
    'a removed folder of images is missing at once');
});
