/**
 * Reads a content tree into entries, checking each file on its own: YAML syntax, the schema of
 * its folder's type, and its Markdown body. Cross-entry checks are in resolve.ts.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { LineCounter, parseDocument, isMap, type Document as YamlDocument } from 'yaml';
import { validateRichTextDocument } from '@contentful/rich-text-types';
import { ENTRY_KINDS, SINGLE_FILES, type EntryKind } from './schemas.ts';
import { parseMarkdown, parseInlineMarkdown, splitFrontMatter, type KbSection } from './markdown.ts';
import { normaliseHeadings, type Document, type EmbeddedEntry } from './rich-text.ts';
import { schemaErrors } from './schema-errors.ts';
import type { Problem } from './problems.ts';

export interface LoadedEntry {
  kind: EntryKind;
  id: string;
  file: string;
  line: number;
  fields: Record<string, unknown>;
  /** Line of a field in the file, for messages about it. */
  lineOf: (path: (string | number)[]) => number;
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
}

const FOLDER_KIND = new Map<string, keyof typeof ENTRY_KINDS>(
  Object.entries(ENTRY_KINDS).map(([kind, def]) => [def.folder, kind as keyof typeof ENTRY_KINDS]),
);

export async function listContentFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((p) => !p.split('/').some((part) => part.startsWith('.')))
    .sort();
}

export async function loadContent(dir: string, onProgress?: (done: number, total: number) => void): Promise<LoadResult> {
  const paths = await listContentFiles(dir);
  const problems: Problem[] = [];
  const entries: LoadedEntry[] = [];
  const files: LoadResult['files'] = [];
  let done = 0;
  for (const path of paths) {
    const text = await readFile(join(dir, path), 'utf8');
    files.push({ path, text });
    const entry = loadFile(path, text, problems);
    if (entry) entries.push(entry);
    done += 1;
    if (onProgress && (done % 250 === 0 || done === paths.length)) onProgress(done, paths.length);
  }
  if (paths.length === 0) problems.push({ file: '.', line: 1, field: 'content', reason: `no content files found in ${dir}` });
  return { entries, problems, files };
}

/** Parses one file; appends its problems and returns the entry when it could be read at all. */
export function loadFile(path: string, text: string, problems: Problem[]): LoadedEntry | undefined {
  const fail = (line: number, field: string, reason: string) => problems.push({ file: path, line, field, reason });
  const kindDef = kindOf(path);
  if (!kindDef) {
    fail(1, 'file', 'not a content file: expected site.yaml, header.yaml or a .md/.yaml file in one of the folders ' +
      [...FOLDER_KIND.keys()].join(', '));
    return undefined;
  }
  const { kind, schema, body } = kindDef;
  const isMarkdown = path.endsWith('.md');
  if (isMarkdown && !body) {
    fail(1, 'file', `${kind} entries are YAML files, not Markdown`);
    return undefined;
  }

  let yamlText = text;
  let yamlLine = 1;
  if (isMarkdown) {
    const { frontMatter } = splitFrontMatter(text);
    if (!frontMatter) {
      fail(1, 'front matter', 'missing: a Markdown entry starts with --- and YAML fields, then ---');
      return undefined;
    }
    yamlText = frontMatter.text;
    yamlLine = frontMatter.line;
  }

  const lineCounter = new LineCounter();
  const yaml = parseDocument(yamlText, { lineCounter, uniqueKeys: true, prettyErrors: true });
  if (yaml.errors.length > 0) {
    for (const error of yaml.errors) {
      const line = (error.linePos?.[0]?.line ?? 1) + yamlLine - 1;
      fail(line, 'yaml', (error.message.split('\n')[0] ?? 'invalid YAML').replace(/ at line \d+, column \d+:?$/, ''));
    }
    return undefined;
  }
  if (!isMap(yaml.contents)) {
    fail(yamlLine, 'yaml', 'expected a map of fields (key: value)');
    return undefined;
  }
  const lineOf = makeLineOf(yaml, lineCounter, yamlLine);
  const fields = yaml.toJS() as Record<string, unknown>;
  const rawBody = fields.body;
  if (body && !isMarkdown) delete fields.body;

  for (const error of schemaErrors(schema, fields)) {
    fail(lineOf(error.path), error.path.join('.') || 'entry', error.reason);
  }
  const id = typeof fields.id === 'string' ? fields.id : '';
  if (!id) return undefined;

  const entry: LoadedEntry = { kind, id, file: path, line: lineOf(['id']), fields, lineOf, embedded: {}, sections: {} };
  if (isMarkdown) {
    // Ids of entries defined in the body derive from the entry's id, so they are stable and unique.
    const md = parseMarkdown(text, { idPrefix: id, allowSections: kind === 'kbArticle' });
    for (const issue of md.issues) fail(issue.line, 'body', issue.reason);
    entry.document = md.document;
    entry.embedded = md.embedded;
    entry.sections = md.sections;
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
    for (const issue of md.issues) fail(issue.line, 'message', issue.reason);
    entry.fieldDocuments = { message: md.document };
    Object.assign(entry.embedded, md.embedded);
  }
  return entry;
}

function kindOf(path: string) {
  const single = SINGLE_FILES[path as keyof typeof SINGLE_FILES];
  if (single) return { kind: single.kind as EntryKind, schema: single.schema, body: false };
  const [folder] = path.split('/');
  const kind = folder ? FOLDER_KIND.get(folder) : undefined;
  if (!kind || !/\.(md|ya?ml)$/.test(path) || path.split('/').length < 2) return undefined;
  return { kind: kind as EntryKind, ...ENTRY_KINDS[kind] };
}

function makeLineOf(yaml: YamlDocument, counter: LineCounter, firstLine: number) {
  return (path: (string | number)[]): number => {
    for (let n = path.length; n >= 0; n--) {
      const node = yaml.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      const offset = node?.range?.[0];
      if (typeof offset === 'number') {
        // A key's line is more useful than its value's for maps.
        return counter.linePos(offset).line + firstLine - 1;
      }
    }
    return firstLine;
  };
}
