import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    formTokens: FormTokens;
  }
}

/**
 * Tokens for the site's POST forms. A token is bound to its purpose (the entry a feedback form is
 * for), not to a visitor, so anonymous pages stay cacheable; a cross-site page cannot read it.
 * The secret lives in the database, so every instance sharing it accepts the same tokens.
 */
export class FormTokens {
  constructor(private readonly secret: Buffer) {}

  issue(purpose: string): string {
    return createHmac('sha256', this.secret).update(purpose).digest('base64url');
  }

  verify(purpose: string, token: unknown): boolean {
    if (typeof token !== 'string') return false;
    const expected = Buffer.from(this.issue(purpose));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

export default fp(async (app) => {
  await app.db.query(
    `insert into app_secrets (name, value) values ('form-token', $1) on conflict (name) do nothing`,
    [randomBytes(32).toString('base64url')],
  );
  const rows = await app.db.query<{ value: string }>(`select value from app_secrets where name = 'form-token'`);
  app.decorate('formTokens', new FormTokens(Buffer.from(rows[0]?.value ?? '', 'base64url')));
}, { name: 'secrets', dependencies: ['db'] });
