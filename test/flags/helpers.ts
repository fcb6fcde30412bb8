import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempContent } from '../helpers/build.ts';

type Test = { teardown: (fn: () => unknown) => void };

/** A boolean flag in flagd's definition format: on/off variants, a default variant, optional targeting. */
export function booleanFlag(defaultVariant: 'on' | 'off', targeting?: unknown): Record<string, unknown> {
  return { state: 'ENABLED', variants: { on: true, off: false }, defaultVariant, ...(targeting === undefined ? {} : { targeting }) };
}

/** A percentage rollout on the targeting key (flagd `fractional`, sticky per key). */
export function rollout(percentOn: number): unknown {
  return { fractional: [['on', percentOn], ['off', 100 - percentOn]] };
}

/** The definitions text of `flags`. */
export function definitions(flags: Record<string, unknown>): string {
  return `${JSON.stringify({ flags }, null, 2)}\n`;
}

/** A flags file in a temporary folder of its own (watched by the app): its path. */
export async function flagsFile(t: Test, flags: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signpost-flags-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'flags.json');
  await writeFile(file, definitions(flags));
  return file;
}

/** The topic of the minimal fixture, given a featured video in a copy of the tree: the copy's folder. */
export const VIDEO_TOPIC = '/acme-cloud/docs/first-steps';
export async function contentWithVideo(t: Test): Promise<string> {
  const content = await tempContent(t);
  const topic = join(content, 'topics/acme-cloud/first-steps.md');
  const text = await readFile(topic, 'utf8');
  await writeFile(topic, text.replace('metaDescription: Start using Acme.', 'metaDescription: Start using Acme.\nfeaturedVideo: { videoUrl: "https://video.example.test/v/1" }'));
  return content;
}

/** Waits (5 s at most) until `check` holds: a watched file's change is seen a moment after it is written. */
export async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}
