/**
 * The encoding rules pages and static assets share (server/http/encoding.ts): Accept-Encoding
 * negotiation, If-None-Match comparison, and the brotli and gzip forms.
 */
import t from 'tap';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync, gzipSync } from 'node:zlib';
import { compress, compressAll, ifNoneMatch, negotiateEncoding } from '../../server/http/encoding.ts';

t.test('Accept-Encoding: the highest q-value on offer, brotli on a tie', async (t) => {
  t.equal(negotiateEncoding(undefined), undefined, 'no header, no encoding');
  t.equal(negotiateEncoding(''), undefined);
  t.equal(negotiateEncoding('gzip, deflate, br'), 'br', 'a browser');
  t.equal(negotiateEncoding('gzip, deflate, br, zstd'), 'br');
  t.equal(negotiateEncoding('gzip'), 'gzip');
  t.equal(negotiateEncoding('deflate'), undefined, 'nothing on offer');
  t.equal(negotiateEncoding('identity'), undefined);
  t.equal(negotiateEncoding('gzip;q=1, br;q=0.5'), 'gzip', 'q-values are honoured');
  t.equal(negotiateEncoding('br;q=0.5, gzip;q=0.8'), 'gzip');
  t.equal(negotiateEncoding('br;q=0.8, gzip;q=0.8'), 'br', 'brotli on a tie');
  t.equal(negotiateEncoding('br;q=0, gzip'), 'gzip', 'q=0 refuses');
  t.equal(negotiateEncoding('br;q=0'), undefined);
  t.equal(negotiateEncoding('br ; q = 0.2 , gzip ; Q=0.1'), 'br', 'white space and case around parameters');
  t.equal(negotiateEncoding('br;level=5;q=0.4, gzip;q=0.3'), 'br', 'other parameters are passed over');
  t.equal(negotiateEncoding('*'), 'br', '* stands for what is not named');
  t.equal(negotiateEncoding('*;q=0'), undefined);
  t.equal(negotiateEncoding('*;q=0, gzip'), 'gzip');
  t.equal(negotiateEncoding('br;q=0, *'), 'gzip', 'a coding named is not taken by *');
  t.equal(negotiateEncoding('BR'), 'br', 'names are case-insensitive');
  t.equal(negotiateEncoding('x-gzip'), 'gzip', 'x-gzip is gzip');
  t.equal(negotiateEncoding('br;q=abc, gzip;q=0.1'), 'gzip', 'a q-value that is not a number refuses');
  t.equal(negotiateEncoding('br;q=, gzip;q=0.1'), 'gzip', 'so does an empty one');
  t.equal(negotiateEncoding('br;q=7'), undefined, 'and one above 1');
  t.equal(negotiateEncoding(',, ;q=1, gzip'), 'gzip', 'empty members are passed over');
  t.equal(negotiateEncoding(['gzip', 'br']), 'br', 'a header sent twice');
});

t.test('Accept-Encoding: only the forms that exist are on offer', async (t) => {
  const both = { br: Buffer.alloc(1), gzip: Buffer.alloc(1) };
  t.equal(negotiateEncoding('gzip, br', both), 'br');
  t.equal(negotiateEncoding('br, gzip', { gzip: Buffer.alloc(1) }), 'gzip', 'no brotli form');
  t.equal(negotiateEncoding('br', { gzip: Buffer.alloc(1) }), undefined);
  t.equal(negotiateEncoding('br, gzip', {}), undefined, 'no form at all');
  t.equal(negotiateEncoding('*', { br: undefined, gzip: Buffer.alloc(1) }), 'gzip');
});

t.test('If-None-Match: a list of tags compared weakly, or *', async (t) => {
  const etag = '"abc123"';
  t.equal(ifNoneMatch(undefined, etag), false);
  t.equal(ifNoneMatch('', etag), false);
  t.equal(ifNoneMatch(etag, etag), true, 'the tag itself');
  t.equal(ifNoneMatch(`W/${etag}`, etag), true, 'weak');
  t.equal(ifNoneMatch(etag, `W/${etag}`), true, 'weak on the server side too');
  t.equal(ifNoneMatch(`"other", ${etag}`, etag), true, 'in a list');
  t.equal(ifNoneMatch(`"other",W/${etag}`, etag), true, 'in a list without spaces');
  t.equal(ifNoneMatch('*', etag), true, 'any');
  t.equal(ifNoneMatch(' * ', etag), true);
  t.equal(ifNoneMatch('"other"', etag), false, 'another tag');
  t.equal(ifNoneMatch('"abc123', etag), false, 'a tag cut short');
  t.equal(ifNoneMatch('abc123', etag), false, 'unquoted');
  t.equal(ifNoneMatch('"a,b", "c"', '"a,b"'), true, 'a comma inside a tag');
  t.equal(ifNoneMatch('"a,b"', '"b"'), false);
  t.equal(ifNoneMatch('"a*b"', etag), false, 'a star inside a tag is not *');
  t.equal(ifNoneMatch(['"other"', etag], etag), true, 'a header sent twice');
  t.equal(ifNoneMatch('*', ''), false, 'nothing matches a response without a validator');
});

t.test('compressed forms decode to the body, at the highest levels', async (t) => {
  const body = Buffer.from('<p>Signpost help centre</p>\n'.repeat(200));
  const forms = await compressAll(body);
  t.same(brotliDecompressSync(forms.br), body, 'brotli');
  t.same(gunzipSync(forms.gzip), body, 'gzip');
  t.same(await compress(body, 'br'), forms.br, 'one form at a time gives the same bytes');
  t.same(await compress(body, 'gzip'), forms.gzip);
  const q11 = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } });
  t.same(forms.br, q11, 'brotli quality 11, text mode');
  t.same(forms.gzip, gzipSync(body, { level: 9 }), 'gzip level 9');
  t.ok(forms.br.length < forms.gzip.length, `brotli (${forms.br.length} B) is smaller than gzip (${forms.gzip.length} B)`);
  const empty = await compressAll(Buffer.alloc(0));
  t.same(brotliDecompressSync(empty.br), Buffer.alloc(0), 'an empty body');
  t.same(gunzipSync(empty.gzip), Buffer.alloc(0));
});
