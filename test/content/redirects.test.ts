import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkRedirects, redirectLocation } from '../../server/content/redirects.ts';
import { checkContent } from '../../server/content/import.ts';
import { formatProblem, type Problem } from '../../server/content/problems.ts';
import { tempContent } from '../helpers/build.ts';

const KNOWN = new Set(['/', '/acme/docs/start', '/acme/docs/sso']);
const urlOf = (id: string) => (id === 'acme-start' ? '/acme/docs/start' : undefined);

function check(text: string) {
  const problems: Problem[] = [];
  const redirects = checkRedirects(text, KNOWN, urlOf, problems);
  return { redirects, problems: problems.map(formatProblem) };
}

t.test('redirects.yaml: paths, entries and chains', async (t) => {
  const { redirects, problems } = check(`
- { from: /old/start/, to: /acme/docs/start }
- { from: /old/sso, to: "/acme/docs/sso?tab=saml#setup" }
- { from: /older/start, to: /old/start }
- { from: /by-entry, entry: acme-start }
- { from: /elsewhere, to: https://status.example.com/ }
`);
  t.same(problems, []);
  t.same(redirects, [
    { from: '/old/start', to: '/acme/docs/start' },
    { from: '/old/sso', to: '/acme/docs/sso?tab=saml#setup' },
    { from: '/older/start', to: '/acme/docs/start' },
    { from: '/by-entry', to: '/acme/docs/start' },
    { from: '/elsewhere', to: 'https://status.example.com/' },
  ], 'a trailing slash is dropped from `from`; a chain is followed to its page');
});

t.test('redirects.yaml: every mistake, each at its line', async (t) => {
  const { redirects, problems } = check(`- { from: /a, to: /b }
- { from: /b, to: /a }
- { from: /acme/docs/sso, to: /acme/docs/start }
- { from: /c, to: /nowhere }
- { from: /a, to: /acme/docs/start }
- { from: /d, entry: no-such-entry }
- { from: relative, to: /acme/docs/start }
- { from: /e?x=1, to: /acme/docs/start }
- { from: /f }
- { from: /g, to: /acme/docs/start, entry: acme-start }
- { from: /h, to: //evil.example }
- just a string
`);
  t.same(redirects, []);
  t.same(problems, [
    'redirects.yaml:3: [2].from: /acme/docs/sso is a page of the site: a redirect never hides a page; remove it, or move the page',
    'redirects.yaml:5: [4].from: /a is redirected twice: already at line 1',
    'redirects.yaml:6: [5].entry: no entry "no-such-entry" with a page',
    `redirects.yaml:7: [6].from: "relative" is not a site path: write it from the site's root, /like/this`,
    'redirects.yaml:8: [7].from: "/e?x=1" has a query or fragment: a redirect is matched on the path alone (the query is passed on)',
    'redirects.yaml:9: [8]: needs to (a site path) or entry (an entry id)',
    'redirects.yaml:10: [9]: has both to and entry: give one',
    `redirects.yaml:11: [10].to: "//evil.example" is not a site path: write it from the site's root, /like/this (or an https:// address)`,
    'redirects.yaml:12: [11]: a redirect is `{ from: /old/path, to: /new/path }` or `{ from: /old/path, entry: <entry id> }`',
    'redirects.yaml:1: [0].to: redirect loop: /a → /b → /a',
    'redirects.yaml:2: [1].to: redirect loop: /b → /a → /b',
    'redirects.yaml:4: [3].to: no page at /nowhere',
  ]);
  t.same(check('from: /a\nto: /b\n').problems, ['redirects.yaml:1: file: a list of redirects: `- { from: /old/path, to: /new/path }` or `- { from: /old/path, entry: <entry id> }`']);
  t.match(check('- { from: /a, to: [\n').problems[0], /^redirects\.yaml:\d+: file: /, 'YAML that does not parse');
  t.same(check('').problems, [], 'an empty file is no redirects');
});

t.test('content:check reads redirects.yaml with the tree and reports a loop at its line', async (t) => {
  const dir = await tempContent(t);
  await writeFile(join(dir, 'redirects.yaml'), '- { from: /old/first-steps, to: /acme-cloud/docs/first-steps }\n- { from: /x, to: /y }\n- { from: /y, to: /x }\n');
  const { problems, plan } = await checkContent(dir);
  t.same(problems.map(formatProblem), [
    'redirects.yaml:2: [1].to: redirect loop: /x → /y → /x',
    'redirects.yaml:3: [2].to: redirect loop: /y → /x → /y',
  ]);
  t.same(plan.redirects, [{ from: '/old/first-steps', to: '/acme-cloud/docs/first-steps' }]);
});

t.test('the Location keeps the query, before any fragment', async (t) => {
  t.equal(redirectLocation('/new', ''), '/new');
  t.equal(redirectLocation('/new', 'q=1&b=2'), '/new?q=1&b=2');
  t.equal(redirectLocation('/new?tab=a#x', 'q=1'), '/new?tab=a&q=1#x');
});
