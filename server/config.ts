import { resolve } from 'node:path';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

/** Every setting Signpost reads from the environment (documented in README "Configuration"). */
export const ConfigSchema = Type.Object({
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  host: Type.String({ minLength: 1 }),
  databaseUrl: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  dataDir: Type.String({ minLength: 1 }),
  contentDir: Type.String({ minLength: 1 }),
  importOnStart: Type.Boolean(),
  logLevel: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  publicUrl: Type.String({ pattern: '^https?://' }),
  previewToken: Type.Optional(Type.String({ minLength: 32 })),
  identityUrl: Type.String({ pattern: '^(https?://|/)' }),
  staffDomain: Type.String({ minLength: 1 }),
  searchNewFilters: Type.Boolean(),
  rateLimitMax: Type.Integer({ minimum: 1 }),
  rateLimitWindow: Type.Integer({ minimum: 1 }),
});
export type Config = Static<typeof ConfigSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function bool(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new ConfigError(`${name}: expected true or false, got "${raw}"`);
}

/** Reads and validates configuration; a bad value stops start-up with the variable named. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  const config = {
    port,
    host: env.HOST || '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.DATA_DIR || 'data'),
    contentDir: resolve(env.CONTENT_DIR || 'content'),
    importOnStart: bool('IMPORT_ON_START', env.IMPORT_ON_START, true),
    logLevel: env.LOG_LEVEL || 'info',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${Number.isFinite(port) ? port : 3000}`).replace(/\/+$/, ''),
    previewToken: env.PREVIEW_TOKEN || undefined,
    identityUrl: (env.IDENTITY_URL || '/auth').replace(/\/+$/, ''),
    staffDomain: env.STAFF_EMAIL_DOMAIN || 'fernhollow.example',
    searchNewFilters: bool('SEARCH_NEW_FILTERS', env.SEARCH_NEW_FILTERS, false),
    rateLimitMax: env.RATE_LIMIT_MAX ? Number(env.RATE_LIMIT_MAX) : 30,
    rateLimitWindow: env.RATE_LIMIT_WINDOW ? Number(env.RATE_LIMIT_WINDOW) : 60,
  };
  const problems = [...Value.Errors(ConfigSchema, config)];
  if (problems.length > 0) {
    const names: Record<string, string> = {
      port: 'PORT', host: 'HOST', databaseUrl: 'DATABASE_URL', dataDir: 'DATA_DIR', contentDir: 'CONTENT_DIR',
      importOnStart: 'IMPORT_ON_START', logLevel: 'LOG_LEVEL', publicUrl: 'PUBLIC_URL', previewToken: 'PREVIEW_TOKEN',
      identityUrl: 'IDENTITY_URL', staffDomain: 'STAFF_EMAIL_DOMAIN',
      rateLimitMax: 'RATE_LIMIT_MAX', rateLimitWindow: 'RATE_LIMIT_WINDOW',
    };
    const lines = problems.map((p) => {
      const key = p.instancePath.split('/')[1] ?? '';
      return `${names[key] ?? key}: ${p.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${[...new Set(lines)].join('\n  ')}`);
  }
  return config as Config;
}
