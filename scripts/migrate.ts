/**
 * npm run migrate -- --from docusaurus|mkdocs|starlight SRC OUT: converts a site's docs folder, its
 * navigation and front matter into a Signpost content tree in OUT (a new or empty folder), then lists,
 * file by file, what could not be carried over. Config files are read without running them.
 */
import { resolve } from 'node:path';
import { migrate, TOOLS, type Tool } from './migrate/index.ts';
import { formatReport } from './migrate/report.ts';

const USAGE = 'usage: npm run migrate -- --from docusaurus|mkdocs|starlight SRC OUT';
const args = process.argv.slice(2);
const fromAt = args.indexOf('--from');
const tool = (fromAt >= 0 ? args[fromAt + 1] : args.find((a) => a.startsWith('--from='))?.slice(7)) as Tool | undefined;
const rest = args.filter((a, i) => !a.startsWith('--from') && i !== fromAt + 1);
if (!tool || !TOOLS.includes(tool) || rest.length !== 2) {
  console.error(USAGE);
  process.exit(2);
}
const [src, out] = rest.map((p) => resolve(p)) as [string, string];
try {
  const result = await migrate(tool, src, out);
  console.log(`Wrote ${result.files.length} files to ${out}: ${result.collections} collections, ${result.topicSets} topic sets, ${result.topics} topics (product "${result.product}").`);
  console.log(`\nWhat was carried over differently or not at all:${formatReport(result)}`);
  console.log(`\nNext: npm run content:check -- ${out}`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
