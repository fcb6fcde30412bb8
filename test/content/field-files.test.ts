import t from 'tap';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkContent } from '../../server/content/import.ts';
import { formatProblem } from '../../server/content/problems.ts';
import { editFile, tempContent } from '../helpers/build.ts';

/** A logo or favicon in the tree's assets/ folder is stored and served like a body's image. */
t.test("structural fields name files of the tree's assets/ folder", async (t) => {
  const dir = await tempContent(t);
  await editFile(join(dir, 'site.yaml'), 'logo: /assets/content/fernhollow-logo.svg', 'logo: /assets/brand/logo.svg\nfavicon: /assets/brand/mark.svg');
  const missing = await checkContent(dir);
  t.same(missing.problems.map(formatProblem), [
    'site.yaml:7: logo: /assets/brand/logo.svg: no file assets/brand/logo.svg in the content tree',
    'site.yaml:8: favicon: /assets/brand/mark.svg: no file assets/brand/mark.svg in the content tree',
  ]);

  await mkdir(join(dir, 'assets/brand'), { recursive: true });
  await writeFile(join(dir, 'assets/brand/logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" role="img"><title>Test</title></svg>');
  await writeFile(join(dir, 'assets/brand/mark.svg'), '<svg xmlns="http://www.w3.org/2000/svg" role="img"><title>Mark</title></svg>');
  const { problems, plan } = await checkContent(dir);
  t.same(problems.map(formatProblem), []);
  const site = plan.entries.find((e) => e.id === 'site')?.fields as { logo: string; favicon: string };
  t.match(site.logo, /^\/assets\/files\/[0-9a-f]+\/logo\.svg$/);
  t.match(site.favicon, /^\/assets\/files\/[0-9a-f]+\/mark\.svg$/);
  t.ok(['logo.svg', 'mark.svg'].every((n) => plan.files.some((f) => f.name === n)), 'stored with the files bodies use');
});
