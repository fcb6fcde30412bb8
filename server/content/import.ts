/**
 * The one content import, shared by start-up and `npm run import`: read and check the whole
 * tree, then write everything in one transaction, or nothing at all.
 */
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/driver.ts';
import { loadContent, type LoadOptions, type LoadResult } from './load.ts';
import { resolveContent, type EntryRow, type RouteRow } from './resolve.ts';
import { ContentError, type Problem } from './problems.ts';
import { rebuildSearchDocuments } from '../search/documents.ts';

/** Bump when the importer's output changes, so unchanged content is imported again. */
export const IMPORT_FORMAT = 6;
export const CONTENT_CHANNEL = 'signpost_content';
const BATCH = 500;

export interface ImportResult {
  imported: boolean;
  digest: string;
  entries: number;
  routes: number;
  ms: { read: number; check: number; write: number; total: number };
  /** Reported, not stopping the import (raw HTML the sanitiser removed). */
  warnings: Problem[];
}

export interface ImportOptions {
  /** Import even when the stored content has the same digest. */
  force?: boolean;
  onProgress?: (stage: 'read' | 'write', done: number, total: number) => void;
  /** Stops the import between steps (server shutdown); nothing is written unless it already committed. */
  signal?: AbortSignal;
  /** The tree already read (live preview keeps it parsed in memory): it is checked and written as is. */
  loaded?: LoadResult;
  /** False leaves the vacuum to the caller (live preview runs it once saves pause). */
  vacuum?: boolean;
}

/** Checks a tree without writing; returns the plan and every problem. */
export async function checkContent(dir: string, onProgress?: ImportOptions['onProgress'], loadOptions?: LoadOptions) {
  const t0 = performance.now();
  const loaded = await loadContent(dir, onProgress && ((d, t) => onProgress('read', d, t)), loadOptions);
  return checkLoaded(loaded, performance.now() - t0);
}

/** Checks a tree already read (checkContent, or live preview's parsed copy). */
export function checkLoaded(loaded: LoadResult, readMs = 0) {
  const t1 = performance.now();
  const found: Problem[] = loaded.problems.filter((p) => p.severity !== 'warning');
  const warnings = loaded.problems.filter((p) => p.severity === 'warning');
  const plan = resolveContent(loaded.entries, found);
  // One message per file, line and field: a missing slug is not also a broken link.
  const seen = new Set<string>();
  const problems = found.filter((p) => {
    const key = `${p.file}\0${p.line}\0${p.field}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  warnings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  const digest = createHash('sha256').update(`format ${IMPORT_FORMAT}\n`);
  for (const file of loaded.files) digest.update(`${file.path}\0${file.text}\0`);
  return { plan, problems, warnings, digest: digest.digest('hex'), readMs, checkMs: performance.now() - t1 };
}

export async function currentDigest(db: Queryable): Promise<string | undefined> {
  const rows = await db.query<{ digest: string }>('select digest from content_imports order by id desc limit 1');
  return rows[0]?.digest;
}

export async function importContent(db: Db, dir: string, options: ImportOptions = {}): Promise<ImportResult> {
  const t0 = performance.now();
  const { plan, problems, warnings, digest, readMs, checkMs } = options.loaded
    ? checkLoaded(options.loaded)
    : await checkContent(dir, options.onProgress);
  if (problems.length > 0) throw new ContentError(problems);
  options.signal?.throwIfAborted();
  const base = { digest, entries: plan.entries.length, routes: plan.routes.length, warnings };
  if (!options.force && (await currentDigest(db)) === digest) {
    return { imported: false, ...base, ms: { read: readMs, check: checkMs, write: 0, total: performance.now() - t0 } };
  }
  const t1 = performance.now();
  await db.transaction(async (tx) => {
    await tx.query('delete from content_routes');
    await tx.query('delete from content_entries');
    let done = 0;
    for (let i = 0; i < plan.entries.length; i += BATCH) {
      options.signal?.throwIfAborted();
      await insertEntries(tx, plan.entries.slice(i, i + BATCH));
      done = Math.min(i + BATCH, plan.entries.length);
      options.onProgress?.('write', done, plan.entries.length);
    }
    for (let i = 0; i < plan.routes.length; i += BATCH * 4) await insertRoutes(tx, plan.routes.slice(i, i + BATCH * 4));
    await rebuildSearchDocuments(tx);
    await tx.query('delete from search_vocabulary');
    const words = vocabulary(plan.entries);
    for (let i = 0; i < words.length; i += BATCH * 10) {
      await tx.query(
        `insert into search_vocabulary (word, frequency) select word, frequency from jsonb_to_recordset($1::jsonb) as x(word text, frequency integer)`,
        [JSON.stringify(words.slice(i, i + BATCH * 10))],
      );
    }
    await tx.query('insert into content_imports (digest, entry_count, source, duration_ms) values ($1, $2, $3, $4)', [
      digest, plan.entries.length, dir, Math.round(performance.now() - t0),
    ]);
    // Delivered at commit: every instance drops what it cached of the old content.
    await tx.query('select pg_notify($1, $2)', [CONTENT_CHANNEL, digest]);
  });
  if (options.vacuum !== false) await vacuumContent(db);
  const write = performance.now() - t1;
  return { imported: true, ...base, ms: { read: readMs, check: checkMs, write, total: performance.now() - t0 } };
}

/**
 * Clears the replaced rows and refreshes the planner's statistics. An import replaces every row, and
 * PGlite has no autovacuum: without this each import would leave the old rows for every scan to skip.
 */
export async function vacuumContent(db: Db): Promise<void> {
  await db.exec('vacuum (analyze) content_entries, content_routes, search_documents, search_facet_keys, search_term_counts, search_vocabulary');
}

/** Words of published searchable text, with how often they occur: the spelling dictionary. */
function vocabulary(entries: EntryRow[]): { word: string; frequency: number }[] {
  const counts = new Map<string, number>();
  for (const e of entries) {
    if (!e.published || e.search_text === null) continue;
    const text = `${e.title ?? ''} ${e.description ?? ''} ${e.search_text}`.toLowerCase();
    for (const word of text.match(/[a-z][a-z'-]{2,29}/g) ?? []) {
      const clean = word.replace(/['-]+$/, '');
      counts.set(clean, (counts.get(clean) ?? 0) + 1);
    }
  }
  return [...counts].filter(([w]) => w.length >= 3).map(([word, frequency]) => ({ word, frequency }));
}

async function insertEntries(tx: Queryable, rows: EntryRow[]) {
  await tx.query(
    `insert into content_entries (id, type, published, source, source_line, path, title, context_id, product_id,
       deployment, versions, language, last_published, fields, document, html, description, search_text, product_name_id)
     select id, type, published, source, source_line, path, title, context_id, product_id,
       deployment, versions, language, last_published, fields, document, html, description, search_text, product_name_id
     from jsonb_to_recordset($1::jsonb) as x(id text, type text, published boolean, source text, source_line integer,
       path text, title text, context_id text, product_id text, deployment text, versions text[], language text,
       last_published timestamptz, fields jsonb, document jsonb, html text, description text, search_text text,
       product_name_id text)`,
    [JSON.stringify(rows)],
  );
}

async function insertRoutes(tx: Queryable, rows: RouteRow[]) {
  await tx.query(
    `insert into content_routes (path, entry_id, version)
     select path, entry_id, version from jsonb_to_recordset($1::jsonb) as x(path text, entry_id text, version text)`,
    [JSON.stringify(rows)],
  );
}
