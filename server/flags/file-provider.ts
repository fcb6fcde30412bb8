/**
 * The default flag provider: flagd's flag-definition format (JSON, JsonLogic targeting, `fractional`
 * rollouts hashed on the targeting key) read from one file and evaluated in-process by flagd's own
 * evaluator (@openfeature/flagd-core). The file is watched: a good edit replaces the definitions at once,
 * a broken one is logged with what and where while the last good definitions keep serving, and until
 * there has been a good one every flag takes its default.
 */
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { FlagdCore, MemoryStorage } from '@openfeature/flagd-core';
import {
  OpenFeatureEventEmitter, ProviderEvents, type EvaluationContext, type JsonValue, type Logger, type Provider,
  type ResolutionDetails,
} from '@openfeature/server-sdk';

/** What the site needs to know of a flag's definition to keep caching honest (server/flags/plugin.ts). */
export interface FlagShape {
  /** Its value may differ between visitors: it has targeting rules. */
  targeted: boolean;
  /** Its value may differ between visitors of the same page: the rules read the targeting key (rollouts). */
  usesTargetingKey: boolean;
}

/** Why a flags file was refused, and where. */
export interface FlagsFileProblem {
  file: string;
  line?: number | undefined;
  column?: number | undefined;
  /** A JSON pointer into the file, when the problem is in one value. */
  field?: string | undefined;
  reason: string;
}

/** Line and column (1-based) of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** Where a JSON pointer's value starts in the text, found key by key; the file's start if not found. */
function offsetOf(text: string, pointer: string): number {
  let at = 0;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(key)) continue;
    const found = text.indexOf(JSON.stringify(key), at);
    if (found < 0) break;
    at = found;
  }
  return at;
}

/** JSON.parse's message carries the offending offset ("at position N"); older and newer engines word it differently. */
function syntaxProblem(file: string, text: string, error: Error): FlagsFileProblem {
  const position = /position (\d+)/.exec(error.message)?.[1];
  const lineCol = /line (\d+) column (\d+)/.exec(error.message);
  // V8 words an unexpected token without its position, quoting the text around it (10 characters each side).
  const quoted = /Unexpected token '(.)', (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON/.exec(error.message);
  let offset = text.length;
  if (quoted) {
    const [, token = '', cut, snippet = ''] = quoted;
    const found = text.indexOf(snippet);
    if (found >= 0) offset = found + (cut ? 10 : Math.max(0, snippet.indexOf(token)));
  }
  const where = position !== undefined ? lineColumn(text, Number(position))
    : lineCol ? { line: Number(lineCol[1]), column: Number(lineCol[2]) } : lineColumn(text, offset);
  const reason = error.message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/, (\.\.\.)?"[\s\S]*"(\.\.\.)? is not valid JSON$/, '');
  return { file, ...where, reason: `not valid JSON: ${reason}` };
}

/** The definitions in a flags file, or every problem that refuses it. */
export function parseFlagsFile(file: string, text: string, logger: Logger):
  { core: FlagdCore; shapes: Map<string, FlagShape> } | { problems: FlagsFileProblem[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { problems: [syntaxProblem(file, text, error as Error)] };
  }
  const storage = new MemoryStorage(logger);
  try {
    // Strict: a definition flagd's schema refuses is refused whole, never half-applied.
    storage.setConfigurations(text, true);
  } catch (error) {
    const message = (error as Error).message;
    const listed = message.indexOf('[');
    let details: { instancePath?: string; message?: string; params?: Record<string, unknown> }[] = [];
    try {
      details = listed >= 0 ? JSON.parse(message.slice(listed)) as typeof details : [];
    } catch { /* the message alone below */ }
    const cause = (error as { cause?: Error }).cause;
    if (details.length === 0) return { problems: [{ file, ...lineColumn(text, 0), reason: cause?.message ?? message }] };
    // Ajv reports every branch of a oneOf; the innermost paths say what to fix.
    const deepest = Math.max(...details.map((d) => (d.instancePath ?? '').split('/').length));
    const seen = new Set<string>();
    const problems: FlagsFileProblem[] = [];
    for (const d of details) {
      const pointer = d.instancePath ?? '';
      if (pointer.split('/').length < deepest - 1) continue;
      const extra = d.params?.additionalProperty ? ` (${String(d.params.additionalProperty)})` : '';
      const reason = `${d.message ?? 'invalid'}${extra}`;
      if (seen.has(`${pointer} ${reason}`)) continue;
      seen.add(`${pointer} ${reason}`);
      problems.push({ file, ...lineColumn(text, offsetOf(text, pointer)), field: pointer || '/', reason });
    }
    return { problems };
  }
  const shapes = new Map<string, FlagShape>();
  const flags = (json as { flags?: Record<string, { targeting?: unknown }> }).flags ?? {};
  for (const [name, flag] of Object.entries(flags)) {
    const targeting = flag.targeting === undefined ? '' : JSON.stringify(flag.targeting);
    const targeted = targeting !== '' && targeting !== '{}';
    // `$ref`s to shared evaluators may hide a rollout: then it counts as one.
    const usesTargetingKey = targeted && /"fractional"|"targetingKey"|"\$ref"/.test(targeting);
    shapes.set(name, { targeted, usesTargetingKey });
  }
  return { core: new FlagdCore(storage, logger), shapes };
}

