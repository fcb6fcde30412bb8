/**
 * The one content import, shared by start-up, `npm run import` and live preview: read and check the
 * whole tree, then write in one transaction, or nothing at all: the entries whose row changed, the ones
 * removed, and their routes and search rows (everything on `force`, a first import, or most of a tree).
 */
import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/driver.ts';
import { FLAGS_FILE_NAME, loadContent, type LoadOptions, type LoadResult } from './load.ts';
import { resolveSteps, type EntryRow, type RouteRow } from './resolve.ts';
import { mapSteps, runAtOnce, runInSlices, SLICE_MS, type Steps } from './slices.ts';
import { ContentError, type Problem } from './problems.ts';
import { FREQUENT_TERM, rebuildSearchDocuments, updateSearchDocuments } from '../search/documents.ts';
import { writeFiles } from './files.ts';
import { writePassages } from '../assistant/passages.ts';
import { checkRedirects, REDIRECTS_FILE, writeRedirects } from './redirects.ts';
import { PhaseClock, type PhaseTime } from './phases.ts';
import { flagsProblems } from '../flags/file-provider.ts';

/** Bump when the importer's output changes, so unchanged content is imported again. */
export const IMPORT_FORMAT = 9;
export const CONTENT_CHANNEL = 'signpost_content';
const BATCH = 500;

export interface ImportResult {
  imported: boolean;
  /** Entries written (changed, added) and removed; every entry on a full rewrite. */
  written: { entries: number; removed: number; full: boolean };
  digest: string;
  entries: number;
  routes: number;
  ms: { read: number; check: number; write: number; total: number };
  /**
   * The same time by phase (read, assets, parse, check, render, then the write's statements, commit and
   * vacuum), each with the process's CPU time: what bench:import reports.
   */
  phases: PhaseTime[];
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
  /** The tree already read and checked (live preview checks before it imports): written as is. */
  checked?: Checked;
  /** False leaves the vacuum to the caller (live preview runs it once saves pause). */
  vacuum?: boolean;
  /** Times the phases (bench:import watches which one is running); a new clock when not given. */
  clock?: PhaseClock;
  /** Words in at least this many documents have kept counts (search_term_counts); tests set a small one. */
  frequentTerm?: number;
}

/** Checks a tree without writing; returns the plan and every problem. */
export async function checkContent(dir: string, onProgress?: ImportOptions['onProgress'], loadOptions?: LoadOptions) {
  const t0 = performance.now();
  const loaded = await loadContent(dir, onProgress && ((d, t) => onProgress('read', d, t)), loadOptions);
  return checkLoadedInSlices(loaded, performance.now() - t0, loadOptions?.clock);
}

/** Checks a tree already read (live preview's parsed copy), at once. */
export function checkLoaded(loaded: LoadResult, readMs = 0, clock?: PhaseClock): Checked {
  return clock ? clock.timeSync('check', () => runAtOnce(checkTree(loaded, readMs, clock))) : runAtOnce(checkTree(loaded, readMs));
}

/**
 * The same check, giving the event loop a turn every few tens of milliseconds: checking and rendering a
 * large tree takes seconds, and a server importing it must keep answering.
 */
export function checkLoadedInSlices(loaded: LoadResult, readMs = 0, clock?: PhaseClock, sliceMs = SLICE_MS): Promise<Checked> {
  return clock ? clock.time('check', () => runInSlices(checkTree(loaded, readMs, clock), sliceMs)) : runInSlices(checkTree(loaded, readMs), sliceMs);
}

