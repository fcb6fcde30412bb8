/**
 * The browser's scripts: one entry, a module per island loaded only where a page has that island, React
 * in a chunk they share, nothing of the server or the strings catalogue, and the islands a page has
 * preloaded with it.
 */
import t from 'tap';
import { buildIslands } from '../../server/plugins/assets.ts';
import { ISLAND_NAMES } from '../../views/islands/names.ts';
import { build, SAMPLE_CONTENT } from '../helpers/build.ts';

t.test('the bundle', async (t) => {
  const { bundle, entryPoint } = await buildIslands();
  const inputs = Object.keys(bundle.metafile.inputs);
  t.same(inputs.filter((file) => /^(server|scripts|content)\//.test(file) || file.startsWith('views/i18n/') || file.startsWith('node:')), [],
    'no server code, no strings catalogue, no Node module reaches the browser');
  t.ok(inputs.some((file) => file.includes('node_modules/react-dom/cjs/react-dom.production.min.js')), "React's production build is bundled");
  t.notOk(inputs.some((file) => file.includes('development')), 'no development build is bundled');

  const outputs = Object.entries(bundle.metafile.outputs).filter(([file]) => !file.endsWith('.map'));
  const islands = new Map(outputs.map(([file, meta]) => [/^islands\/([\w-]+)\.tsx?$/.exec(meta.entryPoint ?? '')?.[1], { file, meta }]));
  for (const name of ISLAND_NAMES) t.ok(islands.get(name), `island ${name} is a module of its own`);
  const entry = outputs.find(([, meta]) => meta.entryPoint === entryPoint);
  t.ok(entry, 'the entry is built');
  // It holds when each island hydrates and the replay of a first interaction, nothing of React.
  t.ok((entry?.[1].bytes ?? Infinity) < 6000, `the entry is small (${entry?.[1].bytes} bytes): React is not in it`);
  // esbuild's own module helpers may be a chunk the entry shares with the islands; nothing else may be.
  const before = (entry?.[1].imports ?? []).filter((i) => i.kind === 'import-statement').flatMap((i) => Object.keys(bundle.metafile.outputs[i.path]?.inputs ?? {}));
  t.same(before, [], 'the entry loads no source module before it runs');
  const react = outputs.find(([, meta]) => Object.keys(meta.inputs).some((file) => file.includes('react-dom.production.min.js')));
  t.ok(react && react[1].entryPoint === undefined, 'React is a shared chunk, not part of any one island');
  const analytics = outputs.find(([, meta]) => meta.entryPoint === 'islands/analytics.ts');
  t.ok(analytics && analytics[1].bytes < 6000 && Object.keys(analytics[1].inputs).length === 1,
    `the analytics script every page loads is one small chunk of its own (${analytics?.[1].bytes} bytes)`);
});

t.test('a page preloads the modules of the islands it hydrates at once, and only those', async (t) => {
  const app = await build(t, { contentDir: SAMPLE_CONTENT });
  for (const path of ['/', '/search-results/?searchTerm=filter', '/contact']) {
    const html = (await app.inject(path)).body;
    const head = html.slice(0, html.indexOf('</head>'));
    const preloaded = [...head.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1] ?? '');
    const all = [...html.matchAll(/ data-island="([\w-]+)"([^>]*)>/g)];
    t.same(all.filter((m) => !/ data-hydrate="(load|visible|idle|interaction)"/.test(m[2] ?? '')).map((m) => m[1]), [], `${path}: every island says when it hydrates`);
    const names = new Set(all.filter((m) => (m[2] ?? '').includes('data-hydrate="load"')).map((m) => m[1] ?? ''));
    const expected = new Set([...app.assets.entryImports, ...[...names].flatMap((name) => app.assets.islands[name] ?? [])]);
    t.same(new Set(preloaded), expected, `${path}: the preloads are the entry's own chunk and the modules of its islands (${[...names].join(', ')})`);
    t.equal(preloaded.length, new Set(preloaded).size, `${path}: each module once`);
    for (const file of preloaded) {
      const res = await app.inject(file);
      t.equal(res.statusCode, 200, `${file} is served`);
      t.match(res.headers['content-type'], /javascript/, `${file} is JavaScript`);
    }
  }
  const head = (path: string) => app.inject(path).then((res) => res.body.slice(0, res.body.indexOf('</head>')));
  const topic = [...(await head('/tracklight-cloud/docs/write-rich-issue-descriptions')).matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1] ?? '');
  t.same(topic, app.assets.entryImports, 'a topic, whose islands all wait, preloads only what the entry imports itself: React is not fetched before it is needed');
  t.ok(app.assets.entryImports.every((file) => !Object.values(app.assets.islands).some((files) => files[0] === file)), 'no island module is among them');
  const entryImported = app.assets.entryImports.map((file) => file.slice('/assets/'.length));
  const entryJs = (await app.inject(app.assets.js)).body;
  t.ok(entryImported.every((file) => entryJs.includes(`"./${file}"`)), `the entry imports each of them (${entryImported.join(', ')})`);
  t.match(await head('/contact'), `href="${(app.assets.islands['support-form'] ?? ['none'])[0]}"`, 'a support form, enhanced at once, is preloaded');
});
