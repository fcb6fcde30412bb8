/**
 * Reads a content tree into entries, checking each file on its own: YAML syntax, the schema of
 * its folder's type, and its Markdown body. Cross-entry checks are in resolve.ts.
 */
import { readFile, readdir } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { LineCounter, parseDocument, isMap, isScalar, isCollection, type Document as YamlDocument } from 'yaml';
import { validateRichTextDocument } from '@contentful/rich-text-types';
import { ENTRY_KINDS, SINGLE_FILES, type EntryKind } from './schemas.ts';
import { REDIRECTS_FILE } from './redirects.ts';
import { parseMarkdown, parseInlineMarkdown, splitFrontMatter, type KbSection } from './markdown.ts';
import { normaliseHeadings, type Document, type EmbeddedEntry } from './rich-text.ts';
import { schemaErrors } from './schema-errors.ts';
import { urlFieldErrors } from './url-fields.ts';
import type { Position, Problem } from './problems.ts';
import { workerUrl } from '../worker-url.ts';
import { FILE_TYPES, isFilePath, readContentFile, type ContentFile } from './files.ts';
import { searchSettingsProblems } from '../search/settings.ts';
import { SLOT_MARKER_REASON, slotMarkerPaths, slotMarkersInMarkdown } from './slot-markers.ts';
import { PhaseClock } from './phases.ts';

export interface LoadedEntry {
  kind: EntryKind;
  id: string;
  file: string;
  line: number;
  fields: Record<string, unknown>;
  /** Line of a field in the file, for messages about it. */
  lineOf: (path: (string | number)[]) => number;
  /** Where a field is in the file: its value (a scalar's whole span), or its name with `on: 'key'`. */
  positionOf?: (path: (string | number)[], on?: 'key') => Position;
  document?: Document;
  /** Rich text held in a field (a notice message). */
  fieldDocuments?: Record<string, Document>;
  embedded: Record<string, EmbeddedEntry>;
  sections: Partial<Record<KbSection, Document>>;
}

export interface LoadResult {
  entries: LoadedEntry[];
  problems: Problem[];
  files: { path: string; text: string }[];
  /** Images and other files of the tree (files.ts), by path. */
  contentFiles?: Map<string, ContentFile>;
  /** The text of the tree's flags.json, when it has one: imported with the content (server/flags/). */
  flags?: string | undefined;
}

/** The flag definitions at the top of a tree: stored by the import, never an entry. */
export const FLAGS_FILE_NAME = 'flags.json';

/** The text of a tree's flags.json; undefined when there is none. */
async function readFlags(dir: string): Promise<string | undefined> {
  try {
    return await readFile(join(dir, FLAGS_FILE_NAME), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR') return undefined;
    throw error;
  }
}

const FOLDER_KIND = new Map<string, keyof typeof ENTRY_KINDS>(
  Object.entries(ENTRY_KINDS).map(([kind, def]) => [def.folder, kind as keyof typeof ENTRY_KINDS]),
);

/**
 * Files at the top of a content tree that are not entries: the embedded identity provider's demo
 * accounts (server/identity/demo-accounts.ts reads them) and the flag definitions (server/flags/), never
 * imported as content. redirects.yaml is not one of them: it is read with the tree (checked against its
 * pages in import.ts), though it is not an entry.
 */
export const NON_ENTRY_FILES = new Set(['demo-accounts.yaml', FLAGS_FILE_NAME]);

export async function listContentFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((p) => !p.split('/').some((part) => part.startsWith('.')) && !NON_ENTRY_FILES.has(p))
    .sort();
}

/**
 * From this many files on, parsing is spread over worker threads. Below it each thread's start (its
 * modules, its own warm-up) costs more CPU than it saves: a real site's hundred pages took twice the CPU
 * parsed in two threads as on this one.
 */
export const PARALLEL_FROM = 2000;
/** Files per message to a worker; fewer on a small tree, so every thread gets several batches. */
const BATCH = 200;
const MIN_BATCH = 4;
const READ_CONCURRENCY = 64;

