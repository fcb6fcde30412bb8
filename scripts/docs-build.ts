/**
 * npm run docs:build [-- OUT]: docs/ as static files for any web host (default ./dist-docs). The help
 * centre runs in this process on a throwaway PGlite directory, and every page of its sitemap, and every
 * same-site page, stylesheet, script, image and file they link, is fetched through app.inject and written
 * where a static host finds it: a page at {path}/index.html, anything else at its own path. Addresses with
 * a query and sign-in are left out: they need the server. PUBLIC_URL is the address it will be served at.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import app, { serverOptions } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { commandsReference, configurationReference, COMMANDS_PAGE, CONFIGURATION_PAGE } from './docs-reference.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface ExportResult {
  pages: string[];
  files: string[];
  bytes: number;
}

/** Where a static host looks for the answer to `path`. */
export function fileFor(path: string, html: boolean): string {
  const clean = decodeURIComponent(path).replace(/\/+$/, '');
  return html || clean === '' ? `${clean}/index.html`.replace(/^\//, '') : clean.replace(/^\//, '');
}

/** Same-site addresses a page or stylesheet refers to, without fragments; `origin` links count as same-site. */
export function referencesIn(body: string, origin: string): string[] {
  const found: string[] = [];
  for (const m of body.matchAll(/\s(?:href|src)="([^"]*)"|url\(\s*['"]?([^'")]+)['"]?\s*\)/g)) {
    let url = (m[1] ?? m[2] ?? '').replace(/&amp;/g, '&').split('#')[0]!;
    if (url.startsWith(origin)) url = url.slice(origin.length) || '/';
    if (url.startsWith('/') && !url.startsWith('//')) found.push(url);
  }
  return found;
}

/** The modules a script loads by relative path (the islands' chunks), as site paths. */
export function importsIn(body: string, path: string): string[] {
  return [...body.matchAll(/(["'])(\.{1,2}\/[\w./-]+\.js)\1/g)].map((m) => new URL(m[2]!, `http://site${path}`).pathname);
}

/** Fetches the site from its sitemap outwards and writes it under `out`. */
export async function exportSite(server: FastifyInstance, out: string, origin: string, identityUrl = '/auth'): Promise<ExportResult> {
  const sitemap = await server.inject('/sitemap.xml');
  if (sitemap.statusCode !== 200) throw new Error(`the sitemap answered ${sitemap.statusCode}`);
  const start = [...sitemap.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&').slice(origin.length) || '/');
  const queue = [...new Set(['/', ...start, '/sitemap.xml', '/robots.txt', '/favicon.ico'])];
  const seen = new Set(queue);
  const result: ExportResult = { pages: [], files: [], bytes: 0 };
  while (queue.length > 0) {
    const path = queue.shift()!;
    const res = await server.inject(path);
    if (res.statusCode !== 200) continue;
    const type = String(res.headers['content-type'] ?? '');
    const html = type.startsWith('text/html');
    const file = fileFor(path, html);
    await mkdir(dirname(join(out, file)), { recursive: true });
    await writeFile(join(out, file), res.rawPayload);
    result.bytes += res.rawPayload.length;
    (html ? result.pages : result.files).push(file);
    const script = /javascript/.test(type);
    if (!html && !script && !type.startsWith('text/css')) continue;
    for (const ref of script ? importsIn(res.body, path) : referencesIn(res.body, origin)) {
      if (ref.includes('?') || ref === identityUrl || ref.startsWith(`${identityUrl}/`) || seen.has(ref)) continue;
      seen.add(ref);
      queue.push(ref);
    }
  }
  // Static hosts answer an unknown path with 404.html: the site's own not-found page.
  const missing = await server.inject('/this-page-does-not-exist');
  if (missing.statusCode === 404 && String(missing.headers['content-type']).startsWith('text/html')) {
    await writeFile(join(out, '404.html'), missing.rawPayload);
    result.pages.push('404.html');
  }
  return result;
}

async function main(): Promise<void> {
  const out = resolve(process.argv[2] ?? join(ROOT, 'dist-docs'));
  const { writeFileSync } = await import('node:fs');
  writeFileSync(CONFIGURATION_PAGE, configurationReference());
  writeFileSync(COMMANDS_PAGE, commandsReference());
  const dataDir = await mkdtemp(join(tmpdir(), 'signpost-docs-build-'));
  const config = loadConfig({
    ...process.env, CONTENT_DIR: join(ROOT, 'docs'), DATA_DIR: dataDir, DATABASE_URL: '', DATABASE_READ_URL: '',
    IMPORT_ON_START: 'true', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:4100',
  });
  const server = Fastify({ ...serverOptions, logger: { level: config.logLevel } });
  try {
    await server.register(app, { config });
    await server.ready();
    await server.contentReady;
    await rm(out, { recursive: true, force: true });
    const result = await exportSite(server, out, config.publicUrl, config.identityUrl);
    console.log(`${out}: ${result.pages.length} pages and ${result.files.length} other files, ${(result.bytes / 1024 / 1024).toFixed(1)} MB, for ${config.publicUrl}`);
  } finally {
    await server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
