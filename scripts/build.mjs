// Production build: bundles the server and the import command into dist/ (dependencies stay in
// node_modules). Assets are hashed and bundled by the server itself at start.
import { build } from 'esbuild';
import { rm } from 'node:fs/promises';

const started = performance.now();
await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: { 'server/main': 'server/main.ts', 'scripts/import': 'scripts/import.ts', 'workers/load-worker': 'server/content/load-worker.ts' },
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
console.error(`built dist/ in ${Math.round(performance.now() - started)} ms`);