export interface ParseBatch {
  id: number;
  files: { path: string; text: string }[];
  videoHosts: string[];
  embedHosts: string[];
}
export interface ParsedFile {
  entry?: Omit<LoadedEntry, 'lineOf' | 'positionOf'>;
  problems: Problem[];
}
/** Files per message back from a worker: the main thread copies a message in without a break. */
export const RESULT_CHUNK = 10;
/** Some of a batch's files parsed, from its file `from` on; `last` ends the batch. */
export interface ParsedChunk {
  id: number;
  from: number;
  results: ParsedFile[];
  last: boolean;
}

export interface LoadOptions {
  /** Worker threads for parsing (default: one per CPU, at most 8). */
  workers?: number;
  /** Parse in worker threads from this many files on (default PARALLEL_FROM). */
  parallelFrom?: number;
  /** Times the reading, hashing and parsing (bench:import). */
  clock?: PhaseClock;
}

/** Parsing on this thread gives the event loop a turn this often, so a server importing stays responsive. */
const YIELD_EVERY_MS = 50;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function loadContent(dir: string, onProgress?: (done: number, total: number) => void, options: LoadOptions = {}): Promise<LoadResult> {
  const clock = options.clock ?? new PhaseClock();
  const listed = await clock.time('read', () => listContentFiles(dir));
  const paths = listed.filter((p) => !isFilePath(p));
  const contentFiles = await clock.time('assets', () => readContentFiles(dir, listed.filter(isFilePath)));
  const files: LoadResult['files'] = new Array(paths.length);
  await clock.time('read', async () => {
    for (let i = 0; i < paths.length; i += READ_CONCURRENCY) {
      await Promise.all(paths.slice(i, i + READ_CONCURRENCY).map(async (path, j) => {
        files[i + j] = { path, text: await readFile(join(dir, path), 'utf8') };
      }));
    }
  });
  const problems: Problem[] = [];
  const entries: LoadedEntry[] = [];
  const workers = options.workers ?? Math.min(availableParallelism(), 8);
  const videoHosts = siteVideoHosts(files);
  const embedHosts = siteVideoHosts(files, 'embedHosts');
  if (files.length >= (options.parallelFrom ?? PARALLEL_FROM) && workers > 1) {
    const parsedFiles = await clock.time('parse', () => parseInWorkers(files, workers, { videoHosts, embedHosts }, onProgress));
    for (const [i, parsed] of parsedFiles.entries()) {
      problems.push(...parsed.problems);
      const file = files[i] as { path: string; text: string };
      if (parsed.entry) entries.push({ ...parsed.entry, ...lazyPositions(file.path, file.text) });
    }
  } else {
    await clock.time('parse', async () => {
      let turn = performance.now();
      for (const [i, file] of files.entries()) {
        const entry = loadFile(file.path, file.text, problems, videoHosts, embedHosts);
        if (entry) entries.push(entry);
        if (onProgress && ((i + 1) % 250 === 0 || i + 1 === files.length)) onProgress(i + 1, files.length);
        if (performance.now() - turn > YIELD_EVERY_MS) {
          await nextTurn();
          turn = performance.now();
        }
      }
    });
  }
  if (paths.length === 0) problems.push({ file: '.', line: 1, field: 'content', reason: `no content files found in ${dir}` });
  const flags = await readFlags(dir);
  return { entries, problems, files, contentFiles, ...(flags === undefined ? {} : { flags }) };
}

async function readContentFiles(dir: string, paths: string[]): Promise<Map<string, ContentFile>> {
  const out = new Map<string, ContentFile>();
  for (let i = 0; i < paths.length; i += READ_CONCURRENCY) {
    for (const file of await Promise.all(paths.slice(i, i + READ_CONCURRENCY).map((path) => readContentFile(dir, path)))) out.set(file.path, file);
  }
  return out;
}

