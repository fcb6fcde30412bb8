/**
 * The script of a worker thread. The production build ships each worker as `dist/workers/{name}.js`
 * beside the bundles that start it (scripts/build.mjs). Run from source, worker threads get no
 * TypeScript loader (tsx registers itself on the main thread only), so the worker is bundled with
 * esbuild into node_modules/.cache/signpost/ first, once per process.
 */
import { createHash } from 'node:crypto';
import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const built = new Map<string, Promise<URL>>();

/** `source` is the worker's TypeScript entry (`new URL('./x-worker.ts', import.meta.url)` in its caller). */
export function workerUrl(name: string, source: URL): Promise<URL> {
  if (!import.meta.url.endsWith('.ts')) return Promise.resolve(new URL(`../workers/${name}.js`, import.meta.url));
  let url = built.get(name);
  if (!url) {
    url = bundle(name, source);
    built.set(name, url);
    url.catch(() => built.delete(name));
  }
  return url;
}

async function bundle(name: string, source: URL): Promise<URL> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [fileURLToPath(source)],
    bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'warning', write: false,
  });
  const contents = result.outputFiles[0]?.contents ?? new Uint8Array();
  // Named by its contents: checkouts sharing node_modules (worktrees) never load each other's worker.
  const digest = createHash('sha256').update(contents).digest('hex').slice(0, 16);
  const outfile = fileURLToPath(new URL(`../node_modules/.cache/signpost/${name}.${digest}.mjs`, import.meta.url));
  if (await access(outfile).then(() => true, () => false)) return pathToFileURL(outfile);
  // Written aside and renamed, so processes starting at once never load a half-written file.
  await mkdir(dirname(outfile), { recursive: true });
  const partial = `${outfile}.${process.pid}`;
  await writeFile(partial, contents);
  await rename(partial, outfile);
  return pathToFileURL(outfile);
}
