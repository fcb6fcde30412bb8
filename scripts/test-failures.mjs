// Prints, after a test run, every failing assertion recorded under .tap/test-results with its
// diagnostics, so the end of a long log says what failed and where.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = '.tap/test-results';

function* files(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    // Results of test files since removed are left out.
    else if (name.endsWith('.tap') && existsSync(path.slice(root.length + 1, -'.tap'.length))) yield path;
  }
}

let failing = 0;
for (const file of files(root)) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const shown = [];
  lines.forEach((line, i) => {
    if (!/^\s*not ok \d+/.test(line) || /#\s*(TODO|SKIP)\b/i.test(line)) return;
    // A failing subtest repeats its failing children: report the deepest lines only.
    const indent = line.search(/\S/);
    const next = lines.slice(i + 1).find((l) => /^\s*(not )?ok \d+/.test(l));
    if (next && next.search(/\S/) > indent) return;
    const block = [line];
    for (let j = i + 1; j < lines.length && j < i + 40; j++) {
      const l = lines[j];
      if (/^\s*((not )?ok \d+|# Subtest|1\.\.\d+)/.test(l)) break;
      block.push(l);
    }
    shown.push(block.join('\n'));
  });
  if (shown.length === 0) continue;
  failing += shown.length;
  console.log(`\n== failing in ${file.slice(root.length + 1).replace(/\.tap$/, '')} ==`);
  for (const block of shown) console.log(block);
}
if (failing > 0) console.log(`\n${failing} failing assertion(s), listed above`);