/** Parses the files in worker threads, in batches; the results keep the files' order. */
async function parseInWorkers(files: { path: string; text: string }[], count: number, hosts: Pick<ParseBatch, 'videoHosts' | 'embedHosts'>, onProgress?: (done: number, total: number) => void): Promise<ParsedFile[]> {
  const batches: ParseBatch[] = [];
  const size = Math.max(MIN_BATCH, Math.min(BATCH, Math.ceil(files.length / (count * 4))));
  for (let i = 0; i < files.length; i += size) batches.push({ id: batches.length, files: files.slice(i, i + size), ...hosts });
  const results: ParsedFile[][] = new Array(batches.length);
  const url = await workerUrl('load-worker', new URL('./load-worker.ts', import.meta.url));
  const pool = Array.from({ length: Math.min(count, batches.length) }, () => new Worker(url));
  let next = 0;
  let done = 0;
  try {
    await Promise.all(pool.map((worker) => new Promise<void>((resolve, reject) => {
      const send = () => {
        const batch = batches[next++];
        if (batch) worker.postMessage(batch);
        else resolve();
      };
      worker.on('message', (message: ParsedChunk) => {
        const batch = (results[message.id] ??= []);
        for (const [i, result] of message.results.entries()) batch[message.from + i] = result;
        done += message.results.length;
        onProgress?.(done, files.length);
        if (message.last) send();
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`a content parser stopped (exit code ${code})`)));
      send();
    })));
  } finally {
    await Promise.all(pool.map((worker) => worker.terminate()));
  }
  return results.flat();
}

/** The position finders of a file parsed elsewhere: the YAML is parsed again the first time a position is asked for. */
function lazyPositions(path: string, text: string): Pick<LoadedEntry, 'lineOf' | 'positionOf'> {
  let find: NonNullable<LoadedEntry['positionOf']> | undefined;
  const positionOf = (fieldPath: (string | number)[], on?: 'key') => {
    if (!find) {
      const parsed = yamlOf(path, text);
      find = parsed ? makePositionOf(parsed.yaml, parsed.lineCounter, parsed.yamlLine) : () => ({ line: 1 });
    }
    return find(fieldPath, on);
  };
  return { positionOf, lineOf: (fieldPath) => positionOf(fieldPath).line };
}

/** The YAML part of a file (all of a .yaml file, the front matter of a .md file) and its first line. */
function yamlOf(path: string, text: string) {
  let yamlText = text;
  let yamlLine = 1;
  if (path.endsWith('.md')) {
    const { frontMatter } = splitFrontMatter(text);
    if (!frontMatter) return undefined;
    yamlText = frontMatter.text;
    yamlLine = frontMatter.line;
  }
  const lineCounter = new LineCounter();
  const yaml = parseDocument(yamlText, { lineCounter, uniqueKeys: true, prettyErrors: true });
  return { yaml, lineCounter, yamlLine };
}

/** The video (or embed) hosts bodies may embed, from site.yaml (checked with the rest of site.yaml). */
function siteVideoHosts(files: { path: string; text: string }[], key: 'videoHosts' | 'embedHosts' = 'videoHosts'): string[] {
  const site = files.find((f) => f.path === 'site.yaml');
  if (!site || !site.text.includes(key)) return [];
  const hosts = (parseDocument(site.text).toJS() as Record<string, unknown> | null)?.[key];
  return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
}

