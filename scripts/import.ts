/**
 * npm run import -- [dir]: checks a content tree and, when it has no problems, replaces the stored
 * content in one transaction. Every problem is printed as file:line: field: reason; exit code 1.
 * Safe while a server runs: on PGlite the data directory is locked by the server, so the import is
 * handed to it (scripts/import-handover.ts); PostgreSQL serves several processes at once.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { openDb, pgliteDirFor } from '../server/db/driver.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { ContentError, formatProblem, type Problem } from '../server/content/problems.ts';
import type { ImportResult } from '../server/content/import.ts';
import { DataDirLockedError } from '../server/db/data-dir-lock.ts';
import { importThroughServer } from './import-handover.ts';

const args = process.argv.slice(2);
const checkOnly = args.includes('--check');
const force = args.includes('--force');
const dirArg = args.find((a) => !a.startsWith('--'));
const config = loadConfig();
const dir = resolve(dirArg ?? config.contentDir);
const tty = process.stderr.isTTY;

const progress = (stage: string, done: number, total: number) => {
  if (tty && total >= 200) process.stderr.write(`\r${stage === 'read' ? 'Reading' : 'Writing'} ${done}/${total} entries…${done === total ? '\n' : ''}`);
};

async function main(): Promise<number> {
  if (checkOnly) {
    const { checkContent } = await import('../server/content/import.ts');
    const { plan, problems, warnings } = await checkContent(dir, progress);
    for (const p of [...problems, ...warnings]) console.error(formatProblem(p));
    if (problems.length > 0) return 1;
    console.log(`${dir}: ${plan.entries.length} entries, ${plan.routes.length} pages, no problems`);
    return 0;
  }
  let db;
  try {
    db = await openDb({ databaseUrl: config.databaseUrl, pgliteDir: pgliteDirFor(config.dataDir) });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    console.error(`${error.dir} is open in another process; handing the import to the running server…`);
    const answer = await importThroughServer(config.dataDir, dir, force);
    if (answer.kind === 'imported') return printResult(answer.result, dir);
    if (answer.kind === 'problems') return printProblems(answer.problems);
    console.error(answer.message);
    return 1;
  }
  try {
    await migrate(db);
    return printResult(await importContent(db, dir, { force, onProgress: progress }), dir);
  } catch (error) {
    if (error instanceof ContentError) return printProblems(error.problems);
    throw error;
  } finally {
    await db.close();
  }
}

function printResult(result: ImportResult, dir: string): number {
  for (const p of result.warnings ?? []) console.error(formatProblem(p));
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(result.imported
    ? `Imported ${result.entries} entries (${result.routes} pages) from ${dir} in ${ms(result.ms.total)} ` +
      `(read ${ms(result.ms.read)}, check ${ms(result.ms.check)}, write ${ms(result.ms.write)})`
    : `Content in ${dir} is unchanged (${result.entries} entries); nothing written. Use --force to import anyway.`);
  return 0;
}

function printProblems(problems: Problem[]): number {
  for (const p of problems) console.error(formatProblem(p));
  console.error(`\n${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written.`);
  return 1;
}

process.exitCode = await main();
