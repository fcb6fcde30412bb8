import t from 'tap';
import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkLoaded, checkLoadedInSlices } from '../../server/content/import.ts';
import { loadContent } from '../../server/content/load.ts';
import { formatProblem } from '../../server/content/problems.ts';
import { mapSteps, runAtOnce, runInSlices } from '../../server/content/slices.ts';
import { editFile, tempContent } from '../helpers/build.ts';

/** Counts the event loop's turns until stopped. */
function turns() {
  let count = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    count++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return { stop: () => ((running = false), count) };
}

t.test('steps run at once and in slices give the same value; only slices give the event loop turns', async (t) => {
  const items = Array.from({ length: 50 }, (_, i) => i);
  const atOnce = turns();
  const whole = runAtOnce(mapSteps(items, (n) => n * n));
  t.equal(atOnce.stop(), 0, 'at once: no turn in between');
  const sliced = turns();
  const parts = await runInSlices(mapSteps(items, (n) => n * n), 0);
  t.ok(sliced.stop() >= 25, 'slices of no length: a turn after (nearly) every step');
  t.same(parts, whole);
  t.same(whole.slice(0, 3), [0, 1, 4]);
});

t.test('a tree checked in slices gives what it gives checked at once, problems, warnings and digest included', async (t) => {
  const dir = await tempContent(t);
  await appendFile(join(dir, 'products/acme-cloud.yaml'), 'colour: blue\n');
  await editFile(join(dir, 'collections/acme-cloud-basics.yaml'), 'acme-cloud-draft]', 'acme-cloud-missing]');
  await editFile(join(dir, 'topics/acme-cloud/draft.md'), 'slug: upcoming-feature', 'slug: first-steps');
  const atOnce = checkLoaded(await loadContent(dir, undefined, { workers: 1 }));
  const counter = turns();
  const sliced = await checkLoadedInSlices(await loadContent(dir, undefined, { workers: 1 }), 0, undefined, 0);
  t.ok(counter.stop() > 10, 'the event loop had turns while the tree was checked');
  t.ok(atOnce.problems.length >= 4, 'the broken tree has its problems');
  t.same(sliced.problems.map(formatProblem), atOnce.problems.map(formatProblem), 'the same problems on the same lines');
  t.same(sliced.warnings.map(formatProblem), atOnce.warnings.map(formatProblem));
  t.equal(sliced.digest, atOnce.digest);
  t.same(sliced.plan.entries, atOnce.plan.entries, 'the same entries, rendered alike');
  t.same(sliced.plan.routes, atOnce.plan.routes);
  t.same(sliced.plan.files, atOnce.plan.files);
});
