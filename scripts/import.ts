/**
 * npm run import -- [dir]: checks a content tree and, when it has no problems, replaces the stored
 * content in one transaction. Every problem is printed as file:line: field: reason; exit code 1.
 */
import { resolve } from 'node:path';
import { loadConfig } from '../server/config.ts';
import { openDb, pgliteDirFor } from '../server/db/driver.ts';
import { migrate } from '../server/db/migrate.ts';
import { importContent } from '../server/content/import.ts';
import { ContentError, formatProblem } from '../server/content/problems.ts';

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
    const { plan, problems } = await checkContent(dir, progress);
    for (const p of problems) console.error(formatProblem(p));
    if (problems.length > 0) return 1;
    console.log(`${dir}: ${plan.entries.length} entries, ${plan.routes.length} pages, no problems`);
    return 0;
  }
  const db = await openDb({ databaseUrl: config.databaseUrl, pgliteDir: pgliteDirFor(config.dataDir) });
  try {
    await migrate(db);
    const result = await importContent(db, dir, { force, onProgress: progress });
    const ms = (n: number) => `${Math.round(n)} ms`;
    console.log(result.imported
      ? `Imported ${result.entries} entries (${result.routes} pages) from ${dir} in ${ms(result.ms.total)} ` +
        `(read ${ms(result.ms.read)}, check ${ms(result.ms.check)}, write ${ms(result.ms.write)})`
      : `Content in ${dir} is unchanged (${result.entries} entries); nothing written. Use --force to import anyway.`);
    return 0;
  } catch (error) {
    if (error instanceof ContentError) {
      for (const p of error.problems) console.error(formatProblem(p));
      console.error(`\n${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}; nothing was written.`);
      return 1;
    }
    throw error;
  } finally {
    await db.close();
  }
}

process.exitCode = await main();
