import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { checkContent } from '../../server/content/import.ts';
import { formatProblem } from '../../server/content/problems.ts';
import { colourProblem, themeCss } from '../../server/content/theme.ts';
import { deploymentValue, DEFAULT_DEPLOYMENTS } from '../../server/content/deployments.ts';

const SECOND_VENDOR = join(import.meta.dirname, '../fixtures/second-vendor');

async function edited(t: { teardown: (fn: () => unknown) => void }, edits: Record<string, (text: string) => string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'site-checks-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await cp(SECOND_VENDOR, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) await writeFile(join(dir, file), edit(await readFile(join(dir, file), 'utf8')));
  return dir;
}

t.test('deployment labels, end-of-support products and colours are checked against site.yaml', async (t) => {
  const dir = await edited(t, {
    'products/quillbook-saas.yaml': (s) => s.replace('deployment: SaaS', 'deployment: Cloud'),
    'kb/quillbook/sync-stalls.md': (s) => s.replace('platform: Self-managed', 'platform: Data Center'),
    'site.yaml': (s) => s.replace('products: [quillbook]', 'products: [quillbook, inkwell]')
      .replace('accentText: "#fffbe6"', 'accentText: "red; } body { display: none"')
      .replace('aliases: [Self-managed]', 'aliases: [Self-managed, SaaS]'),
  });
  const { problems } = await checkContent(dir);
  t.same(problems.map(formatProblem), [
    'kb/quillbook/sync-stalls.md:10:49: productVersions.1.platform: "Data Center" is not one of the site\'s deployments (SaaS, On-premises) (site.yaml deployments lists them)',
    'products/quillbook-saas.yaml:5:13: deployment: "Cloud" is not one of the site\'s deployments (SaaS, On-premises) (site.yaml deployments lists them)',
    'site.yaml:11:71: deployments.1.aliases.1: "SaaS" already names the cloud deployment',
    'site.yaml:17:27: endOfSupport.0.products.1: no product has productNameId "inkwell" (known: quillbook)',
    'site.yaml:20:15: theme.accentText: "red; } body { display: none" is not a CSS colour (a hex colour such as #0c66e4, or rgb(), hsl(), oklch() …)',
  ]);
});

t.test('the ask-the-community template must be a web address with {tags}', async (t) => {
  const dir = await edited(t, { 'site.yaml': (s) => s.replace('communityUrl: https://forum.larkspur.test',
    'communityUrl: https://forum.larkspur.test\naskCommunityUrl: https://forum.larkspur.test/new?tags=quillbook') });
  const { problems } = await checkContent(dir);
  t.match(problems.map(formatProblem), [/^site\.yaml:23:\d+: askCommunityUrl: must be an http\(s\):\/\/ address with \{tags\}/]);
});

t.test('the second vendor tree has no problems', async (t) => {
  const { problems } = await checkContent(SECOND_VENDOR);
  t.same(problems.map(formatProblem), []);
});

t.test('colours and the theme stylesheet', async (t) => {
  for (const ok of ['#abc', '#0c66e4', '#0c66e4cc', 'rgb(12 102 228)', 'rgba(12, 102, 228, .5)', 'hsl(210deg 90% 47%)', 'oklch(55% 0.2 260)']) {
    t.equal(colourProblem(ok), null, ok);
  }
  for (const bad of ['red', '#12', 'url(x)', 'rgb(1 2 3); color: red', 'rgb(1 2 3)}', 'expression(alert(1))', '#0c66e4;']) {
    t.ok(colourProblem(bad), bad);
  }
  t.equal(themeCss(undefined), null);
  t.equal(themeCss({}), null);
  t.equal(themeCss({ accent: '#112233', background: '#fff' }), ':root {\n  --link: #112233;\n  --focus: #112233;\n  --accent: #112233;\n  --bg: #fff;\n}\n');
});

t.test('default deployment labels keep the sample content\'s names', async (t) => {
  t.equal(deploymentValue(DEFAULT_DEPLOYMENTS, 'Cloud'), 'cloud');
  t.equal(deploymentValue(DEFAULT_DEPLOYMENTS, 'Data Center'), 'data_center');
  t.equal(deploymentValue(DEFAULT_DEPLOYMENTS, 'Server'), 'data_center');
  t.equal(deploymentValue(DEFAULT_DEPLOYMENTS, 'On-premises'), undefined);
});