/** Parses one file; appends its problems and returns the entry when it could be read at all. */
export function loadFile(path: string, text: string, problems: Problem[], videoHosts: string[] = [], embedHosts: string[] = []): LoadedEntry | undefined {
  const fail = (at: number | Position, field: string, reason: string, hint?: string) =>
    problems.push({ file: path, ...(typeof at === 'number' ? { line: at } : at), field, reason, ...(hint ? { hint } : {}) });
  // Not an entry: checked once every page is known (import.ts, redirects.ts).
  if (path === REDIRECTS_FILE) return undefined;
  const kindDef = kindOf(path);
  if (!kindDef) {
    fail(1, 'file', 'not a content file: expected site.yaml, header.yaml, search.yaml, redirects.yaml or a .md/.yaml file in one of the folders ' +
      [...FOLDER_KIND.keys()].join(', ') + `, or a file a body uses (${Object.keys(FILE_TYPES).join(' ')})`);
    return undefined;
  }
  const { kind, schema, body } = kindDef;
  const isMarkdown = path.endsWith('.md');
  if (isMarkdown && !body) {
    fail(1, 'file', `${kind} entries are YAML files, not Markdown`);
    return undefined;
  }

  // A body is checked even when its front matter stops the entry, so one run reports both.
  const bodyIssues = (md: ReturnType<typeof parseMarkdown>) => {
    for (const { warning, reason, hint, ...at } of md.issues) {
      problems.push({ file: path, ...at, field: 'body', reason, ...(hint ? { hint } : {}), ...(warning ? { severity: 'warning' as const } : {}) });
    }
  };
  const checkBodyOnly = () => {
    if (isMarkdown) bodyIssues(parseMarkdown(text, { idPrefix: 'unnamed', allowSections: kind === 'kbArticle', videoHosts }));
  };

  const parsed = yamlOf(path, text);
  if (!parsed) {
    fail(1, 'front matter', 'missing: a Markdown entry starts with --- and YAML fields, then ---');
    return undefined;
  }
  const { yaml, lineCounter, yamlLine } = parsed;
  if (yaml.errors.length > 0) {
    for (const error of yaml.errors) {
      const [start, end] = error.linePos ?? [];
      const at: Position = { line: (start?.line ?? 1) + yamlLine - 1, ...(start ? { column: start.col } : {}) };
      if (start && end && (end.line > start.line || end.col > start.col)) Object.assign(at, { endLine: end.line + yamlLine - 1, endColumn: end.col });
      fail(at, 'yaml', (error.message.split('\n')[0] ?? 'invalid YAML').replace(/ at line \d+, column \d+:?$/, ''));
    }
    checkBodyOnly();
    return undefined;
  }
  if (!isMap(yaml.contents)) {
    fail({ line: yamlLine, column: 1 }, 'yaml', 'expected a map of fields (key: value)');
    checkBodyOnly();
    return undefined;
  }
  const positionOf = makePositionOf(yaml, lineCounter, yamlLine);
  const lineOf = (fieldPath: (string | number)[]) => positionOf(fieldPath).line;
  const fields = yaml.toJS() as Record<string, unknown>;
  // Walked always: YAML writes a NUL as the escape "\0" too, so the raw text may not show one.
  reportNuls(text, fields, lineOf, isMarkdown, fail);
  // Fields as YAML decoded them (escapes such as "\uE000" included), a YAML entry's rich-text body too.
  for (const at of slotMarkerPaths(fields)) fail(positionOf(at), at.join('.') || 'entry', SLOT_MARKER_REASON);
  const rawBody = fields.body;
  if (body && !isMarkdown) delete fields.body;

  for (const error of [...schemaErrors(schema, fields), ...urlFieldErrors(schema, fields)]) {
    fail(positionOf(error.path, 'on' in error ? error.on : undefined), error.path.join('.') || 'entry', error.reason, 'hint' in error ? error.hint : undefined);
  }
  if (kind === 'searchSettings') problems.push(...searchSettingsProblems(path, fields, (at) => positionOf(at)));
  const id = typeof fields.id === 'string' ? fields.id : '';
  if (!id) {
    checkBodyOnly();
    return undefined;
  }

  const entry: LoadedEntry = { kind, id, file: path, line: lineOf(['id']), fields, lineOf, positionOf, embedded: {}, sections: {} };
  if (isMarkdown) {
    // Ids of entries defined in the body derive from the entry's id, so they are stable and unique.
    const md = parseMarkdown(text, { idPrefix: id, allowSections: kind === 'kbArticle', videoHosts, embedHosts });
    bodyIssues(md);
    entry.document = md.document;
    entry.embedded = md.embedded;
    entry.sections = md.sections;
    reportBodySlotMarkers(path, text, md, problems);
  } else if (body && rawBody !== undefined) {
    const document = rawBody as Document;
    const errors = typeof rawBody === 'object' && rawBody !== null && (rawBody as { nodeType?: unknown }).nodeType === 'document'
      ? validateRichTextDocument(document)
      : [{ details: 'body must be a rich-text document (nodeType: document)', path: [] }];
    for (const error of errors) {
      const where = (error as { path?: (string | number)[] }).path ?? [];
      fail(lineOf(['body', ...where]), ['body', ...where].join('.'), (error as { details?: string }).details ?? 'invalid rich text');
    }
    if (errors.length === 0) entry.document = normaliseHeadings(document);
  }
  if (kind === 'notice' && typeof fields.message === 'string') {
    const md = parseInlineMarkdown(fields.message, `${id}.message`, lineOf(['message']) - 1);
    for (const { warning, reason, hint, line } of md.issues) {
      // Columns count in the YAML string, not the file: the line alone.
      problems.push({ file: path, line, field: 'message', reason, ...(hint ? { hint } : {}), ...(warning ? { severity: 'warning' as const } : {}) });
    }
    entry.fieldDocuments = { message: md.document };
    // A character reference in the message decodes only here (the raw field was checked above).
    if (slotMarkerPaths(fields.message).length === 0 && slotMarkerPaths([md.document, md.embedded]).length > 0) {
      fail(positionOf(['message']), 'message', SLOT_MARKER_REASON);
    }
    Object.assign(entry.embedded, md.embedded);
  }
  return entry;
}

