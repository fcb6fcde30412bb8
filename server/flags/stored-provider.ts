/**
 * Flag definitions that travel with the published content: the import stores the tree's flags.json with
 * the content version (content_imports.flags, server/content/import.ts), and every instance evaluates
 * the latest import's. They are read again whenever the content caches drop (the import's NOTIFY, a
 * reconnected listener, an import here), so a publish on one instance changes flags on all of them
 * without a shared disk. A tree without flags.json gives every flag its default, on every instance.
 */
import type { Logger } from '@openfeature/server-sdk';
import { DefinitionsProvider, type LoadReport } from './file-provider.ts';

/** How stored definitions are named in diagnostics: the tree's file, as imported. */
export const STORED_FLAGS = 'flags.json (imported content)';

export interface StoredProviderOptions {
  /** The latest import's flags text (null: its tree had none); undefined while nothing is imported. */
  read: () => Promise<{ flags: string | null } | undefined>;
  logger: Logger;
  onLoad?: ((result: LoadReport) => void) | undefined;
}

export class StoredFlagProvider extends DefinitionsProvider {
  readonly metadata = { name: 'flagd definitions of the imported content' } as const;
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly options: StoredProviderOptions) {
    super(options.logger, options.onLoad);
  }

  async initialize(): Promise<void> {
    await this.reload();
  }

  /**
   * Reads the stored definitions again, one read at a time. A database that does not answer keeps the
   * definitions held (logged); the next content change or reconnection reads again.
   */
  reload(): Promise<void> {
    const run = this.queue.then(async () => {
      let stored: { flags: string | null } | undefined;
      try {
        stored = await this.options.read();
      } catch (error) {
        this.options.logger.warn(`stored flag definitions not read (${(error as Error).message}): the ones held keep serving`);
        return;
      }
      // Nothing imported yet: the import that comes announces itself.
      if (!stored) return;
      if (stored.flags === null) {
        // Every instance must agree: the published content has no definitions, so none are held here either.
        this.clear();
        this.onLoad?.({ loaded: false, missing: true, problems: [{ file: STORED_FLAGS, reason: 'the imported content has no flags.json' }] });
        return;
      }
      this.apply(STORED_FLAGS, stored.flags);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A read under way finishes before the database it reads from is closed. */
  async onClose(): Promise<void> {
    await this.queue;
  }
}
