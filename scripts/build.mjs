// Production build: bundles the server and the import and accounts commands into dist/ (dependencies stay in
// node_modules). Assets are hashed and bundled by the server itself at start.
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';

const started = performance.now();
await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: { 'server/server': 'server/main.ts', 'scripts/import-command': 'scripts/import.ts', 'scripts/accounts-command': 'scripts/accounts.ts', 'workers/load-worker': 'server/content/load-worker.ts', 'workers/pglite-worker': 'server/db/pglite-worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  jsx: 'automatic',
  sourcemap: true,
  logLevel: 'warning',
  outExtension: { '.js': '.js' },
});
// React and other libraries choose their production builds from NODE_ENV when they load, which is
// before any code of a bundle runs: each command is a launcher that sets it, then loads the bundle.
const launcher = (bundle) => `process.env.NODE_ENV ??= 'production';\nawait import('./${bundle}');\n`;
await writeFile('dist/server/main.js', launcher('server.js'));
await writeFile('dist/scripts/import.js', launcher('import-command.js'));
await writeFile('dist/scripts/accounts.js', launcher('accounts-command.js'));
console.error(`built dist/ in ${Math.round(performance.now() - started)} ms`);
