import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { build } from 'esbuild';
import { projectRoot } from '../paths.ts';

declare module 'fastify' {
  interface FastifyInstance {
    assets: { css: string; js: string };
  }
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const JS = 'text/javascript; charset=utf-8';

/**
 * Stylesheet and island scripts, served under content-hashed names with long cache lifetimes;
 * files referenced by content (/assets/content/…) are served as they are.
 */
export default fp(async (app) => {
  // Every stylesheet in assets/css, in name order, as one file: one request, no render-blocking chain.
  const cssDir = join(projectRoot, 'assets/css');
  const sheets = (await readdir(cssDir)).filter((f) => f.endsWith('.css')).sort();
  const css = Buffer.concat(await Promise.all(sheets.map((f) => readFile(join(cssDir, f)))));
  const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 12);
  const files = new Map([[`/assets/main.${hash(css)}.css`, { body: css, type: 'text/css; charset=utf-8' }]]);
  const cssPath = [...files.keys()][0] as string;

  // Islands are split: what a page type alone needs (htmx, for search) is a chunk loaded by import(),
  // so other pages never download it. Built in memory at start-up; nothing is written.
  const outdir = join(projectRoot, 'assets/islands');
  const entryPoint = 'islands/main.ts';
  const bundle = await build({
    entryPoints: [join(projectRoot, entryPoint)],
    bundle: true, splitting: true, minify: true, format: 'esm', target: 'es2020', write: false, logLevel: 'silent',
    absWorkingDir: projectRoot, outdir, entryNames: '[name].[hash]', chunkNames: 'chunks/[name].[hash]', metafile: true,
  });
  const posix = (from: string, to: string) => relative(from, to).split(sep).join('/');
  let jsPath = '';
  for (const file of bundle.outputFiles) {
    const body = Buffer.from(file.contents);
    // A module loaded by import() is the entry point of its own chunk in the metafile; ours is main.ts.
    const isEntry = bundle.metafile.outputs[posix(projectRoot, file.path)]?.entryPoint === entryPoint;
    // The entry keeps the name pages have always linked (islands.<sha-256>, like the stylesheet); its bytes
    // name its chunks by their hashes, so a changed chunk changes its name too. Chunks are served where
    // the entry's relative import() finds them.
    const path = isEntry ? `/assets/islands.${hash(body)}.js` : `/assets/${posix(outdir, file.path)}`;
    if (isEntry) jsPath = path;
    files.set(path, { body, type: JS });
  }
  if (!jsPath) throw new Error(`assets: esbuild produced no output for ${entryPoint}`);

  app.decorate('assets', { css: cssPath, js: jsPath });
  for (const [path, file] of files) {
    app.get(path, async (_req, reply) => reply.header('cache-control', IMMUTABLE).type(file.type).send(file.body));
  }
  await app.register(fastifyStatic, {
    root: join(projectRoot, 'assets/content'), prefix: '/assets/content/', decorateReply: false,
    maxAge: '1d', index: false,
  });
}, { name: 'assets' });
