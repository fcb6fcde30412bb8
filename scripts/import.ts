/**
 * npm run import -- [dir] [--format text|json]: checks a content tree and, when it has no problems,
 * replaces the stored content in one transaction. Every problem is printed compiler style (file:line:col,
 * the line, a caret, a hint) on stderr, or with --format json as one JSON document on stdout; exit code 1.
 * Safe while a server runs: on PGlite the data directory is locked by the server, so the import is
 * handed to it (scripts/import-handover.ts); PostgreSQL serves several processes at once.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, type Config } from '../server/config.ts';
import { ContentError, formatDiagnostics, sortProblems, jsonReport, sourcesIn, useColour, type Problem } from '../server/content/problems.ts';
import type { ImportResult } from '../server/content/import.ts';

const FORMATS = ['text', 'json'];
const USAGE = 'usage: import [--check] [--force] [--format text|json] [content-dir]';
let options;
try {
  options = parseArgs({
    options: { check: { type: 'boolean' }, force: { type: 'boolean' }, format: { type: 'string', default: 'text' } },
    allowPositionals: true,
  });
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
const format = options.values.format;
if (!FORMATS.includes(format) || options.positionals.length > 1) {
  console.error(`${options.positionals.length > 1 ? `one content folder, not ${options.positionals.length}` : `unknown --format "${format}": use text or json`}\n${USAGE}`);
  process.exit(2);
}
const json = format === 'json';
const checkOnly = options.values.check === true;
const force = options.values.force === true;
const dirArg = options.positionals[0];
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(2);
}
const dir = resolve(dirArg ?? config.contentDir);
const tty = process.stderr.isTTY;

const progress = (stage: string, done: number, total: number) => {
  if (tty && total >= 200) process.stderr.write(`\r${stage === 'read' ? 'Reading' : 'Writing'} ${done}/${total} entries…${done === total ? '\n' : ''}`);
};

async function main(): Promise<number> {
  if (checkOnly) {
    const { checkContent } = await import('../server/content/import.ts');
    const { plan, problems, warnings } = await checkContent(dir, progress);
    const all = [...problems, ...warnings];
    const counts = { entries: plan.entries.length, pages: plan.routes.length };
    if (json) console.log(jsonReport(sortProblems(all), { written: false, ...counts }));
    else if (all.length > 0) report(all, problems.length > 0 ? 'nothing was written.' : '');
    if (problems.length > 0) return 1;
    if (!json) console.log(`${dir}: ${counts.entries} entries, ${counts.pages} pages, ${warnings.length > 0 ? 'no errors' : 'no problems'}`);
    return 0;
  }
  // Loaded here: a check or a usage error needs no database.
  const { openDb, pgliteDirFor } = await import('../server/db/driver.ts');
  const { migrate } = await import('../server/db/migrate.ts');
  const { importContent } = await import('../server/content/import.ts');
  const { DataDirLockedError } = await import('../server/db/data-dir-lock.ts');
  const { importThroughServer } = await import('./import-handover.ts');
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
    if (json) console.log(jsonReport([], { written: false, failed: answer.message }));
    return 1;
  }
  try {
    await migrate(db);
    return printResult(await importContent(db, dir, { force, onProgress: progress }), dir);
  } catch (error) {
    if (error instanceof ContentError) return printProblems([...error.problems, ...error.warnings]);
    throw error;
  } finally {
    await db.close();
  }
}

/** Problems compiler style on stderr, with their source lines read from the tree. */
function report(problems: Problem[], tail: string) {
  console.error(formatDiagnostics(sortProblems(problems), sourcesIn(dir), { colour: useColour(process.stderr), tail }));
}

function printResult(result: ImportResult, dir: string): number {
  const warnings = result.warnings ?? [];
  if (json) {
    console.log(jsonReport(warnings, { written: result.imported, entries: result.entries, pages: result.routes }));
    return 0;
  }
  if (warnings.length > 0) report(warnings, '');
  const ms = (n: number) => `${Math.round(n)} ms`;
  console.log(result.imported
    ? `Imported ${result.entries} entries (${result.routes} pages) from ${dir} in ${ms(result.ms.total)} ` +
      `(read ${ms(result.ms.read)}, check ${ms(result.ms.check)}, write ${ms(result.ms.write)})`
    : `Content in ${dir} is unchanged (${result.entries} entries); nothing written. Use --force to import anyway.`);
  return 0;
}

function printProblems(problems: Problem[]): number {
  if (json) console.log(jsonReport(sortProblems(problems), { written: false }));
  else report(problems, 'nothing was written.');
  return 1;
}

process.exitCode = await main();
