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
  const bundle = await build({
    entryPoints: [join(projectRoot, 'islands/main.ts')],
    bundle: true, splitting: true, minify: true, format: 'esm', target: 'es2020', write: false, logLevel: 'silent',
    absWorkingDir: projectRoot, outdir, entryNames: '[name].[hash]', chunkNames: 'chunks/[name].[hash]', metafile: true,
  });
  let jsPath = '';
  for (const file of bundle.outputFiles) {
    const name = relative(outdir, file.path).split(sep).join('/');
    const body = Buffer.from(file.contents);
    // The entry keeps the name pages have always linked (islands.<sha-256>, like the stylesheet); its bytes
    // name its chunks by their hashes, so a changed chunk changes the entry's name too.
    const entry = bundle.metafile.outputs[relative(projectRoot, file.path).split(sep).join('/')]?.entryPoint !== undefined;
    const path = entry ? `/assets/islands.${hash(body)}.js` : `/assets/${name}`;
    if (entry) jsPath = path;
    files.set(path, { body, type: JS });
  }
  if (!jsPath) throw new Error('assets: esbuild produced no entry for islands/main.ts');

  app.decorate('assets', { css: cssPath, js: jsPath });
  for (const [path, file] of files) {
    app.get(path, async (_req, reply) => reply.header('cache-control', IMMUTABLE).type(file.type).send(file.body));
  }
  await app.register(fastifyStatic, {
    root: join(projectRoot, 'assets/content'), prefix: '/assets/content/', decorateReply: false,
    maxAge: '1d', index: false,
  });
}, { name: 'assets' });
