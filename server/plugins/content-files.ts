/**
 * Images and files the content's bodies use (server/content/files.ts), at /assets/files/<hash>/<name>:
 * the hash names the bytes, so the answer never changes and is cached for a year. The type comes from
 * the file's extension at import (only the types in FILE_TYPES are stored: never HTML), and nosniff keeps
 * browsers from guessing another.
 *
 * SVG is served as an image, inline, with a Content-Security-Policy sandbox and no script source: shown
 * in an <img> it never runs scripts anyway, and opened on its own (a new tab, a link) the sandbox keeps
 * any script in it from running, on a unique origin. Serving it as an attachment would break opening a
 * diagram to zoom in, which authors expect.
 */
import fp from 'fastify-plugin';
import { hashOfUrl, readStoredFile } from '../content/files.ts';
import { Lru } from '../content/lru.ts';
import { prepare, sendPrepared, type PreparedAsset } from './assets.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files up to this size are kept in memory, as sent (with their compressed forms for text). */
const HELD_BYTES = 1024 * 1024;
const HELD_FILES = 64;
const TEXT = /^(?:text\/|image\/svg\+xml|application\/json)/;
const INLINE = /^(?:image\/|text\/|application\/pdf|application\/json)/;
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

interface Served extends PreparedAsset { name: string }

export default fp(async (app) => {
  const held = new Lru<Served | null>(HELD_FILES);
  // An import removes files no entry uses any more: they stop being served at once.
  app.content.onInvalidate(() => held.clear());

  const load = async (hash: string): Promise<Served | null> => {
    // A page just imported may name a file a replica has not replayed yet: a miss is asked of the primary.
    const file = (await readStoredFile(app.dbRead, hash)) ?? (app.dbRead.status() ? await readStoredFile(app.db, hash) : undefined);
    if (!file) return null;
    if (TEXT.test(file.type)) return { name: file.name, ...(await prepare(file.data, file.type, IMMUTABLE)) };
    // Images, PDFs and archives are compressed already.
    return { name: file.name, body: file.data, type: file.type, cacheControl: IMMUTABLE, etag: `"${hash}"` };
  };

  app.get<{ Params: { hash: string; name: string } }>('/assets/files/:hash/:name', { compress: false }, async (request, reply) => {
    const hash = hashOfUrl(request.params.hash);
    if (!hash) return reply.callNotFound();
    const cached = held.peek(hash);
    const file = cached ? await cached : await load(hash);
    if (!cached && file && file.body.length <= HELD_BYTES) held.set(hash, Promise.resolve(file));
    // The name is part of the address: another name for the same bytes is not one.
    if (!file || file.name !== request.params.name) return reply.callNotFound();
    reply.header('x-content-type-options', 'nosniff');
    const disposition = INLINE.test(file.type) ? 'inline' : 'attachment';
    reply.header('content-disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(file.name)}`);
    if (file.type === 'image/svg+xml') reply.header('content-security-policy', SVG_POLICY);
    return sendPrepared(request, reply, file);
  });
}, { name: 'content-files', dependencies: ['content', 'db'] });
