/**
 * Images and files of the content tree: those beside the Markdown that uses them, and those in the
 * tree's `assets/` folder. The import stores each file a body uses in `content_files`, keyed by its
 * content hash, in the same transaction as the entries; pages link it at `/assets/files/<hash>/<name>`,
 * a URL that never changes its bytes (server/plugins/content-files.ts serves it).
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { imageSize } from 'image-size';
import { extname, join, posix } from 'node:path';
import type { Queryable } from '../db/driver.ts';
import { projectRoot } from '../paths.ts';
import { contentFileMaxBytes } from '../config.ts';

/** The types a content file may have, by extension: anything else is refused. Never HTML. */
export const FILE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.avif': 'image/avif', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
  '.pdf': 'application/pdf', '.zip': 'application/zip', '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8', '.json': 'application/json',
};
const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.svg', '.ico']);

/** Where stored files are served; the hash is the first 32 hex digits of the file's SHA-256. */
export const FILES_PREFIX = '/assets/files/';
const HASH = /^[0-9a-f]{32}$/;

/** The largest file a body may use: CONTENT_FILE_MAX_BYTES, 10 MB by default. */
export function maxFileBytes(): number {
  return contentFileMaxBytes(process.env.CONTENT_FILE_MAX_BYTES);
}

/** A file of the tree that is not an entry. */
export interface ContentFile {
  /** Its path in the tree, `/`-separated. */
  path: string;
  size: number;
  /** 32 hex digits of its SHA-256; '' when it is over the size limit (never read). */
  hash: string;
  /** Where it is on disk, read again when it is stored. */
  abs: string;
  /** An image's intrinsic size in CSS pixels, when its header says it: pages reserve its box before it loads. */
  width?: number;
  height?: number;
}

/** A file the import stores. */
export interface StoredFileRow {
  hash: string;
  name: string;
  type: string;
  size: number;
  abs: string;
}

export function fileType(path: string): string | undefined {
  return FILE_TYPES[extname(path).toLowerCase()];
}

export function isImagePath(path: string): boolean {
  return IMAGE_EXTENSIONS.has(extname(path).toLowerCase());
}

/** Whether a path of the tree is a file of a served type rather than an entry. */
export function isFilePath(path: string): boolean {
  return fileType(path) !== undefined;
}

export function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 32);
}

/** Reads a file's size and hash (files over the limit are not read). */
export async function readContentFile(dir: string, path: string): Promise<ContentFile> {
  const abs = join(dir, path);
  const info = await stat(abs);
  if (info.size > maxFileBytes()) return { path, size: info.size, hash: '', abs };
  const bytes = await readFile(abs);
  return { path, size: info.size, hash: hashOf(bytes), abs, ...(isImagePath(path) ? dimensionsOf(bytes) : {}) };
}

export interface Dimensions { width: number; height: number }

/**
 * An image's width and height from its header (PNG, JPEG, GIF, WebP, AVIF, SVG's width/height or
 * viewBox, ICO), rotated as its EXIF orientation says; nothing when the header does not say, or says
 * something unusable: the image is then shown without a reserved box, as before.
 */
export function dimensionsOf(bytes: Buffer): Dimensions | Record<string, never> {
  try {
    const size = imageSize(bytes);
    const turned = (size.orientation ?? 1) >= 5;
    const width = Math.round(turned ? size.height : size.width);
    const height = Math.round(turned ? size.width : size.height);
    return width > 0 && height > 0 && width <= 100_000 && height <= 100_000 ? { width, height } : {};
  } catch {
    return {};
  }
}

const appDimensions = new Map<string, Dimensions | Record<string, never>>();
/** dimensionsOf for a file of the application's own `assets/content/` folder, read once. */
export function appContentFileDimensions(rest: string): Dimensions | Record<string, never> {
  let found = appDimensions.get(rest);
  if (!found) {
    try {
      found = isImagePath(rest) ? dimensionsOf(readFileSync(join(projectRoot, 'assets/content', rest))) : {};
    } catch {
      found = {};
    }
    appDimensions.set(rest, found);
  }
  return found;
}

export function fileUrl(file: { hash: string; path: string }): string {
  return `${FILES_PREFIX}${file.hash}/${encodeURIComponent(posix.basename(file.path))}`;
}

/** The hash named by a served path's first segment, or undefined when it cannot be one. */
export function hashOfUrl(segment: string): string | undefined {
  return HASH.test(segment) ? segment : undefined;
}

let appFiles: Set<string> | undefined;
/** Whether the application's own `assets/content/` folder has a file (served at /assets/content/…). */
export function appContentFileExists(rest: string): boolean {
  if (!appFiles) {
    try {
      appFiles = new Set(readdirSync(join(projectRoot, 'assets/content'), { recursive: true }).map((p) => String(p).split('\\').join('/')));
    } catch {
      appFiles = new Set();
    }
  }
  return appFiles.has(rest);
}

/** Bytes of files sent in one statement: few round trips, without holding every image in memory at once. */
const FILE_BATCH_BYTES = 16 * 1024 * 1024;
const FILE_READ_CONCURRENCY = 16;

/**
 * Makes the stored files exactly `files` inside the import's transaction: files already stored (same
 * hash) are not read or written again, new ones are read and checked against their hash, and files no
 * entry uses any more are removed.
 */
export async function writeFiles(tx: Queryable, files: StoredFileRow[]): Promise<void> {
  const hashes = files.map((f) => f.hash);
  await tx.query('delete from content_files where not (hash = any($1::text[]))', [hashes]);
  const present = new Set((await tx.query<{ hash: string }>('select hash from content_files where hash = any($1::text[])', [hashes])).map((r) => r.hash));
  // One row per hash: the same bytes at two paths are stored once.
  const wanted = files.filter((f) => (present.has(f.hash) ? false : (present.add(f.hash), true)));
  let batch: { file: StoredFileRow; bytes: Buffer }[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.query(
      `insert into content_files (hash, name, type, size, data)
       select * from unnest($1::text[], $2::text[], $3::text[], $4::integer[], $5::bytea[])`,
      [batch.map((b) => b.file.hash), batch.map((b) => b.file.name), batch.map((b) => b.file.type), batch.map((b) => b.bytes.length), batch.map((b) => b.bytes)],
    );
    batch = [];
    batchBytes = 0;
  };
  for (let i = 0; i < wanted.length; i += FILE_READ_CONCURRENCY) {
    const group = wanted.slice(i, i + FILE_READ_CONCURRENCY);
    const read = await Promise.all(group.map(async (file) => ({ file, bytes: await readFile(file.abs) })));
    for (const { file, bytes } of read) {
      if (hashOf(bytes) !== file.hash) throw new Error(`${file.name} changed while it was being imported; import again`);
      if (batchBytes + bytes.length > FILE_BATCH_BYTES) await flush();
      batch.push({ file, bytes });
      batchBytes += bytes.length;
    }
  }
  await flush();
}

export interface ServedFile {
  name: string;
  type: string;
  size: number;
  data: Buffer;
}

export async function readStoredFile(db: Queryable, hash: string): Promise<ServedFile | undefined> {
  const rows = await db.query<{ name: string; type: string; size: number; data: Uint8Array }>(
    'select name, type, size, data from content_files where hash = $1', [hash]);
  const row = rows[0];
  return row ? { name: row.name, type: row.type, size: row.size, data: Buffer.from(row.data) } : undefined;
}
