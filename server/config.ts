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
  shutdownTimeoutMs: Type.Integer({ minimum: 0 }),
  overloadMaxEventLoopDelayMs: Type.Integer({ minimum: 0 }),
  overloadMaxEventLoopUtilization: Type.Number({ minimum: 0, maximum: 1 }),
  overloadMaxHeapUsedMb: Type.Optional(Type.Integer({ minimum: 0 })),
  overloadRetryAfterS: Type.Integer({ minimum: 1 }),
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

function num(raw: string | undefined, fallback: number): number {
  return raw === undefined || raw === '' ? fallback : Number(raw);
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
    shutdownTimeoutMs: num(env.SHUTDOWN_TIMEOUT_MS, 10_000),
    overloadMaxEventLoopDelayMs: num(env.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, 1000),
    overloadMaxEventLoopUtilization: num(env.OVERLOAD_MAX_EVENT_LOOP_UTILIZATION, 0),
    overloadMaxHeapUsedMb: env.OVERLOAD_MAX_HEAP_USED_MB ? Number(env.OVERLOAD_MAX_HEAP_USED_MB) : undefined,
    overloadRetryAfterS: num(env.OVERLOAD_RETRY_AFTER_S, 10),
  };
  const problems = [...Value.Errors(ConfigSchema, config)];
  if (problems.length > 0) {
    const names: Record<string, string> = {
      port: 'PORT', host: 'HOST', databaseUrl: 'DATABASE_URL', dataDir: 'DATA_DIR', contentDir: 'CONTENT_DIR',
      importOnStart: 'IMPORT_ON_START', logLevel: 'LOG_LEVEL', publicUrl: 'PUBLIC_URL', previewToken: 'PREVIEW_TOKEN',
      identityUrl: 'IDENTITY_URL', staffDomain: 'STAFF_EMAIL_DOMAIN',
      shutdownTimeoutMs: 'SHUTDOWN_TIMEOUT_MS', overloadMaxEventLoopDelayMs: 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS',
      overloadMaxEventLoopUtilization: 'OVERLOAD_MAX_EVENT_LOOP_UTILIZATION', overloadMaxHeapUsedMb: 'OVERLOAD_MAX_HEAP_USED_MB',
      overloadRetryAfterS: 'OVERLOAD_RETRY_AFTER_S',
    };
    const lines = problems.map((p) => {
      const key = p.instancePath.split('/')[1] ?? '';
      return `${names[key] ?? key}: ${p.message}`;
    });
    throw new ConfigError(`Invalid configuration:\n  ${[...new Set(lines)].join('\n  ')}`);
  }
  return config as Config;
}
