/**
 * `npm run import` (and `npm run accounts`) while a server holds the PGlite data directory: the work is
 * handed to that server's admin endpoint over loopback (DESIGN "Running safely"), with the token from
 * the data directory's admin file. Node's http client is used because an import may run longer than
 * fetch's header timeout.
 */
import { request } from 'node:http';
import { readAdminFile, adminFilePath } from '../server/admin/admin-file.ts';
import type { ImportResult } from '../server/content/import.ts';
import type { Problem } from '../server/content/problems.ts';

export type HandoverAnswer =
  | { kind: 'imported'; result: ImportResult & { dir: string } }
  | { kind: 'problems'; problems: Problem[] }
  | { kind: 'failed'; message: string };

/** How long to wait for a server that holds the lock but has not written its admin file yet (starting). */
const ANNOUNCE_WAIT_MS = 10_000;

/** The running server's answer to a command handed to its admin endpoint, or why there was none. */
export type ServerAnswer =
  | { kind: 'answered'; status: number; text: string; json: Record<string, unknown>; url: string }
  | { kind: 'failed'; message: string };

/**
 * Posts `body` to the admin endpoint `path` of the server announced in the data directory's admin file
 * (waiting a while for a server that is still starting). `what` names the work in messages ("the import").
 */
export async function postToServer(dataDir: string, path: string, body: unknown, what: string): Promise<ServerAnswer> {
  let admin = await readAdminFile(dataDir);
  for (const until = Date.now() + ANNOUNCE_WAIT_MS; !admin && Date.now() < until;) {
    await new Promise((r) => setTimeout(r, 250));
    admin = await readAdminFile(dataDir);
  }
  if (!admin) {
    return { kind: 'failed', message: `No running server announced itself in ${adminFilePath(dataDir)}, so ${what} cannot be handed over. ` +
      `Another command may be using the data directory: wait for it to finish, then run ${what} again.` };
  }
  const payload = JSON.stringify(body);
  let answer: { status: number; text: string };
  try {
    answer = await new Promise((resolve, reject) => {
      const req = request(`${admin.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
      }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { kind: 'failed', message: `The server announced in ${adminFilePath(dataDir)} (process ${admin.pid}, ${admin.url}) does not answer (${code}). ` +
      'The file may be left over from a server that stopped while another process holds the data directory; ' +
      `stop that process (or wait for it), then run ${what} again.` };
  }
  const json = (() => {
    try {
      const parsed = JSON.parse(answer.text) as unknown;
      return parsed && typeof parsed === 'object' ? parsed as Record<string, unknown> : {};
    } catch {
      return {};
    }
  })();
  return { kind: 'answered', status: answer.status, text: answer.text, json, url: admin.url };
}

export async function importThroughServer(dataDir: string, dir: string, force: boolean): Promise<HandoverAnswer> {
  const answer = await postToServer(dataDir, '/admin/import', { dir, force }, 'the import');
  if (answer.kind === 'failed') return answer;
  const { json } = answer;
  if (answer.status === 200) return { kind: 'imported', result: json as unknown as ImportResult & { dir: string } };
  if (answer.status === 422 && Array.isArray(json.problems)) return { kind: 'problems', problems: json.problems as Problem[] };
  const message = typeof json.message === 'string' ? json.message : answer.text.slice(0, 200);
  return { kind: 'failed', message: `The running server (${answer.url}) refused the import: ${answer.status} ${message}` };
}
