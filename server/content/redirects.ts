/**
 * Moved pages keep answering: old paths that answer 301 to where the page is now.
 *
 * - `redirects.yaml` at the content root: a list of `{ from: /old/path, to: /new/path }` or
 *   `{ from: /old/path, entry: <entry id> }`, checked with the rest of the tree (checkRedirects) and
 *   stored by every import in place of the last one's.
 * - Renames: when an import moves an entry (its slug, or a parent's, changed), each path it answered on
 *   before answers 301 to its path now (writeRedirects). These stay across imports, their target following
 *   the entry, so a page renamed twice sends its first path straight to its current one; they go when a page
 *   takes the old path or the entry goes.
 *
 * Served by the not-found handler (server/routes/pages.tsx): a path no page answers on, with its query kept.
 */
import { LineCounter, parseDocument, isMap, isSeq, type Node as YamlNode } from 'yaml';
import type { Queryable } from '../db/driver.ts';
import type { Problem } from './problems.ts';
import { isRuntimePath } from './runtime-paths.ts';
import { nearestHint } from './body-links.ts';

export const REDIRECTS_FILE = 'redirects.yaml';
/** The longest path a redirect takes: far above any page's, and a bound on what a typo can store. */
export const MAX_REDIRECT_PATH = 500;

export interface FileRedirect {
  from: string;
  /** A site path, with its query and fragment if the file gave them, or an https:// address. */
  to: string;
}

interface Listed {
  from: string;
  line: number;
  /** Its place in the file's list, for the field of a problem. */
  index: number;
  /** The target as written (a site path or URL), or the entry's page. */
  to: { path: string; suffix: string } | { url: string } | undefined;
}

/** A site path as the pages route looks it up: no trailing slash (except `/`). */
export function normalPath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

/**
 * Checks the file's redirects against the tree's pages and returns them, each chain followed to its end.
 * `known`: every path a page answers on; `urlOf`: an entry's page.
 */