function* checkTree(loaded: LoadResult, readMs: number, clock?: PhaseClock) {
  const t1 = performance.now();
  const found: Problem[] = loaded.problems.filter((p) => p.severity !== 'warning');
  const warnings = loaded.problems.filter((p) => p.severity === 'warning');
  const resolved = yield* resolveSteps(loaded.entries, found, { contentFiles: loaded.contentFiles, treeFiles: loaded.files.map((f) => f.path), clock });
  const pathOf = new Map(resolved.entries.flatMap((e) => (e.path ? [[e.id, e.path] as const] : [])));
  const redirects = checkRedirects(loaded.files.find((f) => f.path === REDIRECTS_FILE)?.text, new Set(resolved.routes.map((r) => r.path)),
    (id) => pathOf.get(id), found);
  // A broken flags file refuses the import, so every instance keeps the definitions it has (server/flags/).
  if (loaded.flags !== undefined) found.push(...flagsProblems(FLAGS_FILE_NAME, loaded.flags));
  const plan = { ...resolved, redirects, flags: loaded.flags ?? null };
  movePlanWarnings(found, warnings);
  // One message per file, line (and column, where known) and field: a missing slug is not also a broken link.
  // A body's problems are each their own, though several share a place (an image with no alt and no file).
  const seen = new Set<string>();
  const problems = found.filter((p) => {
    const own = p.field === 'body' || p.field === 'message' ? `\0${p.reason}` : '';
    const key = `${p.file}\0${p.line}\0${p.column ?? ''}\0${p.field}${own}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  warnings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  const digest = createHash('sha256').update(`format ${IMPORT_FORMAT}\n`);
  for (const file of loaded.files) {
    digest.update(`${file.path}\0${file.text}\0`);
    yield;
  }
  if (loaded.flags !== undefined) digest.update(`flags\0${loaded.flags}\0`);
  digestFiles(digest, plan.files);
  return { plan, problems, warnings, digest: digest.digest('hex'), readMs, checkMs: performance.now() - t1 };
}

/** Warnings of the whole-tree checks (a link to a heading that is not there) do not stop the import. */
function movePlanWarnings(found: Problem[], warnings: Problem[]) {
  for (let i = found.length - 1; i >= 0; i--) if (found[i]?.severity === 'warning') warnings.push(...found.splice(i, 1));
}

/** The files the bodies use are part of what is imported: a changed image is a changed tree. */
function digestFiles(digest: ReturnType<typeof createHash>, files: { hash: string; name: string }[]) {
  for (const file of files) digest.update(`file\0${file.name}\0${file.hash}\0`);
}

export async function currentDigest(db: Queryable): Promise<string | undefined> {
  const rows = await db.query<{ digest: string }>('select digest from content_imports order by id desc limit 1');
  return rows[0]?.digest;
}

export async function importContent(db: Db, dir: string, options: ImportOptions = {}): Promise<ImportResult> {
  const t0 = performance.now();
  const clock = options.clock ?? new PhaseClock();
  const { plan, problems, warnings, digest, readMs, checkMs } = options.checked
    ? { ...options.checked, readMs: 0, checkMs: 0 }
    : options.loaded ? await checkLoadedInSlices(options.loaded, 0, clock)
    : await checkContent(dir, options.onProgress, { clock });
  if (problems.length > 0) throw new ContentError(problems, warnings);
  options.signal?.throwIfAborted();
  const base = { digest, entries: plan.entries.length, routes: plan.routes.length, warnings };
  if (!options.force && (await currentDigest(db)) === digest) {
    return { imported: false, written: { entries: 0, removed: 0, full: false }, ...base, ms: { read: readMs, check: checkMs, write: 0, total: performance.now() - t0 }, phases: clock.phases };
  }
  const t1 = performance.now();
  const hashes = await clock.time('row hashes', () => runInSlices(mapSteps(plan.entries, rowHash)));
  const written = await clock.time('commit', () => db.transaction(async (tx) => {
    const before = await tx.query<RouteRow>('select path, entry_id, version from content_routes');
    const written = options.force ? await writeAll(tx, plan, hashes, options, clock) : await writeChanges(tx, plan, hashes, options, clock);
    await clock.time('write redirects', () =>
      writeRedirects(tx, plan.redirects, before, plan.routes, new Map(plan.entries.flatMap((e) => (e.path ? [[e.id, e.path] as const] : [])))));
    await clock.time('write assets', () => writeFiles(tx, plan.files));
    await tx.query('insert into content_imports (digest, entry_count, source, duration_ms, flags) values ($1, $2, $3, $4, $5)', [
      digest, plan.entries.length, dir, Math.round(performance.now() - t0), plan.flags,
    ]);
    // Delivered at commit: every instance drops what it cached of the old content.
    await tx.query('select pg_notify($1, $2)', [CONTENT_CHANNEL, digest]);
    return written;
  }));
  if (options.vacuum !== false) await clock.time('vacuum', () => vacuumContent(db));
  const write = performance.now() - t1;
  return { imported: true, written, ...base, ms: { read: readMs, check: checkMs, write, total: performance.now() - t0 }, phases: clock.phases };
}

export type Checked = ReturnType<typeof checkTree> extends Steps<infer T> ? T : never;
type Plan = Checked['plan'];
type Written = ImportResult['written'];

/**
 * What an entry's stored row is compared by: a hash of everything written for it. The parsed body's
 * share is kept per document object: live preview keeps unchanged files parsed, so a save hashes again
 * only the bodies it re-read (hashing every body was most of a save's write on a large tree).
 */
export function rowHash(row: EntryRow): string {
  const { document, ...rest } = row;
  const hash = createHash('sha256').update(JSON.stringify(rest));
  if (document) {
    let body = documentHashes.get(document.document);
    if (body === undefined) {
      body = createHash('sha256').update(JSON.stringify(document.document)).digest('base64url');
      documentHashes.set(document.document, body);
    }
    hash.update(`\0${body}\0${JSON.stringify(document.links)}`);
  }
  return hash.digest('base64url');
}
const documentHashes = new WeakMap<object, string>();

/** Replaces every stored row and the whole search index (`--force`, a first import, most of a tree changed). */
async function writeAll(tx: Queryable, plan: Plan, hashes: string[], options: ImportOptions, clock = new PhaseClock()): Promise<Written> {
  await clock.time('write entries', async () => {
    await tx.query('delete from content_routes');
    await tx.query('delete from content_entries');
    for (let i = 0; i < plan.entries.length; i += BATCH) {
      options.signal?.throwIfAborted();
      await insertEntries(tx, plan.entries.slice(i, i + BATCH), hashes.slice(i, i + BATCH));
      options.onProgress?.('write', Math.min(i + BATCH, plan.entries.length), plan.entries.length);
    }
  });
  await clock.time('write routes', async () => {
    for (let i = 0; i < plan.routes.length; i += BATCH * 4) await insertRoutes(tx, plan.routes.slice(i, i + BATCH * 4));
  });
  await clock.time('search index', () => rebuildSearchDocuments(tx, options.frequentTerm ?? FREQUENT_TERM));
  await clock.time('passages', () => writePassages(tx, undefined, plan.entries));
  await clock.time('vocabulary', async () => {
    await tx.query('delete from search_vocabulary');
    const words = [...(await runInSlices(vocabularySteps(plan.entries)))].map(([word, frequency]) => ({ word, frequency }));
    for (let i = 0; i < words.length; i += BATCH * 10) {
      await tx.query(
        `insert into search_vocabulary (word, frequency) select word, frequency from jsonb_to_recordset($1::jsonb) as x(word text, frequency integer)`,
        [JSON.stringify(words.slice(i, i + BATCH * 10))],
      );
    }
  });
  return { entries: plan.entries.length, removed: 0, full: true };
}

/** Past this share of the entries changed, rewriting everything is the quicker write. */
const REWRITE_SHARE = 0.25;

/**
 * Writes the difference between the plan and what is stored: entries whose row hash changed, added and
 * removed ones, their routes, and their search rows and vocabulary. The tables end as writeAll leaves them.
 */
async function writeChanges(tx: Queryable, plan: Plan, hashes: string[], options: ImportOptions, clock = new PhaseClock()): Promise<Written> {
  const stored = new Map((await tx.query<{ id: string; row_hash: string | null }>('select id, row_hash from content_entries'))
    .map((r) => [r.id, r.row_hash]));
  const planned = new Set(plan.entries.map((e) => e.id));
  const changed = plan.entries.flatMap((e, i) => (stored.get(e.id) === hashes[i] ? [] : [i]));
  const removed = [...stored.keys()].filter((id) => !planned.has(id));
  if (stored.size === 0 || changed.length + removed.length > plan.entries.length * REWRITE_SHARE) {
    return writeAll(tx, plan, hashes, options, clock);
  }
  const rows = changed.map((i) => plan.entries[i] as EntryRow);
  const ids = [...rows.map((r) => r.id), ...removed];
  const rewritten = new Set(rows.map((r) => r.id));
  // The words of the rows going away, before they go.
  const before = await tx.query<EntryRow>(
    'select published, title, description, search_text from content_entries where id = any($1::text[])', [ids]);
  const storedRoutes = await tx.query<RouteRow>('select path, entry_id, version from content_routes');
  const routeKey = (r: RouteRow) => `${r.entry_id}\0${r.version ?? ''}\0${r.version === null}`;
  const wanted = new Map(plan.routes.map((r) => [r.path, r]));
  const staleRoutes = storedRoutes.filter((r) => {
    const next = wanted.get(r.path);
    return !next || routeKey(next) !== routeKey(r);
  }).map((r) => r.path);
  const have = new Map(storedRoutes.map((r) => [r.path, r]));
  // Rewritten entries lose their routes with them (on delete cascade): theirs are written again.
  const newRoutes = plan.routes.filter((r) => {
    const old = have.get(r.path);
    return !old || routeKey(old) !== routeKey(r) || rewritten.has(r.entry_id);
  });
  await clock.time('write entries', async () => {
    if (staleRoutes.length > 0) await tx.query('delete from content_routes where path = any($1::text[])', [staleRoutes]);
    await tx.query('delete from content_entries where id = any($1::text[])', [ids]);
    for (let i = 0; i < rows.length; i += BATCH) {
      options.signal?.throwIfAborted();
      await insertEntries(tx, rows.slice(i, i + BATCH), changed.slice(i, i + BATCH).map((j) => hashes[j] as string));
    }
  });
  await clock.time('write routes', async () => {
    for (let i = 0; i < newRoutes.length; i += BATCH * 4) await insertRoutes(tx, newRoutes.slice(i, i + BATCH * 4));
  });
  await clock.time('search index', () => updateSearchDocuments(tx, ids, options.frequentTerm ?? FREQUENT_TERM));
  await clock.time('passages', () => writePassages(tx, ids, rows));
  await clock.time('vocabulary', async () => updateVocabulary(tx, await runInSlices(vocabularySteps(before)), await runInSlices(vocabularySteps(rows))));
  return { entries: rows.length, removed: removed.length, full: false };
}

/** Moves the stored word frequencies from the old rows' words to the new rows' words. */
async function updateVocabulary(tx: Queryable, before: Map<string, number>, after: Map<string, number>) {
  const delta = new Map(after);
  for (const [word, n] of before) delta.set(word, (delta.get(word) ?? 0) - n);
  const words = [...delta].filter(([, n]) => n !== 0).map(([word, frequency]) => ({ word, frequency }));
  if (words.length === 0) return;
  await tx.query(
    `insert into search_vocabulary (word, frequency) select word, frequency from jsonb_to_recordset($1::jsonb) as x(word text, frequency integer)
     on conflict (word) do update set frequency = search_vocabulary.frequency + excluded.frequency`,
    [JSON.stringify(words)],
  );
  await tx.query('delete from search_vocabulary where word = any($1::text[]) and frequency <= 0', [words.map((w) => w.word)]);
}

/**
 * Clears the replaced rows and refreshes the planner's statistics. An import replaces every row, and
 * PGlite has no autovacuum: without this each import would leave the old rows for every scan to skip.
 */
export async function vacuumContent(db: Db): Promise<void> {
  await db.exec('vacuum (analyze) content_entries, content_routes, search_documents, search_facet_keys, search_term_counts, search_vocabulary, assistant_passages');
}

/** Words of published searchable text, with how often they occur: the spelling dictionary. */
function* vocabularySteps(entries: Pick<EntryRow, 'published' | 'title' | 'description' | 'search_text'>[]): Steps<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const e of entries) {
    yield;
    if (!e.published || e.search_text === null) continue;
    const text = `${e.title ?? ''} ${e.description ?? ''} ${e.search_text}`.toLowerCase();
    for (const word of text.match(/[a-z][a-z'-]{2,29}/g) ?? []) {
      const clean = word.replace(/['-]+$/, '');
      counts.set(clean, (counts.get(clean) ?? 0) + 1);
    }
  }
  for (const word of counts.keys()) if (word.length < 3) counts.delete(word);
  return counts;
}

/**
 * Characters of row JSON per statement. The text is joined and handed to the database at once: a
 * batch of rendered bodies is megabytes, and a longer text blocks the event loop while it is copied.
 */
const ENTRY_STATEMENT_CHARS = 1024 * 1024;

const INSERT_ENTRIES = `insert into content_entries (id, type, published, source, source_line, path, title, context_id, product_id,
       deployment, versions, language, last_published, fields, document, html, description, search_text, product_name_id, row_hash)
     select id, type, published, source, source_line, path, title, context_id, product_id,
       deployment, versions, language, last_published, fields, document, html, description, search_text, product_name_id, row_hash
     from jsonb_to_recordset($1::jsonb) as x(id text, type text, published boolean, source text, source_line integer,
       path text, title text, context_id text, product_id text, deployment text, versions text[], language text,
       last_published timestamptz, fields jsonb, document jsonb, html text, description text, search_text text,
       product_name_id text, row_hash text)`;

async function insertEntries(tx: Queryable, rows: EntryRow[], hashes: string[]) {
  // A row at a time, in slices; then as many rows per statement as fit in ENTRY_STATEMENT_CHARS.
  const texts = await runInSlices(mapSteps(rows, (row, i) => JSON.stringify({ ...row, row_hash: hashes[i] })));
  for (let start = 0; start < texts.length;) {
    let end = start + 1;
    let chars = (texts[start] as string).length;
    while (end < texts.length && chars + (texts[end] as string).length <= ENTRY_STATEMENT_CHARS) chars += (texts[end++] as string).length;
    await tx.query(INSERT_ENTRIES, [`[${texts.slice(start, end).join(',')}]`]);
    start = end;
  }
}

async function insertRoutes(tx: Queryable, rows: RouteRow[]) {
  await tx.query(
    `insert into content_routes (path, entry_id, version)
     select path, entry_id, version from jsonb_to_recordset($1::jsonb) as x(path text, entry_id text, version text)`,
    [JSON.stringify(rows)],
  );
}