/**
 * Slot delimiters in a Markdown body, each where it is written; one that only the parsed body shows (a
 * form the source scan does not know) at the body's first line, so none is ever let through.
 */
function reportBodySlotMarkers(path: string, text: string, md: ReturnType<typeof parseMarkdown>, problems: Problem[]) {
  const { bodyLine } = splitFrontMatter(text);
  const written = slotMarkersInMarkdown(text, bodyLine);
  for (const at of written) problems.push({ file: path, ...at, endLine: at.line, field: 'body', reason: SLOT_MARKER_REASON });
  if (written.length === 0 && slotMarkerPaths([md.document, md.embedded, md.sections]).length > 0) {
    problems.push({ file: path, line: bodyLine, field: 'body', reason: SLOT_MARKER_REASON });
  }
}

const NUL = '\u0000';

/**
 * A NUL character cannot be stored (PostgreSQL text refuses it), so it is a problem of the file like
 * any other: each field that holds one, by line; a NUL elsewhere (the Markdown body) by its line.
 */
function reportNuls(text: string, fields: Record<string, unknown>, lineOf: LoadedEntry['lineOf'], isMarkdown: boolean,
  fail: (line: number, field: string, reason: string) => void) {
  const reason = 'must not contain a NUL character';
  const reported = new Set<number>();
  const stack: [unknown, (string | number)[]][] = [[fields, []]];
  while (stack.length > 0) {
    const [value, at] = stack.pop() as [unknown, (string | number)[]];
    if (typeof value === 'string' && value.includes(NUL)) {
      const line = lineOf(at);
      reported.add(line);
      fail(line, at.join('.') || 'entry', reason);
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key.includes(NUL)) {
          const line = lineOf(at);
          reported.add(line);
          fail(line, at.join('.') || 'entry', `field names ${reason}`);
        }
        stack.push([child, [...at, Array.isArray(value) ? Number(key) : key]]);
      }
    }
  }
  if (!text.includes(NUL)) return;
  text.split('\n').forEach((content, i) => {
    if (content.includes(NUL) && !reported.has(i + 1)) fail(i + 1, isMarkdown ? 'body' : 'yaml', reason);
  });
}

