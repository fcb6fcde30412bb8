import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Queryable } from '../../db/driver.ts';

const NUL = '\u0000';

/** How often, at most, a write also deletes the rows that have expired (per process). */
export const SWEEP_INTERVAL_MS = 60_000;

interface ModelRow { payload: AdapterPayload | string; consumed_at: Date | string | null }

export interface AdapterOptions {
  clock?: (() => number) | undefined;
  /** Reports a sweep that failed (it is retried on a later write). */
  onSweepError?: ((error: unknown) => void) | undefined;
}

/**
 * A value holding a NUL, which PostgreSQL cannot store: oidc-provider answers it as an exposed OAuth
 * error (400 invalid_request), not a server error.
 */
export class NulInputError extends Error {
  readonly expose = true;
  readonly statusCode = 400;
  readonly error_description = 'parameters must not contain a NUL character';
  constructor() {
    super('invalid_request');
  }
}

/** Per database: when expired rows were last swept. */
const lastSweep = new WeakMap<Queryable, number>();

/**
 * oidc-provider's storage contract over the oidc_models table (migration 7): one row per model
 * instance (sessions, interactions, codes, grants, tokens), keyed by model name and id, with the
 * columns the look-ups need (grant, user code, session uid). A row past its expiry is never found;
 * expired rows are deleted by a sweep that runs with a write at most once a minute, so every
 * instance sharing the database keeps the table small without a timer of its own.
 */
export class DbAdapter implements Adapter {
  constructor(private readonly db: Queryable, readonly kind: string, private readonly options: AdapterOptions = {}) {}

  private now(): Date {
    return new Date((this.options.clock ?? Date.now)());
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const json = JSON.stringify(payload);
    // PostgreSQL text and jsonb cannot hold a NUL: the request carrying one is refused, not a 500.
    if (json.includes('\\u0000')) throw new NulInputError();
    const expiresAt = expiresIn > 0 ? new Date(this.now().getTime() + expiresIn * 1000) : null;
    await this.db.query(
      `insert into oidc_models (kind, id, payload, grant_id, user_code, uid, expires_at)
       values ($1, $2, $3::jsonb, $4, $5, $6, $7)
       on conflict (kind, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
         user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at, consumed_at = null`,
      [this.kind, id, json, stringOrNull(payload.grantId), stringOrNull(payload.userCode),
        this.kind === 'Session' ? stringOrNull(payload.uid) : null, expiresAt],
    );
    await this.sweep();
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    return this.first('id = $2', id);
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return this.first('uid = $2', uid);
  }

  async findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
    return this.first('user_code = $2', userCode);
  }

  async consume(id: string): Promise<void> {
    if (id.includes(NUL)) return;
    await this.db.query('update oidc_models set consumed_at = $3 where kind = $1 and id = $2', [this.kind, id, this.now()]);
  }

  async destroy(id: string): Promise<void> {
    if (id.includes(NUL)) return;
    await this.db.query('delete from oidc_models where kind = $1 and id = $2', [this.kind, id]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if (grantId.includes(NUL)) return;
    // Every code and token of the grant, whatever its model.
    await this.db.query('delete from oidc_models where grant_id = $1', [grantId]);
  }

  /** Deletes expired rows, at most once per SWEEP_INTERVAL_MS; a failure waits for a later write. */
  async sweep(force = false): Promise<number> {
    const now = this.now();
    const last = lastSweep.get(this.db);
    if (!force && last !== undefined && now.getTime() - last < SWEEP_INTERVAL_MS) return 0;
    lastSweep.set(this.db, now.getTime());
    try {
      const rows = await this.db.query('delete from oidc_models where expires_at <= $1 returning 1', [now]);
      return rows.length;
    } catch (error) {
      this.options.onSweepError?.(error);
      return 0;
    }
  }

  private async first(where: string, value: string): Promise<AdapterPayload | undefined> {
    // Nothing stored holds a NUL (PostgreSQL text cannot): a code or token carrying one is simply unknown.
    if (typeof value !== 'string' || value.includes(NUL)) return undefined;
    const rows = await this.db.query<ModelRow>(
      `select payload, consumed_at from oidc_models where kind = $1 and ${where} and (expires_at is null or expires_at > $3) limit 1`,
      [this.kind, value, this.now()],
    );
    const row = rows[0];
    if (!row) return undefined;
    const payload = typeof row.payload === 'string' ? JSON.parse(row.payload) as AdapterPayload : row.payload;
    return row.consumed_at ? { ...payload, consumed: Math.floor(new Date(row.consumed_at).getTime() / 1000) } : payload;
  }
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
