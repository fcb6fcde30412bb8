import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import t from 'tap';
import vnuJar from 'vnu-jar';
import { parseMarkdown } from '../../server/content/markdown.ts';
import { renderRichText } from '../../views/rich-text/rich-text.tsx';

const run = promisify(execFile);
const FIXTURES = new URL('../fixtures/markdown/', import.meta.url);

function body(name: string): string {
  const parsed = parseMarkdown(readFileSync(new URL(name, FIXTURES), 'utf8'), { idPrefix: name.replace(/\W/g, '-'), videoHosts: ['video.example'] });
  return renderRichText(parsed.document, parsed.embedded);
}

/** Tab ids come from their labels, like heading ids: a body shown twice repeats them too. */
const withoutTabIds = (html: string) => html.replaceAll(/ id="(tabs-panel-)?(macos|linux)"/g, '');

/**
 * Every construct a body may hold, rendered, is valid HTML by the Nu Html Checker: the sanitised raw
 * HTML, task lists, footnotes, tabs, figures, videos and icons, several bodies on one page (their
 * generated ids do not collide).
 */
t.test('the rendered constructs are valid HTML, several bodies to a page', async (t) => {
  const html = ['accepted/html.md', 'accepted/constructs.md', 'accepted/admonitions.md', 'refused/unsafe-html.md', 'accepted/constructs.md']
    .map((name, i, all) => `<div class="rich-text">${i === all.length - 1 ? withoutTabIds(body(name)) : body(name)}</div>`).join('');
  const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
  // Author-given ids (footnotes, `{#setup}`) repeat when one body is shown twice; generated ids must not.
  const generated = ids.filter((id) => id?.startsWith(':'));
  t.equal(new Set(generated).size, generated.length, 'generated ids are unique on the page');
  const dir = await mkdtemp(join(tmpdir(), 'signpost-body-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'body.html');
  const page = (content: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Body</title></head><body><main><h1>Body</h1>${content}</main></body></html>`;
  await writeFile(file, page(html.replaceAll(/ id="(fn(ref)?-[^"]+|setup)"/g, '')));
  const canary = join(dir, 'canary.html');
  await writeFile(canary, page('<input type="checkbox" readonly>'));
  let output = '';
  try {
    output = (await run('java', ['-jar', String(vnuJar), '--format', 'json', '--errors-only', file, canary], { maxBuffer: 16 << 20 })).stderr;
  } catch (error) {
    const failure = error as { code?: string | number; stderr?: string };
    if (failure.code === 'ENOENT') throw new Error('No Java runtime for the HTML checker: install one (Debian: apt-get install openjdk-17-jre-headless).');
    output = failure.stderr ?? '';
  }
  const messages = (JSON.parse(output || '{"messages":[]}') as { messages: { type: string; url?: string; message: string; extract?: string }[] }).messages
    .filter((m) => m.type === 'error');
  t.ok(messages.some((m) => m.url?.endsWith('canary.html')), 'the checker reports the known error of the canary page');
  t.same(messages.filter((m) => !m.url?.endsWith('canary.html')).map((m) => `${m.message} (${m.extract?.trim().slice(0, 80)})`), []);
});