function kindOf(path: string) {
  const single = SINGLE_FILES[path as keyof typeof SINGLE_FILES];
  if (single) return { kind: single.kind as EntryKind, schema: single.schema, body: false };
  const [folder] = path.split('/');
  const kind = folder ? FOLDER_KIND.get(folder) : undefined;
  if (!kind || !/\.(md|ya?ml)$/.test(path) || path.split('/').length < 2) return undefined;
  return { kind: kind as EntryKind, ...ENTRY_KINDS[kind] };
}

function makePositionOf(yaml: YamlDocument, counter: LineCounter, firstLine: number) {
  const at = (start: number, end?: number): Position => {
    const s = counter.linePos(start);
    const pos: Position = { line: s.line + firstLine - 1, column: s.col };
    if (end !== undefined && end > start) {
      const e = counter.linePos(end);
      Object.assign(pos, { endLine: e.line + firstLine - 1, endColumn: e.col });
    }
    return pos;
  };
  return (path: (string | number)[], on?: 'key'): Position => {
    if (on === 'key' && path.length > 0) {
      const parent = yaml.getIn(path.slice(0, -1), true);
      const name = path[path.length - 1];
      const pair = isMap(parent) ? parent.items.find((p) => isScalar(p.key) && p.key.value === name) : undefined;
      const range = isScalar(pair?.key) ? pair.key.range : undefined;
      if (range) return at(range[0], range[1]);
    }
    for (let n = path.length; n >= 0; n--) {
      const node = yaml.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      const range = node?.range;
      if (typeof range?.[0] === 'number') {
        // A scalar is marked whole; a map or list where it starts.
        return n === path.length && !isCollection(node) ? at(range[0], range[1]) : at(range[0]);
      }
    }
    return { line: firstLine };
  };
}

/**
 * A content tree kept parsed in memory, for live preview: after the first full read, `update` re-reads
 * and re-parses only the files it is told changed (a folder is listed again), and `result` gives the
 * whole tree, in path order, for the cross-entry checks in resolve.ts.
 */
export class ContentSnapshot {
  private readonly files = new Map<string, { text: string; entry?: LoadedEntry; problems: Problem[] }>();
  private readonly contentFiles = new Map<string, ContentFile>();
  private sorted: string[] | undefined;
  private flags: string | undefined;

  constructor(readonly dir: string) {}

  /** Reads and parses the whole tree. */
  async loadAll(): Promise<void> {
    this.files.clear();
    this.sorted = undefined;
    const loaded = await loadContent(this.dir);
    for (const file of loaded.files) this.files.set(file.path, { text: file.text, problems: [] });
    for (const entry of loaded.entries) {
      const held = this.files.get(entry.file);
      if (held) held.entry = entry;
    }
    for (const problem of loaded.problems) this.files.get(problem.file)?.problems.push(problem);
    this.contentFiles.clear();
    for (const [path, file] of loaded.contentFiles ?? []) this.contentFiles.set(path, file);
    this.flags = loaded.flags;
  }

