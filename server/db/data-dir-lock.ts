/**
 * The exclusive lock on a PGlite data directory (DESIGN "Running safely"): PGlite is one process's
 * database, and two processes writing one directory corrupt it. The lock is a directory next to the
 * data (`<dir>.lock`, made atomically by proper-lockfile) whose mtime the holder refreshes; a holder that
 * crashed is detected by its process id when on this host, else once the lock has not been refreshed
 * for STALE_MS.
 */
import { readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import lockfile from 'proper-lockfile';

const STALE_MS = 20_000;
const UPDATE_MS = 2_000;

/** Directories this process holds: a second open in the same process is refused too. */
const held = new Set<string>();

interface Owner {
  pid: number;
  host: string;
  since: string;
}

/** Another process (or this one) has the directory open. */
export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  readonly code = 'EDATADIRLOCKED';
  constructor(readonly dir: string, readonly owner: Owner | undefined) {
    const who = owner ? ` by process ${owner.pid} on ${owner.host} since ${owner.since}` : '';
    super(
      `The PGlite data directory ${dir} is in use${who}. Only one process may open it at a time: ` +
        'stop the process that has it open, or, to import content while a server is running, use ' +
        '`npm run import`, which hands the import to the running server.',
    );
  }
}

const lockPath = (dir: string) => `${dir}.lock`;
const ownerPath = (dir: string) => `${dir}.lock-owner.json`;

function readOwner(dir: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(ownerPath(dir), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

/** True when the owner is known to be gone: a process id on this host that no longer runs. */
function ownerIsGone(owner: Owner | undefined): boolean {
  if (!owner || owner.host !== hostname()) return false;
  // Same id as ours but not held by us: a restarted container reuses the id of the process that died.
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Takes the lock on `dir` or throws DataDirLockedError; resolves to the function that releases it. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  if (held.has(dir)) throw new DataDirLockedError(dir, readOwner(dir));
  const options = {
    stale: STALE_MS,
    update: UPDATE_MS,
    realpath: false,
    lockfilePath: lockPath(dir),
    onCompromised: (error: Error) => {
      // Someone else may now be writing the directory: stopping is the only safe thing left.
      throw new Error(`Lost the lock on the PGlite data directory ${dir} (${error.message}); stopping to protect the data.`);
    },
  };
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dir, options);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    const owner = readOwner(dir);
    if (!ownerIsGone(owner)) throw new DataDirLockedError(dir, owner);
    // The holder crashed: its lock is left over, not live.
    rmSync(lockPath(dir), { recursive: true, force: true });
    try {
      release = await lockfile.lock(dir, options);
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'ELOCKED') throw new DataDirLockedError(dir, readOwner(dir));
      throw again;
    }
  }
  held.add(dir);
  const owner: Owner = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
  writeFileSync(ownerPath(dir), JSON.stringify(owner));
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    held.delete(dir);
    try {
      unlinkSync(ownerPath(dir));
    } catch {
      // already gone
    }
    await release();
  };
}
