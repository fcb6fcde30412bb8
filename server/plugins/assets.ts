import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
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

/**
 * Stylesheet and island bundle, served under content-hashed names with long cache lifetimes;
 * files referenced by content (/assets/content/…) are served as they are.
 */
export default fp(async (app) => {
  // Every stylesheet in assets/css, in name order, as one file: one request, no render-blocking chain.
  const cssDir = join(projectRoot, 'assets/css');
  const sheets = (await readdir(cssDir)).filter((f) => f.endsWith('.css')).sort();
  const css = Buffer.concat(await Promise.all(sheets.map((f) => readFile(join(cssDir, f)))));
  const bundle = await build({
    entryPoints: [join(projectRoot, 'islands/main.ts')],
    bundle: true, minify: true, format: 'esm', target: 'es2020', write: false, logLevel: 'silent',
  });
  const js = Buffer.from(bundle.outputFiles[0]?.contents ?? new Uint8Array());
  const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 12);
  const files = new Map([
    [`/assets/main.${hash(css)}.css`, { body: css, type: 'text/css; charset=utf-8' }],
    [`/assets/islands.${hash(js)}.js`, { body: js, type: 'text/javascript; charset=utf-8' }],
  ]);
  const [cssPath, jsPath] = [...files.keys()] as [string, string];
  app.decorate('assets', { css: cssPath, js: jsPath });
  for (const [path, file] of files) {
    app.get(path, async (_req, reply) => reply.header('cache-control', IMMUTABLE).type(file.type).send(file.body));
  }
  await app.register(fastifyStatic, {
    root: join(projectRoot, 'assets/content'), prefix: '/assets/content/', decorateReply: false,
    maxAge: '1d', index: false,
  });
}, { name: 'assets' });