export function checkRedirects(text: string | undefined, known: Set<string>, urlOf: (id: string) => string | undefined, problems: Problem[]): FileRedirect[] {
  if (text === undefined) return [];
  const file = REDIRECTS_FILE;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: true });
  const lineOf = (node: YamlNode | null | undefined) => (node?.range ? lineCounter.linePos(node.range[0]).line : 1);
  const fail = (line: number, field: string, reason: string, hint?: string) =>
    problems.push({ file, line, field, reason, ...(hint ? { hint } : {}) });
  if (doc.errors.length > 0) {
    for (const error of doc.errors) fail(error.linePos?.[0].line ?? 1, 'file', error.message.split('\n')[0] ?? 'not YAML');
    return [];
  }
  if (doc.contents === null) return [];
  if (!isSeq(doc.contents)) {
    fail(lineOf(doc.contents as YamlNode), 'file', 'a list of redirects: `- { from: /old/path, to: /new/path }` or `- { from: /old/path, entry: <entry id> }`');
    return [];
  }
  const listed: Listed[] = [];
  const firstAt = new Map<string, number>();
  doc.contents.items.forEach((item, i) => {
    const line = lineOf(item as YamlNode);
    const field = `[${i}]`;
    if (!isMap(item)) {
      fail(line, field, 'a redirect is `{ from: /old/path, to: /new/path }` or `{ from: /old/path, entry: <entry id> }`');
      return;
    }
    const value = item.toJSON() as Record<string, unknown>;
    const extra = Object.keys(value).filter((k) => k !== 'from' && k !== 'to' && k !== 'entry');
    if (extra.length > 0) fail(line, `${field}.${extra[0]}`, `unknown field: a redirect has from, and to or entry`);
    const from = value.from;
    if (typeof from !== 'string' || from.trim() === '') {
      fail(line, `${field}.from`, 'missing: the old site path (/…) that should lead elsewhere');
      return;
    }
    const fromProblem = sitePathProblem(from, false);
    if (fromProblem) {
      fail(line, `${field}.from`, fromProblem);
      return;
    }
    const path = normalPath(from);
    const earlier = firstAt.get(path);
    if (earlier !== undefined) {
      fail(line, `${field}.from`, `${path} is redirected twice: already at line ${earlier}`);
      return;
    }
    firstAt.set(path, line);
    if (known.has(path) || isRuntimePath(path)) {
      fail(line, `${field}.from`, `${path} is a page of the site: a redirect never hides a page; remove it, or move the page`);
      return;
    }
    if ((value.to === undefined) === (value.entry === undefined)) {
      fail(line, field, value.to === undefined ? 'needs to (a site path) or entry (an entry id)' : 'has both to and entry: give one');
      listed.push({ from: path, line, index: i, to: undefined });
      return;
    }
    if (value.entry !== undefined) {
      const id = String(value.entry);
      const url = urlOf(id);
      if (!url) fail(line, `${field}.entry`, `no entry "${id}" with a page`);
      listed.push({ from: path, line, index: i, to: url ? { path: url, suffix: '' } : undefined });
      return;
    }
    const to = typeof value.to === 'string' ? value.to.trim() : '';
    if (/^https:\/\/[^/\s]+/i.test(to) && !/\s/.test(to)) {
      listed.push({ from: path, line, index: i, to: { url: to } });
      return;
    }
    const toProblem = sitePathProblem(to, true);
    if (toProblem) {
      fail(line, `${field}.to`, toProblem);
      listed.push({ from: path, line, index: i, to: undefined });
      return;
    }
    const cut = to.search(/[?#]/);
    listed.push({ from: path, line, index: i, to: { path: normalPath(cut < 0 ? to : to.slice(0, cut)), suffix: cut < 0 ? '' : to.slice(cut) } });
  });

  // Targets: a page, or another redirect of the file followed to its page (a chain is served in one step).
  const byFrom = new Map(listed.map((l) => [l.from, l]));
  const out: FileRedirect[] = [];
  for (const item of listed) {
    if (!item.to) continue;
    if ('url' in item.to) {
      out.push({ from: item.from, to: item.to.url });
      continue;
    }
    const trail = [item.from];
    let target: { path: string; suffix: string } | { url: string } | undefined = item.to;
    let loop = false;
    while (target && !('url' in target) && !known.has(target.path) && !isRuntimePath(target.path)) {
      const next = byFrom.get(target.path);
      if (!next) break;
      loop = trail.includes(next.from);
      trail.push(next.from);
      if (loop) break;
      target = next.to;
    }
    const field = `[${item.index}].to`;
    if (loop) {
      fail(item.line, field, `redirect loop: ${trail.join(' → ')}`);
      continue;
    }
    if (!target) continue; // the redirect it leads to has its own problem
    if ('url' in target) {
      out.push({ from: item.from, to: target.url });
      continue;
    }
    if (!known.has(target.path) && !isRuntimePath(target.path)) {
      fail(item.line, field, `no page at ${target.path}`, nearestHint([...known], target.path, (p) => p));
      continue;
    }
    out.push({ from: item.from, to: `${target.path}${target.suffix}` });
  }
  return out;
}

/** Why a value is not a site path a redirect can name, or undefined. */
function sitePathProblem(value: string, target: boolean): string | undefined {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return `${JSON.stringify(value)} is not a site path: write it from the site's root, /like/this${target ? ' (or an https:// address)' : ''}`;
  }
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return `${JSON.stringify(value)} has spaces or control characters`;
  if (value.length > MAX_REDIRECT_PATH) return `longer than ${MAX_REDIRECT_PATH} characters`;
  if (!target && /[?#]/.test(value)) return `${JSON.stringify(value)} has a query or fragment: a redirect is matched on the path alone (the query is passed on)`;
  return undefined;
}

interface StoredRoute { path: string; entry_id: string; version: string | null }

/**
 * Stores the plan's redirects in the import's transaction `tx`, once its routes are written: the file's
 * in place of the last import's, a rename redirect for every path `before` (the routes as they were) that
 * no page answers on now while its entry still has a page, every rename's target moved to its entry's
 * path now, and none where a page answers.
 */
export async function writeRedirects(tx: Queryable, fileRedirects: FileRedirect[], before: StoredRoute[], routes: StoredRoute[], pathOf: Map<string, string>): Promise<void> {
  const live = new Set(routes.map((r) => r.path));
  const routeOf = new Map(routes.map((r) => [`${r.entry_id}\0${r.version ?? ''}`, r.path]));
  const renames = before.flatMap((old) => {
    if (live.has(old.path)) return [];
    const to = routeOf.get(`${old.entry_id}\0${old.version ?? ''}`) ?? pathOf.get(old.entry_id);
    return to && to !== old.path ? [{ from_path: old.path, to_path: to, entry_id: old.entry_id, version: old.version }] : [];
  });
  await tx.query(`delete from content_redirects where source = 'file'`);
  if (renames.length > 0) {
    await tx.query(
      `insert into content_redirects (from_path, to_path, source, entry_id, version)
       select from_path, to_path, 'rename', entry_id, version from jsonb_to_recordset($1::jsonb) as x(from_path text, to_path text, entry_id text, version text)
       on conflict (from_path) do update set to_path = excluded.to_path, source = 'rename', entry_id = excluded.entry_id,
         version = excluded.version, created_at = now()`,
      [JSON.stringify(renames)],
    );
  }
  // Earlier renames go with their entry, or follow it to where it is now (a chain collapses).
  await tx.query(
    `delete from content_redirects r where r.source = 'rename'
       and not exists (select 1 from content_entries e where e.id = r.entry_id and e.path is not null)`,
  );
  await tx.query(
    `update content_redirects r set to_path = coalesce(
       (select cr.path from content_routes cr where cr.entry_id = r.entry_id and cr.version is not distinct from r.version),
       (select e.path from content_entries e where e.id = r.entry_id))
     where r.source = 'rename'`,
  );
  await tx.query(`delete from content_redirects r where r.to_path = r.from_path or exists (select 1 from content_routes cr where cr.path = r.from_path)`);
  if (fileRedirects.length > 0) {
    // The file's word wins over a rename at the same path.
    await tx.query(
      `insert into content_redirects (from_path, to_path, source)
       select from_path, to_path, 'file' from jsonb_to_recordset($1::jsonb) as x(from_path text, to_path text)
       on conflict (from_path) do update set to_path = excluded.to_path, source = 'file', entry_id = null, version = null, created_at = now()`,
      [JSON.stringify(fileRedirects.map((r) => ({ from_path: r.from, to_path: r.to })))],
    );
  }
}

/** Every stored redirect, by old path. */
export async function readRedirects(db: Queryable): Promise<Map<string, string>> {
  const rows = await db.query<{ from_path: string; to_path: string }>('select from_path, to_path from content_redirects');
  return new Map(rows.map((r) => [r.from_path, r.to_path]));
}

/** The Location of a redirect for a request: its target, with the request's query added. */
export function redirectLocation(to: string, query: string): string {
  if (!query) return to;
  const hashAt = to.indexOf('#');
  const base = hashAt < 0 ? to : to.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : to.slice(hashAt);
  return `${base}${base.includes('?') ? '&' : '?'}${query}${fragment}`;
}
