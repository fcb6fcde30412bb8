/**
 * Static assets are compressed once, not per response: the stylesheet, the island scripts and text files
 * under /assets/content/ go out in the brotli or gzip form made at start, chosen by Accept-Encoding.
 */
import t from 'tap';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from '../helpers/build.ts';
import { compressAll } from '../../server/http/encoding.ts';
import { projectRoot } from '../../server/paths.ts';

const SVG = '/assets/content/admin-console.svg';

t.test('assets', async (t) => {
  const app = await build(t);
  const page = (await app.inject('/acme/kb/widget-crash')).body;
  const css = /href="(\/assets\/main\.[0-9a-f]{12}\.css)"/.exec(page)?.[1] as string;
  const js = /src="(\/assets\/islands\.[0-9a-f]{12}\.js)"/.exec(page)?.[1] as string;
  t.ok(css && js, 'the page names its stylesheet and script');

  t.test('brotli and gzip decode to the very bytes sent uncompressed', async (t) => {
    for (const url of [css, js, SVG]) {
      const plain = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
      t.equal(plain.headers['content-encoding'], undefined, `${url}: identity when asked`);
      const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      t.equal(br.headers['content-encoding'], 'br', `${url}: brotli for a browser`);
      t.equal(gz.headers['content-encoding'], 'gzip', `${url}: gzip when brotli is not accepted`);
      t.same(brotliDecompressSync(br.rawPayload), plain.rawPayload, `${url}: brotli decodes to the file`);
      t.same(gunzipSync(gz.rawPayload), plain.rawPayload, `${url}: gzip decodes to the file`);
      for (const res of [plain, br, gz]) {
        t.equal(res.headers.vary, 'accept-encoding', `${url}: Vary: Accept-Encoding`);
        t.equal(res.headers['content-length'], String(res.rawPayload.length), `${url}: Content-Length is the bytes sent`);
      }
      t.ok(br.rawPayload.length < gz.rawPayload.length, `${url}: brotli (${br.rawPayload.length} B) is smaller than gzip (${gz.rawPayload.length} B)`);
      t.equal(br.headers.etag, plain.headers.etag, `${url}: one validator for every encoding`);
    }
  });

  t.test('the bytes sent are those made once at start, at the highest levels', async (t) => {
    const plain = (await app.inject({ url: css, headers: { 'accept-encoding': 'identity' } })).rawPayload;
    const made = await compressAll(plain);
    const first = await app.inject({ url: css, headers: { 'accept-encoding': 'br' } });
    const second = await app.inject({ url: css, headers: { 'accept-encoding': 'br' } });
    t.same(first.rawPayload, made.br, 'brotli quality 11');
    t.same(second.rawPayload, first.rawPayload, 'the same bytes every time');
    t.same((await app.inject({ url: css, headers: { 'accept-encoding': 'gzip' } })).rawPayload, made.gzip, 'gzip level 9');
    const svg = await readFile(join(projectRoot, 'assets/content/admin-console.svg'));
    t.same((await app.inject({ url: SVG, headers: { 'accept-encoding': 'br' } })).rawPayload, (await compressAll(svg)).br, 'content files too');
  });

  t.test('hashed names are immutable; content files keep a lifetime and a validator', async (t) => {
    for (const url of [css, js]) {
      const res = await app.inject(url);
      t.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', `${url}: immutable`);
      t.match(res.headers.etag, /^"[\w-]+"$/, `${url}: ETag`);
    }
    t.match((await app.inject(css)).headers['content-type'], 'text/css');
    t.match((await app.inject(js)).headers['content-type'], 'text/javascript');
    const svg = await app.inject({ url: SVG, headers: { 'accept-encoding': 'br' } });
    t.equal(svg.headers['cache-control'], 'public, max-age=86400');
    t.equal(svg.headers['content-type'], 'image/svg+xml');
    const etag = svg.headers.etag as string;
    t.match(etag, /^"[\w-]+"$/);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await app.inject({ url: SVG, headers: { 'accept-encoding': 'br', 'if-none-match': ifNoneMatch } });
      t.equal(again.statusCode, 304, `If-None-Match: ${ifNoneMatch}`);
      t.equal(again.rawPayload.length, 0, 'no body');
      t.equal(again.headers.etag, etag);
      t.equal(again.headers['cache-control'], 'public, max-age=86400');
    }
    t.equal((await app.inject({ url: SVG, headers: { 'if-none-match': '"other"' } })).statusCode, 200, 'a different tag gets the file');
    t.equal((await app.inject({ url: css, headers: { 'if-none-match': (await app.inject(css)).headers.etag as string } })).statusCode, 304, 'hashed assets revalidate too');
  });

  t.test('HEAD answers the headers of GET without a body', async (t) => {
    for (const url of [css, SVG]) {
      const get = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      const head = await app.inject({ method: 'HEAD', url, headers: { 'accept-encoding': 'br' } });
      t.equal(head.statusCode, 200, url);
      t.equal(head.rawPayload.length, 0, `${url}: no body`);
      for (const name of ['content-encoding', 'content-length', 'etag', 'vary', 'cache-control', 'content-type']) {
        t.equal(head.headers[name], get.headers[name], `${url}: ${name}`);
      }
    }
  });

  t.test('other files and bad paths under /assets/content/ are as before', async (t) => {
    t.equal((await app.inject('/assets/content/icons/tracklight.svg')).statusCode, 200, 'files in folders');
    t.equal((await app.inject('/assets/content/nope.svg')).statusCode, 404);
    t.equal((await app.inject('/assets/content/../../package.json')).statusCode, 404);
    t.equal((await app.inject('/assets/content/%2e%2e/%2e%2e/package.json')).statusCode < 500, true, 'an encoded climb is refused');
    t.notMatch((await app.inject('/assets/content/%2e%2e/%2e%2e/package.json')).body, '"dependencies"');
  });
});

t.test('content files added or changed on disk are served fresh once the content changes', async (t) => {
  const app = await build(t);
  const name = `rescan-${process.pid}-${Date.now()}.svg`;
  const path = join(projectRoot, 'assets/content', name);
  const url = `/assets/content/${name}`;
  t.teardown(() => rm(path, { force: true }));
  const svg = (text: string) => Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>${text}</title>${'<rect width="1" height="1"/>'.repeat(20)}</svg>`);
  await writeFile(path, svg('first'));
  const fromDisk = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
  t.equal(fromDisk.statusCode, 200, 'a file added since start is served from disk');
  t.same(fromDisk.rawPayload, svg('first'), 'as it is, not compressed per response');

  const served = async (check: (res: Awaited<ReturnType<typeof app.inject>>) => boolean) => {
    for (let i = 0; i < 200; i++) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      if (check(res)) return res;
      await new Promise((r) => setTimeout(r, 20));
    }
    return app.inject({ url, headers: { 'accept-encoding': 'br' } });
  };
  app.content.invalidate();
  const held = await served((res) => res.headers['content-encoding'] === 'br');
  t.same(brotliDecompressSync(held.rawPayload), svg('first'), 'held and compressed after the content changed');

  await writeFile(path, svg('second'));
  await utimes(path, new Date(), new Date(Date.now() + 5000));
  app.content.invalidate();
  const fresh = await served((res) => res.headers.etag !== held.headers.etag);
  t.not(fresh.headers.etag, held.headers.etag, 'a new validator');
  t.same(brotliDecompressSync(fresh.rawPayload), svg('second'), 'the new bytes');
});
