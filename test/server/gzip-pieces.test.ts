import t from 'tap';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { GzipPieces } from '../../server/http/gzip-pieces.ts';

t.test('fixed and changing pieces make one gzip body that inflates to their concatenation', async (t) => {
  const cases: [string[], string[]][] = [
    [['<p>', '</p>'], ['Ada']],
    [['', ''], ['']],
    [['only'], []],
    [['a', '', 'b'], ['', 'ü 漢字 \u2028']],
    [['<html>'.repeat(3000), 'x', '</html>'.repeat(2000)], ['y'.repeat(70_000), randomBytes(40_000).toString('base64')]],
  ];
  for (const [fixed, between] of cases) {
    const body = new GzipPieces(fixed).body(between);
    const expected = fixed.map((f, i) => f + (i < fixed.length - 1 ? between[i] ?? '' : '')).join('');
    t.equal(gunzipSync(body).toString(), expected, `${fixed.length} fixed pieces, ${between.map((b) => b.length).join('+')} changing characters`);
  }
});

t.test('the same pieces filled differently stay independent, and gzip(1) checks the CRC and size', async (t) => {
  const pieces = new GzipPieces(['<header>', '<main>' + 'text '.repeat(4000), '</main>']);
  const one = pieces.body(['Ada', 'ada@example.com']);
  const two = pieces.body(['Grace', 'grace@example.com']);
  t.equal(gunzipSync(one).toString().includes('Ada'), true);
  t.equal(gunzipSync(two).toString().includes('Ada'), false);
  t.ok(one.length < 1000, `a 20 KB page compresses to ${one.length} bytes`);
  const tested = execFileSync('gzip', ['-t'], { input: two });
  t.equal(tested.length, 0, 'gzip -t finds nothing wrong');
});
