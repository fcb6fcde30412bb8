/**
 * No secret and no e-mail address in any log line (issue 8 item 10, spec §5): the log stream of a real
 * app at debug level, over requests that carry the preview token and addresses in every place.
 */
import t from 'tap';
import { PassThrough } from 'node:stream';
import { build, PREVIEW_TOKEN } from '../helpers/build.ts';
import { redactUrl } from '../../server/log-redact.ts';

t.test('the request log holds no preview token and no e-mail address', async (t) => {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const app = await build(t, { logStream: stream, env: { LOG_LEVEL: 'debug' } });

  const address = 'jane.doe@customer.example';
  const encoded = encodeURIComponent(address);
  const requests = [
    { url: `/acme-cloud/docs/upcoming-feature?preview=${PREVIEW_TOKEN}` },
    { url: `/preview/acme-cloud-draft?preview=${PREVIEW_TOKEN}&x=1` },
    { url: '/preview/acme-cloud-draft', headers: { 'x-preview-token': PREVIEW_TOKEN, cookie: `session=${PREVIEW_TOKEN}`, authorization: `Bearer ${PREVIEW_TOKEN}` } },
    { url: `/search-results/?searchTerm=${encoded}` },
    { url: `/search-results/?searchTerm=contact+${encoded}+today` },
    { url: `/search-results/?searchTerm=${address}` },
    { url: `/search-results/?page=0&searchTerm=${encoded}` },
    { url: `/${encoded}` },
    { url: `/${address}/%ZZ?preview=${PREVIEW_TOKEN}` },
    { url: `/version-switch?entry=${encoded}&version=1` },
    { method: 'POST' as const, url: '/gateway/api/help-content/v2/search', payload: { query: address } },
    { method: 'POST' as const, url: '/gateway/api/help-content/v2/search', payload: `{"query": "${address}` , headers: { 'content-type': 'application/json' } },
    { method: 'PUT' as const, url: `/?preview=${PREVIEW_TOKEN}&q=${encoded}` },
  ];
  for (const request of requests) await app.inject(request);
  await new Promise((resolve) => setImmediate(resolve));

  const log = lines.join('\n');
  t.ok(lines.length >= requests.length * 2, `${lines.length} log lines`);
  t.ok(lines.every((l) => JSON.parse(l)), 'every line is JSON');
  t.notMatch(log, PREVIEW_TOKEN, 'no preview token');
  t.notMatch(log, /jane\.doe|customer\.example|jane\.doe%40/i, 'no e-mail address, plain or encoded');
  t.match(log, /"url":"\/acme-cloud\/docs\/upcoming-feature\?preview=\[redacted\]"/, 'the URL is logged with the token masked');
  t.match(log, /searchTerm=%5Bemail%5D/, 'search terms are masked, not dropped');
});

t.test('redactUrl keeps what is harmless and masks the rest', async (t) => {
  t.equal(redactUrl('/a/b?x=1&y=two'), '/a/b?x=1&y=two');
  t.equal(redactUrl(`/?preview=${PREVIEW_TOKEN}`), '/?preview=[redacted]');
  t.equal(redactUrl('/?PREVIEW=abc'), '/?PREVIEW=[redacted]');
  t.equal(redactUrl('/?searchTerm=a%40b.example'), '/?searchTerm=%5Bemail%5D');
  t.equal(redactUrl('/?searchTerm=reset+a%40b.example+now'), '/?searchTerm=reset%20%5Bemail%5D%20now');
  t.equal(redactUrl('/%E0%A4%A?x=%'), '/%E0%A4%A?x=%', 'malformed encodings pass through unharmed');
});
