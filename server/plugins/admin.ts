import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isAbsolute } from 'node:path';
import type { AddressInfo } from 'node:net';
import fp from 'fastify-plugin';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ContentError } from '../content/problems.ts';
import { removeAdminFile, writeAdminFile } from '../admin/admin-file.ts';
import { AccountError } from '../identity/accounts.ts';
import { AccountCommand, runAccountCommand } from '../identity/account-commands.ts';

export interface AdminPluginOptions {
  /** The data directory whose PGlite database this server holds; the admin file goes there. */
  dataDir: string;
  /** The content tree imported when a request names none. */
  contentDir: string;
}

const ImportBody = Type.Object({
  dir: Type.Optional(Type.String({ minLength: 1, maxLength: 4096 })),
  force: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

const digest = (s: string) => createHash('sha256').update(s).digest();

function isLocal(request: FastifyRequest): boolean {
  // The socket's own addresses, not request.ip: proxy headers must not make a remote caller local.
  const { remoteAddress = '', localAddress = '' } = request.raw.socket;
  return /^(127\.|::1$|::ffff:127\.)/.test(remoteAddress) || remoteAddress === localAddress;
}

/**
 * The local admin endpoint (DESIGN "Running safely"): while this server holds the PGlite data directory,
 * `npm run import` cannot open it and hands the import to `POST /admin/import` instead, and `npm run
 * accounts` its commands to `POST /admin/accounts`. Only callers on
 * this host that present the token written to the data directory's admin file (mode 0600) are served;
 * the token is made at start, compared in constant time and never logged.
 */
export default fp<AdminPluginOptions>(async (app, opts) => {
  const token = randomBytes(32).toString('base64url');
  const expected = digest(token);

  const authorise = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLocal(request)) return reply.code(404).header('cache-control', 'no-store').send({ statusCode: 404, error: 'NOT_FOUND', message: 'Not found' });
    const header = request.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice(7) : '';
    // Hashing first gives equal lengths, so the compare is constant-time whatever was sent.
    if (!timingSafeEqual(digest(given), expected)) {
      request.log.warn('admin request refused: missing or wrong token');
      return reply.code(401).header('www-authenticate', 'Bearer').header('cache-control', 'no-store')
        .send({ statusCode: 401, error: 'UNAUTHORIZED', message: 'A valid admin token is required.' });
    }
  };

  app.post<{ Body: { dir?: string; force?: boolean } }>('/admin/import', {
    schema: { body: ImportBody, hide: true },
    onRequest: authorise,
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const dir = request.body.dir ?? opts.contentDir;
    if (!isAbsolute(dir)) return reply.code(400).send({ statusCode: 400, error: 'BAD_REQUEST', message: 'dir: must be an absolute path' });
    request.log.info({ dir, force: request.body.force === true }, 'import requested through the admin endpoint');
    try {
      const result = await app.importContentTree(dir, { force: request.body.force === true });
      request.log.info({ dir, imported: result.imported, entries: result.entries, pages: result.routes, ms: Math.round(result.ms.total) },
        result.imported ? 'content imported' : 'content unchanged');
      return { dir, ...result };
    } catch (error) {
      if (!(error instanceof ContentError)) throw error;
      return reply.code(422).send({ dir, problems: error.problems });
    }
  });

  // The accounts of the embedded provider (docs/ "Accounts"): the identity plugin, registered after
  // this one, decorates app.accounts. The body may hold a password: it is never logged, and answers
  // carry no hash.
  app.post<{ Body: AccountCommand }>('/admin/accounts', {
    schema: { body: AccountCommand, hide: true },
    attachValidation: true,
    onRequest: authorise,
  }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // JSON for the command line, not the site's HTML error page.
    if (request.validationError) return reply.code(400).send({ statusCode: 400, error: 'BAD_REQUEST', message: request.validationError.message });
    request.log.info({ command: request.body.command }, 'accounts command through the admin endpoint');
    try {
      return await runAccountCommand(app.accounts, request.body);
    } catch (error) {
      if (!(error instanceof AccountError)) throw error;
      return reply.code(422).send({ statusCode: 422, error: 'UNPROCESSABLE_ENTITY', field: error.field, reason: error.reason, message: error.message });
    }
  });

  app.addHook('onListen', async () => {
    const address = app.server.address() as AddressInfo | null;
    if (!address) return;
    const anyHost = address.address === '0.0.0.0' || address.address === '::';
    const host = anyHost ? (address.family === 'IPv6' ? '[::1]' : '127.0.0.1') : address.family === 'IPv6' ? `[${address.address}]` : address.address;
    await writeAdminFile(opts.dataDir, { pid: process.pid, url: `http://${host}:${address.port}`, token });
  });
  app.addHook('onClose', async () => removeAdminFile(opts.dataDir, token));
}, { name: 'admin', dependencies: ['content'] });
