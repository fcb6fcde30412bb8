import t from 'tap';
import { MAX_RETURN_LENGTH, safeReturnPath } from '../../server/identity/return-to.ts';

const PUBLIC = 'https://help.example.test';

t.test('paths on this site and absolute addresses on PUBLIC_URL come back as paths', async (t) => {
  const kept: [string, string][] = [
    ['/', '/'],
    ['/acme-cloud/docs/first-steps', '/acme-cloud/docs/first-steps'],
    ['/search-results/?searchTerm=smtp&page=2', '/search-results/?searchTerm=smtp&page=2'],
    ['/acme/kb/widget-crash#solution', '/acme/kb/widget-crash#solution'],
    ['/ja/contact', '/ja/contact'],
    ['https://help.example.test/acme-cloud/docs?x=1', '/acme-cloud/docs?x=1'],
    ['https://HELP.example.test/acme', '/acme'],
    ['https://help.example.test', '/'],
    ['/a%20b', '/a%20b'],
    ['/%E3%83%98%E3%83%AB%E3%83%97', '/%E3%83%98%E3%83%AB%E3%83%97'],
  ];
  for (const [raw, path] of kept) t.equal(safeReturnPath(raw, PUBLIC), path, raw);
});

t.test('every other return address goes to the home page', async (t) => {
  const tricks: unknown[] = [
    undefined, null, 42, ['/a', '/b'], '',
    'https://evil.example/',
    'http://help.example.test/acme', // same host, other scheme: another origin
    'https://help.example.test:8443/acme', // other port
    'https://help.example.test.evil.example/',
    'https://evil.example/https://help.example.test/',
    '//evil.example', '//evil.example/path', '///evil.example', '////evil.example',
    '/\\evil.example', '\\\\evil.example', '\\/evil.example', '/\\/evil.example',
    'javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)', 'mailto:a@evil.example', 'ftp://evil.example/',
    '/%2F%2Fevil.example', '/%2f%2fevil.example', '%2F%2Fevil.example', '/%252F%252Fevil.example', '/%5Cevil.example', '/%5cevil.example',
    '/%09/evil.example', '/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example', '\t//evil.example', ' //evil.example',
    ' /acme', '/acme ', '\u00a0/acme', '\u3000//evil.example',
    'https://help.example.test@evil.example/', 'https://user:pass@help.example.test/acme', 'https://evil.example\\@help.example.test/',
    'https:evil.example', 'https:/evil.example', 'https:\\\\evil.example',
    '/\uff0fevil.example', '/\u2215evil.example', '/\u2044evil.example', '/\uff3cevil.example', '\uff0f\uff0fevil.example',
    '/acme\u0000', '/%00', '/acme%0d%0aSet-Cookie:x=1', '/%E0%A4%A',
    `/${'a'.repeat(MAX_RETURN_LENGTH)}`,
    'evil.example', 'acme/docs', '.evil.example', '?continue=//evil.example', '#//evil.example',
  ];
  t.ok(tricks.length >= 30, `${tricks.length} variants`);
  for (const raw of tricks) t.equal(safeReturnPath(raw, PUBLIC), '/', JSON.stringify(raw));
});

t.test('whatever comes in, what goes out is a path of this site', async (t) => {
  const samples = ['/a/../../b', '/./x', '/a?b=//evil.example', '/a#//evil', 'https://help.example.test/..//evil.example'];
  for (const raw of samples) {
    const path = safeReturnPath(raw, PUBLIC);
    t.ok(path.startsWith('/') && !path.startsWith('//'), `${raw} -> ${path}`);
    t.equal(new URL(path, PUBLIC).origin, PUBLIC, raw);
  }
});