  /** Reads an image or other file again; true when it changed. */
  private async updateFile(path: string): Promise<boolean> {
    const before = this.contentFiles.get(path);
    let file: ContentFile;
    try {
      file = await readContentFile(this.dir, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      return this.contentFiles.delete(path);
    }
    this.contentFiles.set(path, file);
    return before?.hash !== file.hash || before.size !== file.size;
  }

  /** Drops the images and files under a folder that is gone. */
  private dropFiles(folder: string, keep: Set<string>, changed: string[]) {
    for (const held of [...this.contentFiles.keys()]) {
      if ((held === folder || held.startsWith(`${folder}/`)) && !keep.has(held)) {
        this.contentFiles.delete(held);
        changed.push(held);
      }
    }
  }

  /**
   * Re-reads the given paths (relative to the tree, `/`-separated): a file that is gone is dropped, a
   * folder is listed again. Returns the paths whose text changed.
   */
  async update(paths: Iterable<string>): Promise<string[]> {
    const changed: string[] = [];
    const visit = async (path: string) => {
      if (path === FLAGS_FILE_NAME) {
        const text = await readFlags(this.dir);
        if (text !== this.flags) changed.push(path);
        this.flags = text;
        return;
      }
      if (isFilePath(path) && isContentPath(path)) {
        if (await this.updateFile(path)) changed.push(path);
        return;
      }
      let text: string;
      try {
        text = await readFile(join(this.dir, path), 'utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'EISDIR') return this.rescan(path, changed);
        if (code !== 'ENOENT') throw error;
        // Gone: the file, or a folder with everything under it.
        for (const held of [...this.files.keys()]) {
          if (held === path || held.startsWith(`${path}/`)) {
            this.files.delete(held);
            this.sorted = undefined;
            changed.push(held);
          }
        }
        this.dropFiles(path, new Set(), changed);
        return;
      }
      if (!isContentPath(path)) return;
      const held = this.files.get(path);
      if (held && held.text === text) return;
      const problems: Problem[] = [];
      const entry = loadFile(path, text, problems, this.videoHosts(), this.videoHosts('embedHosts'));
      if (!held) this.sorted = undefined;
      this.files.set(path, { text, problems, ...(entry ? { entry } : {}) });
      changed.push(path);
    };
    const hostsOf = () => `${this.videoHosts().join('\n')}\n\n${this.videoHosts('embedHosts').join('\n')}`;
    const hostsBefore = hostsOf();
    // site.yaml first: the bodies read after it see the video hosts it lists now.
    for (const path of [...new Set(paths)].sort((a, b) => Number(b === 'site.yaml') - Number(a === 'site.yaml'))) await visit(path);
    const hosts = this.videoHosts();
    if (hostsOf() !== hostsBefore) {
      // Other hosts: every body is read again, as a whole-tree read would.
      for (const [path, held] of this.files) {
        if (path === 'site.yaml' || changed.includes(path)) continue;
        const problems: Problem[] = [];
        const entry = loadFile(path, held.text, problems, hosts, this.videoHosts('embedHosts'));
        this.files.set(path, { text: held.text, problems, ...(entry ? { entry } : {}) });
        changed.push(path);
      }
    }
    return changed;
  }

  /** The video (or embed) hosts the tree's site.yaml lists now. */
  private videoHosts(key: 'videoHosts' | 'embedHosts' = 'videoHosts'): string[] {
    const site = this.files.get('site.yaml');
    return site ? siteVideoHosts([{ path: 'site.yaml', text: site.text }], key) : [];
  }

  private async rescan(folder: string, changed: string[]) {
    const listed = new Set((await listContentFiles(join(this.dir, folder))).map((p) => `${folder}/${p}`));
    for (const held of [...this.files.keys()]) {
      if (held.startsWith(`${folder}/`) && !listed.has(held)) {
        this.files.delete(held);
        this.sorted = undefined;
        changed.push(held);
      }
    }
    this.dropFiles(folder, listed, changed);
    changed.push(...(await this.update(listed)));
  }

  /** The tree as loadContent would read it now. */
  result(): LoadResult {
    this.sorted ??= [...this.files.keys()].sort();
    const entries: LoadedEntry[] = [];
    const problems: Problem[] = [];
    const files: LoadResult['files'] = [];
    for (const path of this.sorted) {
      const held = this.files.get(path);
      if (!held) continue;
      files.push({ path, text: held.text });
      problems.push(...held.problems);
      if (held.entry) entries.push(held.entry);
    }
    if (files.length === 0) problems.push({ file: '.', line: 1, field: 'content', reason: `no content files found in ${this.dir}` });
    return { entries, problems, files, contentFiles: new Map(this.contentFiles), ...(this.flags === undefined ? {} : { flags: this.flags }) };
  }
}

/** Whether a path of the tree is one listContentFiles would list. */
function isContentPath(path: string): boolean {
  return !path.split('/').some((part) => part.startsWith('.')) && !NON_ENTRY_FILES.has(path);
}
