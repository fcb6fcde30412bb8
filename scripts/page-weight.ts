/**
 * What a page costs a first visit, as the server sends it to a browser that accepts brotli (bodies, no
 * images): the HTML, its stylesheets, and the scripts that run before any interaction: the islands entry
 * with what it imports, analytics, and every island that hydrates without one ('load', 'idle', and
 * 'visible', counted as if it were in the first screen) with its chunks (React among them). Then, per
 * island that waits for an interaction, what its first interaction adds. Used by `npm run bench:pages`
 * (scripts/bench-budgets.ts) and the budget test (test/scripts/page-weight.test.ts).
 */
import type { FastifyInstance } from 'fastify';

export interface PageWeight {
  html: number;
  css: number;
  /** JavaScript before any interaction, and the files it is. */
  js: number;
  scripts: string[];
  /** html + css + js. */
  total: number;
  /** Per island waiting for an interaction: the bytes its first interaction adds. */
  onInteraction: Record<string, number>;
}

const WAITING_FOR_INTERACTION = 'interaction';

export async function pageWeight(app: FastifyInstance, url: string, headers: Record<string, string> = {}): Promise<PageWeight> {
  const sizes = new Map<string, number>();
  const served = async (path: string) => {
    const known = sizes.get(path);
    if (known !== undefined) return known;
    const res = await app.inject({ url: path, headers: { ...headers, 'accept-encoding': 'br' } });
    if (res.statusCode !== 200) throw new Error(`${path} answered ${res.statusCode}`);
    sizes.set(path, res.rawPayload.length);
    return res.rawPayload.length;
  };
  const page = await app.inject({ url, headers: { ...headers, 'accept-encoding': 'br' } });
  if (page.statusCode !== 200) throw new Error(`${url} answered ${page.statusCode}`);
  const html = page.rawPayload.length;
  const body = (await app.inject({ url, headers })).body;

  let css = 0;
  for (const match of body.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)) css += await served(match[1] ?? '');

  // The entry and the chunks it imports statically (esbuild's helpers), then analytics.
  const loaded = new Set<string>();
  const entry = /<script type="module" src="([^"]+)"/.exec(body)?.[1];
  if (entry) {
    loaded.add(entry);
    const source = (await app.inject({ url: entry, headers })).body;
    for (const match of source.matchAll(/import[^("']*?["'](\.\/chunks\/[^"']+)["']/g)) loaded.add(new URL(match[1] ?? '', `http://x${entry}`).pathname);
    for (const file of app.assets.islands.analytics ?? []) loaded.add(file);
  }
  const waiting: string[] = [];
  for (const match of body.matchAll(/ data-island="([\w-]+)"([^>]*)>/g)) {
    const name = match[1] ?? '';
    const when = / data-hydrate="(\w+)"/.exec(match[2] ?? '')?.[1] ?? 'load';
    if (when === WAITING_FOR_INTERACTION) waiting.push(name);
    else for (const file of app.assets.islands[name] ?? []) loaded.add(file);
  }
  let js = 0;
  for (const file of loaded) js += await served(file);

  const onInteraction: Record<string, number> = {};
  for (const name of new Set(waiting)) {
    let more = 0;
    const files = new Set(app.assets.islands[name] ?? []);
    // What its module loads by import() as it starts (htmx, for search) is part of that interaction too.
    const [own] = files;
    if (own) {
      const source = (await app.inject({ url: own, headers })).body;
      for (const match of source.matchAll(/import\(["'](\.{1,2}\/[^"']+)["']\)/g)) files.add(new URL(match[1] ?? '', `http://x${own}`).pathname);
    }
    for (const file of files) if (!loaded.has(file)) more += await served(file);
    onInteraction[name] = more;
  }
  return { html, css, js, scripts: [...loaded], total: html + css + js, onInteraction };
}
