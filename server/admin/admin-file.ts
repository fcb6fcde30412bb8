/**
 * The running server's admin address, written into the data directory so that commands which cannot
 * open the locked PGlite directory can hand their work to the server (DESIGN "Running safely"). It holds
 * a bearer token, so it is readable by its owner only and removed when the server closes.
 */
import { chmod, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface AdminFile {
  pid: number;
  /** Base URL on this host, e.g. http://127.0.0.1:3000 */
  url: string;
  token: string;
}

export const adminFilePath = (dataDir: string) => join(dataDir, 'admin.json');

export async function writeAdminFile(dataDir: string, info: AdminFile): Promise<void> {
  const path = adminFilePath(dataDir);
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(info), { mode: 0o600 });
  await chmod(temp, 0o600); // the umask cannot widen it, and a leftover file keeps no wider mode
  await rename(temp, path);
}

export async function readAdminFile(dataDir: string): Promise<AdminFile | undefined> {
  try {
    return JSON.parse(await readFile(adminFilePath(dataDir), 'utf8')) as AdminFile;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/** Removes the file if it is still this server's (another server may have replaced it since). */
export async function removeAdminFile(dataDir: string, token: string): Promise<void> {
  const current = await readAdminFile(dataDir).catch(() => undefined);
  if (current?.token === token) await rm(adminFilePath(dataDir), { force: true });
}