/** Nothing: checking a file needs no log of flagd's own. */
const SILENT: Logger = { error: () => undefined, warn: () => undefined, info: () => undefined, debug: () => undefined };

/** A flags file's problems as the content import reports them (server/content/import.ts); none when it is good. */
export function flagsProblems(file: string, text: string): { file: string; line: number; column?: number; field: string; reason: string }[] {
  const parsed = parseFlagsFile(file, text, SILENT);
  if (!('problems' in parsed)) return [];
  return parsed.problems.map((p) => ({
    file, line: p.line ?? 1, ...(p.column === undefined ? {} : { column: p.column }), field: p.field ?? 'flags', reason: p.reason,
  }));
}

/** What a load of the definitions came to: the problems of refused ones, or none. */
export type LoadReport = { loaded: boolean; problems: FlagsFileProblem[]; missing: boolean };

/**
 * Definitions held in memory and evaluated by flagd's evaluator; where their text comes from (a file,
 * the imported content) is the subclass's. A refused text leaves the held definitions as they were.
 */
export abstract class DefinitionsProvider implements Provider {
  abstract readonly metadata: { readonly name: string };
  readonly runsOn = 'server' as const;
  readonly events = new OpenFeatureEventEmitter();
  private core: FlagdCore | undefined;
  private shapes = new Map<string, FlagShape>();
  private lastText: string | undefined;

  constructor(protected readonly logger: Logger, protected readonly onLoad?: (result: LoadReport) => void) {}

  /** Whether good definitions have been read. */
  get loaded(): boolean {
    return this.core !== undefined;
  }

  shapeOf(name: string): FlagShape {
    return this.shapes.get(name) ?? { targeted: false, usesTargetingKey: false };
  }

  /** Drops the definitions: every flag takes its default until good ones are applied. */
  protected clear(): void {
    const had = this.core !== undefined;
    this.core = undefined;
    this.shapes = new Map();
    this.lastText = undefined;
    if (had) this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: [] });
  }

  /** A good text replaces the definitions (true), a broken one is reported and changes nothing (false). */
  protected apply(file: string, text: string): boolean {
    if (text === this.lastText) return true;
    const parsed = parseFlagsFile(file, text, this.logger);
    if ('problems' in parsed) {
      this.onLoad?.({ loaded: false, missing: false, problems: parsed.problems });
      return false;
    }
    const changed = this.core !== undefined;
    this.core = parsed.core;
    this.shapes = parsed.shapes;
    this.lastText = text;
    this.onLoad?.({ loaded: true, missing: false, problems: [] });
    if (changed) this.events.emit(ProviderEvents.ConfigurationChanged, { flagsChanged: [...parsed.shapes.keys()] });
    return true;
  }

  private resolve<T extends JsonValue>(type: 'boolean' | 'string' | 'number' | 'object', flagKey: string, defaultValue: T, context: EvaluationContext, logger: Logger): ResolutionDetails<T> {
    if (!this.core) return { value: defaultValue, reason: 'DEFAULT' };
    return this.core.resolve(type, flagKey, defaultValue, context, logger) as ResolutionDetails<T>;
  }

  async resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext, logger: Logger): Promise<ResolutionDetails<boolean>> {
    return this.resolve('boolean', flagKey, defaultValue, context, logger);
  }

  async resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext, logger: Logger): Promise<ResolutionDetails<string>> {
    return this.resolve('string', flagKey, defaultValue, context, logger);
  }

  async resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext, logger: Logger): Promise<ResolutionDetails<number>> {
    return this.resolve('number', flagKey, defaultValue, context, logger);
  }

  async resolveObjectEvaluation<U extends JsonValue>(flagKey: string, defaultValue: U, context: EvaluationContext, logger: Logger): Promise<ResolutionDetails<U>> {
    return this.resolve('object', flagKey, defaultValue, context, logger);
  }
}

export interface FileProviderOptions {
  file: string;
  logger: Logger;
  /** Called after every load attempt: the problems of a refused file, or none. */
  onLoad?: ((result: LoadReport) => void) | undefined;
  /** How long edits settle before the file is read again (editors write in several steps). */
  settleMs?: number;
}

export class FileFlagProvider extends DefinitionsProvider {
  readonly metadata = { name: 'flagd definitions file' } as const;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: FileProviderOptions) {
    super(options.logger, options.onLoad);
  }

  async initialize(): Promise<void> {
    this.load();
    this.watch();
  }

  /** Reads the file; a good one replaces the definitions, a broken one is logged and changes nothing. */
  load(): boolean {
    const { file } = this.options;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
      const reason = missing ? 'no such file' : (error as Error).message;
      this.onLoad?.({ loaded: false, missing, problems: [{ file, reason }] });
      return false;
    }
    return this.apply(file, text);
  }

  /** Watches the file's folder, not the file: editors and deploys replace the file rather than write into it. */
  private watch(): void {
    const name = basename(this.options.file);
    try {
      this.watcher = watch(dirname(this.options.file), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed !== name) return;
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.load(), this.options.settleMs ?? 50);
        this.timer.unref();
      });
      this.watcher.on('error', () => this.watcher?.close());
    } catch (error) {
      this.options.logger.warn(`flags file not watched (${(error as Error).message}): changes need a restart`);
    }
  }

  async onClose(): Promise<void> {
    clearTimeout(this.timer);
    this.watcher?.close();
  }
}
