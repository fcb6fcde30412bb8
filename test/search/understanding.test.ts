import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkContent, importContent } from '../../server/content/import.ts';
import { search } from '../../server/search/engine.ts';
import { testDb, tempContent } from '../helpers/build.ts';

const idOf = (r: { content: { contentAri: string } }) => r.content.contentAri.split('/').pop() ?? '';

const topic = (id: string, title: string, body: string) => `---
id: ${id}
title: ${title}
slug: ${id}
context: acme-cloud
lastPublished: 2026-03-04T23:30:00Z
---
${body}
`;

t.test('what visitors type: dashes, codes, synonyms, stop phrases, titles and sections', async (t) => {
  const db = await testDb(t);
  const dir = await tempContent(t);
  await writeFile(join(dir, 'search.yaml'), `id: search
synonyms:
  - [gadget, widget]
  - [getting started, first steps]
stopPhrases: [how do i]
`);
  const topics = join(dir, 'topics/acme-cloud');
  await writeFile(join(topics, 'install-linux.md'), topic('install-and-deploy-linux', 'Install and Deploy - Linux', 'Install the agent on Linux and deploy it.'));
  await writeFile(join(topics, 'install-windows.md'), topic('install-on-windows', 'Install on Windows',
    'Install the agent on Windows. Unlike on Linux, deploy it with the installer; install and deploy take a minute.'));
  await writeFile(join(topics, 'errors.md'), topic('browser-errors', 'Browser errors', [
    'The browser shows ERR_CERT_DATE_INVALID when the certificate has expired.',
    '',
    'The agent stops with java.lang.OutOfMemoryError: Java heap space, or Windows error 0x80070005.',
    '',
    'A proxy answers HTTP 502 with code E1234 and logs to /var/log/acme/agent.log.',
  ].join('\n')));
  await writeFile(join(topics, 'organizations.md'), topic('organizations', 'Organizations', 'Group people into organizations.'));
  await writeFile(join(topics, 'people.md'), topic('manage-people', 'Manage people',
    `Invite people to organizations. ${'Organizations hold people, and organizations share settings. '.repeat(3)}`));
  await writeFile(join(topics, 'empty.md'), topic('empty-page', 'Windows', ''));
  await writeFile(join(topics, 'start-up.md'), topic('start-up-time', 'Start-up time', 'The agent takes a minute from start-up to its first report.'));
  await writeFile(join(topics, 'start.md'), topic('start-the-agent', 'Start the agent', 'Start the agent, then set it up for your team.'));
  await importContent(db, dir);
  const first = async (query: string) => idOf((await search(db, { query, language: 'en' })).results[0] ?? { content: { contentAri: '' } });
  const ids = async (query: string) => (await search(db, { query, language: 'en' })).results.map(idOf);

  t.test('a dash between spaces is text: a title with one finds its own page first', async (t) => {
    t.equal(await first('Install and Deploy - Linux'), 'install-and-deploy-linux');
    t.equal(await first('install and deploy – linux'), 'install-and-deploy-linux', 'an en dash');
    t.notOk((await ids('install -linux')).includes('install-and-deploy-linux'), '-word still excludes');
  });

  t.test('a hyphenated word finds the pages holding it, not pages holding its parts apart', async (t) => {
    t.same(await ids('start-up'), ['start-up-time']);
    t.same(await ids('Start-up time'), ['start-up-time']);
    const start = await ids('start');
    t.ok(start.includes('start-the-agent') && start.includes('start-up-time'), 'the parts are words of their own');
  });

  t.test('an exact title comes first, and an empty page gains nothing from being short', async (t) => {
    t.equal(await first('Organizations'), 'organizations', 'above a page that mentions the word more often');
    t.equal(await first('Install on Windows'), 'install-on-windows', 'above an empty page whose whole title is one of the words');
  });

  t.test('codes and error messages pasted from a product find the page holding them', async (t) => {
    for (const query of ['ERR_CERT_DATE_INVALID', 'java.lang.OutOfMemoryError', 'OutOfMemoryError', '0x80070005', 'HTTP 502',
      'E1234', 'error 0x80070005.', '/var/log/acme/agent.log', 'java.lang.OutOfMemoryError: Java heap space']) {
      t.equal(await first(query), 'browser-errors', query);
    }
    t.same(await ids('ERR_CERT_INVALID_DATE'), [], 'the parts of a code in another order are another code');
  });

  t.test('synonyms and stop phrases from search.yaml', async (t) => {
    t.equal(await first('gadget crashes'), 'kb-acme-widget-crash', 'a synonym finds the page using the other word');
    t.equal(await first('how do I get getting started'), 'acme-cloud-first-steps', 'a phrase of a group, after the stop phrase');
  });

  t.test('a query matching a section heading links to the section', async (t) => {
    const res = await search(db, { query: 'configure the widget', language: 'en' });
    const hit = res.results.find((r) => idOf(r) === 'acme-cloud-first-steps');
    t.equal(hit?.content.section?.title, 'Configure the widget');
    t.match(hit?.content.url, /#configure-the-widget$/);
    const title = (await search(db, { query: 'first steps', language: 'en' })).results.find((r) => idOf(r) === 'acme-cloud-first-steps');
    t.equal(title?.content.section, undefined, 'a title match links to the page');
  });

  t.test('the spelling rewrite: a misspelt word is searched as the corpus spells it, a known one never', async (t) => {
    const fixed = await search(db, { query: 'organizatons', language: 'en' });
    t.equal(fixed.metadata.query.rewrittenQuery, 'organizations');
    t.equal(idOf(fixed.results[0] ?? { content: { contentAri: '' } }), 'organizations');
    const partial = await search(db, { query: 'windos deploy', language: 'en' });
    t.equal(partial.metadata.query.rewrittenQuery, 'windows deploy');
    const known = await search(db, { query: 'deploy minute', language: 'en' });
    t.equal(known.metadata.query.rewrittenQuery, null, 'every word is in the vocabulary');
  });
});

t.test('search.yaml is checked at import: each problem with its line, column and a hint', async (t) => {
  const dir = await tempContent(t);
  await writeFile(join(dir, 'search.yaml'), `id: search
synonyms:
  - [sso, single sign-on]
  - [saml, SSO]
  - [only-one]
  - ["--", x]
stopPhrases:
  - how do i
  - single sign-on
`);
  const { problems } = await checkContent(dir);
  const of = problems.filter((p) => p.file === 'search.yaml');
  t.match(of, [
    { line: 4, column: 12, field: 'synonyms.1.1', reason: /"SSO" is already in another synonym group \(line 3\)/, hint: /merge the two groups/ },
  ]);
  t.ok(of.some((p) => p.field.startsWith('synonyms.2') && /2/.test(p.reason)), 'a group of one term');
  t.ok(of.some((p) => p.line === 6 && p.column === 6 && /no letter or digit/.test(p.reason)), 'a term without letters');
  t.ok(of.some((p) => p.line === 9 && p.column === 5 && /also a synonym/.test(p.reason) && p.hint), 'a stop phrase that is a synonym');
});
