// Bundles each test file with the project's own modules into .test-build/ (dependencies stay in
// node_modules), so `npm test` runs plain JavaScript: a TypeScript loader's hooks see every module a
// test process loads, dependencies included, and cost seconds of CPU per process.
// Each module keeps its own import.meta.url, dirname and filename, so paths it builds from them
// (fixtures, workers, views, islands) point where they do in the source tree.
import { build } from 'esbuild';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join, dirname, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

export const OUT = '.test-build';
/** Entry points tests start as child processes (test/helpers/server-process.ts `entryArgs`). */
const CHILDREN = ['server/main.ts', 'scripts/accounts.ts', 'scripts/import.ts', 'scripts/generate-corpus.ts', 'scripts/cluster.ts'];

async function* testFiles(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (path !== join('test', 'fixtures')) yield* testFiles(path);
    } else if (/\.test\.tsx?$/.test(entry.name)) yield path;
  }
}

const ownMeta = {
  name: 'own-import-meta',
  setup(build) {
    build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const contents = source
        .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
        .replace(/\bimport\.meta\.dirname\b/g, JSON.stringify(dirname(args.path)))
        .replace(/\bimport\.meta\.filename\b/g, JSON.stringify(args.path));
      const ext = args.path.slice(args.path.lastIndexOf('.') + 1);
      return { contents, loader: ext === 'mjs' || ext === 'cjs' ? 'js' : ext, resolveDir: dirname(args.path) };
    });
  },
};

export async function buildTests(files) {
  const started = performance.now();
  const entryPoints = files ?? [];
  if (!files) for await (const file of testFiles('test')) entryPoints.push(file);
  entryPoints.push(...CHILDREN);
  await rm(OUT, { recursive: true, force: true });
  await build({
    entryPoints,
    outdir: OUT,
    outbase: '.',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    jsx: 'automatic',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [ownMeta],
  });
  console.error(`bundled ${entryPoints.length - CHILDREN.length} test files and ${CHILDREN.length} commands into ${OUT}/ in ${Math.round(performance.now() - started)} ms`);
  return entryPoints.map((file) => join(OUT, file.replace(/\.tsx?$/, '.mjs')));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildTests();
