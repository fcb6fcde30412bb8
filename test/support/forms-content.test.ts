import t from 'tap';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { importContent, currentDigest } from '../../server/content/import.ts';
import { ContentError, formatProblem } from '../../server/content/problems.ts';
import { tempContent, testDb } from '../helpers/build.ts';

/** Forms are content (content/forms/*.yaml): checked at import like every entry, and a bad one changes nothing. */
const GOOD = `id: ask-form
title: Ask us
subjectField: subject
fields:
  - { name: email, type: email, audience: anonymous, label: E-mail, required: true }
  - { name: subject, type: text, label: Summary, required: true, maxLength: 100 }
`;

const BROKEN = `id: ask-form
title: Ask us
subjectField: topic
fields:
  - name: email
    type: email
    label: E-mail
  - name: subject
    type: text
    label: Summary
    pattern: '([a-z'
  - name: subject
    type: select
    label: Kind
  - name: website
    type: checkbox
    label: Tick
    minLength: 2
  - name: size
    type: text
    label: Size
    minLength: 9
    maxLength: 3
  - name: colour
    type: rainbow
    label: Colour
`;

t.test('a form file is imported, and a broken one is refused with every problem as file:line: field: reason', async (t) => {
  const db = await testDb(t);
  const dir = await tempContent(t);
  await mkdir(join(dir, 'forms'));
  await writeFile(join(dir, 'forms/ask.yaml'), GOOD);
  await writeFile(join(dir, 'pages/contact.yaml'), 'id: contact\npageType: contact\ntitle: Contact\nform: ask-form\n');
  await importContent(db, dir);
  const [stored] = await db.query<{ type: string }>(`select type from content_entries where id = 'ask-form'`);
  t.equal(stored?.type, 'form', 'stored as a form entry');
  const before = await currentDigest(db);

  await writeFile(join(dir, 'forms/ask.yaml'), BROKEN);
  const error = await importContent(db, dir).then(() => undefined, (e: unknown) => e);
  t.type(error, ContentError, 'the import is refused');
  const problems = (error as ContentError).problems.map(formatProblem);
  t.ok(problems.some((p) => /^forms\/ask\.yaml:25:\d+: fields\.5\.type: /.test(p)), 'an unknown field type is a schema problem');
  t.equal(await currentDigest(db), before, 'nothing was written');

  // With the schema right, the form's own rules.
  await writeFile(join(dir, 'forms/ask.yaml'), BROKEN.replace('type: rainbow', 'type: text'));
  const second = await importContent(db, dir).then(() => undefined, (e: unknown) => e);
  const rules = (second as ContentError).problems.map(formatProblem);
  for (const expected of [
    /^forms\/ask\.yaml:5:\d+: fields\.0\.audience: an email field is for anonymous visitors/,
    /^forms\/ask\.yaml:11:\d+: fields\.1\.pattern: not a regular expression/,
    /^forms\/ask\.yaml:12:\d+: fields\.2\.name: duplicate field name "subject", already used by field 2/,
    /^forms\/ask\.yaml:12:\d+: fields\.2\.options: is required for select fields/,
    /^forms\/ask\.yaml:15:\d+: fields\.3\.name: "website" is reserved for the form itself/,
    /^forms\/ask\.yaml:18:\d+: fields\.3\.minLength: only text, longText and email fields have lengths and patterns, not checkbox/,
    /^forms\/ask\.yaml:22:\d+: fields\.4\.minLength: is more than maxLength \(3\)/,
    /^forms\/ask\.yaml:3:\d+: subjectField: no field is named "topic"/,
  ]) t.ok(rules.some((p) => expected.test(p)), `reported: ${expected}`);
  t.equal(await currentDigest(db), before, 'nothing was written');

  await writeFile(join(dir, 'forms/ask.yaml'), GOOD);
  await writeFile(join(dir, 'pages/contact.yaml'), 'id: contact\npageType: contact\ntitle: Contact\nform: no-such-form\n');
  const third = await importContent(db, dir).then(() => undefined, (e: unknown) => e);
  t.same((third as ContentError).problems.map(formatProblem), ['pages/contact.yaml:4:7: form: form "no-such-form" does not exist'],
    'a page naming a missing form');

  await writeFile(join(dir, 'pages/contact.yaml'), 'id: contact\npageType: contact\ntitle: Contact\npath: /help/me/contact-us\nform: ask-form\n');
  await writeFile(join(dir, 'pages/legal.yaml'), 'id: legal-form\npageType: legal\npath: /legal/x\ntitle: Legal\nform: ask-form\n');
  const fourth = await importContent(db, dir).then(() => undefined, (e: unknown) => e);
  t.same((fourth as ContentError).problems.map(formatProblem).sort(), [
    'pages/contact.yaml:4:7: path: a contact page with a form lives at /contact, or under one language segment (/ja/contact)',
    'pages/legal.yaml:5:7: form: only contact, hotContact, partnerContact, statusPageContact, fileDownload pages carry a form, not legal',
  ], 'a form page lives where its form can post');
});
