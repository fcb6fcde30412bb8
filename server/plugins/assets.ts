import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { build } from 'esbuild';
import { compressAll, ifNoneMatch, negotiateEncoding, type Encoding } from '../http/encoding.ts';
import { projectRoot } from '../paths.ts';

declare module 'fastify' {
  interface FastifyInstance {
    assets: {
      css: string;
      js: string;
      /** Per island name (views/islands/names.ts), every script path its module loads: its chunk and what that imports. */
      islands: Record<string, string[]>;
      /** The chunks the entry itself imports (esbuild's shared runtime): preloaded beside it, not found only once it runs. */
      entryImports: string[];
    };
  }
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files under /assets/content/ keep their names when they change: a day, then revalidated by ETag. */
const CONTENT_LIFETIME = 'public, max-age=86400';
const JS = 'text/javascript; charset=utf-8';

/** A file as it is sent: its bytes, and their brotli and gzip forms where those are smaller. */
export interface PreparedAsset {
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
}

/**
 * The brotli and gzip forms of bodies this process has compressed, by the SHA-256 of the body: an app
 * started again in the same process (a test process starts many) prepares the same islands, stylesheet
 * and content files, and brotli at its highest level costs seconds of CPU on them. The forms depend on
 * the bytes alone. At most KEPT_BYTES of forms are kept, the least recently used going first, so a
 * content tree of large files (images, whose forms are often no smaller) is not held twice.
 */
export const compressedForms = new Map<string, Record<Encoding, Buffer>>();
const KEPT_BYTES = 32 * 1024 * 1024;
let keptBytes = 0;
const sizeOf = (forms: Record<Encoding, Buffer>) => forms.br.length + forms.gzip.length;

async function compressedOnce(body: Buffer, digest: string): Promise<Record<Encoding, Buffer>> {
  const forms = compressedForms.get(digest) ?? await compressAll(body);
  keepCompressedForms(digest, forms);
  return forms;
}

/** Keeps the forms of a body by its digest (the test helpers load forms other processes made). */
export function keepCompressedForms(digest: string, forms: Record<Encoding, Buffer>): void {
  const known = compressedForms.get(digest);
  if (known) {
    // Taken out and put back, so the most recently used is last.
    compressedForms.delete(digest);
    keptBytes -= sizeOf(known);
  }
  compressedForms.set(digest, forms);
  keptBytes += sizeOf(forms);
  for (const [oldest, kept] of compressedForms) {
    if (keptBytes <= KEPT_BYTES) break;
    compressedForms.delete(oldest);
    keptBytes -= sizeOf(kept);
  }
}

export async function prepare(body: Buffer, type: string, cacheControl: string): Promise<PreparedAsset> {
  const digest = createHash('sha256').update(body).digest('base64url');
  // Compressed once, at start: the time is paid once per file, not per response (server/http/encoding.ts).
  const { br, gzip: gz } = await compressedOnce(body, digest);
  // One validator for every encoding of the file: the encodings are the same content (weak comparison,
  // RFC 9110 §8.8.3), and Vary keeps caches from handing one to a client that asked for another.
  const etag = `"${digest.slice(0, 27)}"`;
  return {
    body, type, etag, cacheControl,
    ...(br.length < body.length ? { br } : {}),
    ...(gz.length < body.length ? { gzip: gz } : {}),
  };
}

export function sendPrepared(request: FastifyRequest, reply: FastifyReply, asset: PreparedAsset): FastifyReply {
  reply.header('cache-control', asset.cacheControl).header('etag', asset.etag);
  if (asset.br || asset.gzip) reply.header('vary', 'accept-encoding');
  if (ifNoneMatch(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
  const encoding = negotiateEncoding(request.headers['accept-encoding'], asset);
  reply.type(asset.type);
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? asset[encoding] : asset.body);
}

/** Text types under /assets/content/ worth compressing; anything else (PNG, JPEG, WebP, PDF) already is. */
const COMPRESSIBLE: Record<string, string> = {
  '.svg': 'image/svg+xml', '.css': 'text/css; charset=utf-8', '.js': JS, '.mjs': JS, '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8', '.xml': 'application/xml', '.csv': 'text/csv; charset=utf-8',
};
/** Larger text files are streamed from disk as they are rather than held in memory. */
const MAX_HELD_BYTES = 1024 * 1024;

interface HeldFile extends PreparedAsset { mtimeMs: number; size: number }

/** Every compressible file under dir, keyed by its path below it; unchanged files keep their compressed forms. */
async function scanContentFiles(dir: string, previous: Map<string, HeldFile>): Promise<Map<string, HeldFile>> {
  const held = new Map<string, HeldFile>();
  let entries: string[];
  try {
    entries = await readdir(dir, { recursive: true });
  } catch {
    return held;
  }
  for (const entry of entries) {
    const type = COMPRESSIBLE[extname(entry).toLowerCase()];
    const key = entry.split(sep).join('/');
    if (!type || key.split('/').some((part) => part.startsWith('.'))) continue;
    const path = join(dir, entry);
    const info = await stat(path).catch(() => undefined);
    if (!info?.isFile() || info.size > MAX_HELD_BYTES) continue;
    const old = previous.get(key);
    if (old && old.mtimeMs === info.mtimeMs && old.size === info.size) {
      held.set(key, old);
      continue;
    }
    const body = await readFile(path).catch(() => undefined);
    if (!body) continue;
    held.set(key, { ...(await prepare(body, type, CONTENT_LIFETIME)), mtimeMs: info.mtimeMs, size: info.size });
  }
  return held;
}

/**
 * The browser's scripts: islands/main.ts and, split from it, one chunk per island (loaded by import()
 * where a page has that island) and the chunks they share (React). Built in memory; nothing is written.
 */
export async function buildIslands() {
  const outdir = join(projectRoot, 'assets/islands');
  const entryPoint = 'islands/main.ts';
  if (lastIslands && (await unchanged(lastIslands.inputs))) return { bundle: lastIslands.bundle, outdir, entryPoint };
  const bundle = await build({
    entryPoints: [join(projectRoot, entryPoint)],
    bundle: true, splitting: true, minify: true, format: 'esm', target: 'es2020', write: false, logLevel: 'silent',
    absWorkingDir: projectRoot, outdir, entryNames: '[name].[hash]', chunkNames: 'chunks/[name].[hash]', metafile: true,
    // React's production build, whatever NODE_ENV the server runs with: the browser never gets the development one.
    define: { 'process.env.NODE_ENV': '"production"' }, jsx: 'automatic',
  });
  const inputs = await Promise.all(Object.keys(bundle.metafile.inputs).map(async (file) => {
    const info = await stat(join(projectRoot, file)).catch(() => undefined);
    return { file, mtimeMs: info?.mtimeMs ?? -1, size: info?.size ?? -1 };
  }));
  lastIslands = { bundle, inputs };
  return { bundle, outdir, entryPoint };
}

/**
 * The last bundle this process built and the files it was built from, as they were: an app started
 * again in the same process (a test process starts many) reuses it while every one of those files is
 * unchanged, rather than bundling the same sources again.
 */
let lastIslands: { bundle: Awaited<ReturnType<typeof build<{ write: false; metafile: true }>>>; inputs: { file: string; mtimeMs: number; size: number }[] } | undefined;

async function unchanged(inputs: { file: string; mtimeMs: number; size: number }[]): Promise<boolean> {
  for (const input of inputs) {
    const info = await stat(join(projectRoot, input.file)).catch(() => undefined);
    if (!info || info.mtimeMs !== input.mtimeMs || info.size !== input.size) return false;
  }
  return true;
}

/**
 * Stylesheet and island scripts, served under content-hashed names with long cache lifetimes; files
 * referenced by content (/assets/content/…) are served under their own names, revalidated by ETag.
 * Nothing is compressed per response: each text file's brotli and gzip forms are made once and picked by
 * Accept-Encoding (routes opt out of @fastify/compress).
 */
export default fp(async (app) => {
  // Every stylesheet in assets/css, in name order, as one file: one request, no render-blocking chain.
  const cssDir = join(projectRoot, 'assets/css');
  const sheets = (await readdir(cssDir)).filter((f) => f.endsWith('.css')).sort();
  const css = Buffer.concat(await Promise.all(sheets.map((f) => readFile(join(cssDir, f)))));
  const hash = (b: Buffer) => createHash('sha256').update(b).digest('hex').slice(0, 12);
  const files = new Map([[`/assets/main.${hash(css)}.css`, { body: css, type: 'text/css; charset=utf-8' }]]);
  const cssPath = [...files.keys()][0] as string;

  const { bundle, outdir, entryPoint } = await buildIslands();
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

  // What each island costs a page: the output whose entry point is islands/<name>.ts(x), and every chunk
  // it imports statically (React, shared code), as the paths they are served at.
  const servedPath = (output: string) => `/assets/${posix(outdir, join(projectRoot, output))}`;
  const loadedWith = (output: string) => {
    const needed = new Set<string>();
    const visit = (file: string) => {
      if (needed.has(file)) return;
      needed.add(file);
      for (const imported of bundle.metafile.outputs[file]?.imports ?? []) {
        if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
      }
    };
    visit(output);
    return needed;
  };
  const islandFiles: Record<string, string[]> = {};
  let entryImports: string[] = [];
  for (const [output, meta] of Object.entries(bundle.metafile.outputs)) {
    if (meta.entryPoint === entryPoint) entryImports = [...loadedWith(output)].filter((file) => file !== output).map(servedPath);
    const name = /^islands\/([\w-]+)\.tsx?$/.exec(meta.entryPoint ?? '')?.[1];
    if (!name || meta.entryPoint === entryPoint || output.endsWith('.map')) continue;
    islandFiles[name] = [...loadedWith(output)].map(servedPath);
  }

  app.decorate('assets', { css: cssPath, js: jsPath, islands: islandFiles, entryImports });
  const prepared = await Promise.all([...files].map(async ([path, file]) => [path, await prepare(file.body, file.type, IMMUTABLE)] as const));
  for (const [path, asset] of prepared) {
    app.get(path, { compress: false }, async (request, reply) => sendPrepared(request, reply, asset));
  }

  // Files under /assets/content/ ship with the site beside the code and are few and small; text ones are
  // held in memory with their compressed forms, made at start (simpler than writing .br/.gz files beside
  // them for @fastify/static's preCompressed, and nothing is written into the source tree). They are
  // scanned again when the content changes, so a file changed with the content it belongs to is served
  // fresh. Anything else, or a file added since, is streamed from disk by @fastify/static as before.
  const contentDir = join(projectRoot, 'assets/content');
  let held = await scanContentFiles(contentDir, new Map());
  // One scan at a time; a change that arrives during a scan is followed by one more scan after it.
  let scanning = false;
  let again = false;
  const rescan = async () => {
    if (scanning) {
      again = true;
      return;
    }
    scanning = true;
    try {
      do {
        again = false;
        held = await scanContentFiles(contentDir, held);
      } while (again);
    } catch (error) {
      app.log.warn({ err: error }, 'assets: rescanning /assets/content/ failed; keeping the files held');
    } finally {
      scanning = false;
    }
  };
  app.content.onInvalidate(() => void rescan());
  await app.register(async (scope) => {
    await scope.register(fastifyStatic, { root: contentDir, serve: false, maxAge: '1d', index: false });
    scope.get('/assets/content/*', { compress: false }, async (request, reply) => {
      const path = (request.params as { '*': string })['*'];
      const file = held.get(path);
      return file ? sendPrepared(request, reply, file) : reply.sendFile(path);
    });
  });
}, { name: 'assets', dependencies: ['content'] });
