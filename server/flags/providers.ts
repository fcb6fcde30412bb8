/**
 * Which OpenFeature provider answers (FLAGS_PROVIDER): the definitions evaluated in-process by default
 * (the content tree's flags.json as imported, or an operator's own FLAGS_FILE elsewhere, watched), or a
 * flag service over OFREP (flagd serves OFREP too, so `flagd` is the same client pointed at flagd). A
 * service configured without its URL is no provider at all: every flag takes its default.
 */
import { join } from 'node:path';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import type { Logger, Provider } from '@openfeature/server-sdk';
import type { Config } from '../config.ts';
import { FLAGS_FILE_NAME } from '../content/load.ts';
import { FileFlagProvider, type FileProviderOptions } from './file-provider.ts';
import { StoredFlagProvider, type StoredProviderOptions } from './stored-provider.ts';

/** fetch with a time limit: a slow flag service costs a page at most this long, then the default. */
export function fetchWithin(timeoutMs: number): typeof fetch {
  return (input, init) => fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) });
}

export type ProviderSetup =
  | { kind: 'file'; provider: FileFlagProvider }
  | { kind: 'content'; provider: StoredFlagProvider }
  | { kind: 'remote'; provider: Provider; url: string }
  | { kind: 'none'; reason: string };

/** FLAGS_FILE is the content tree's own flags.json (the default): its definitions are imported with the content. */
export function flagsInContent(config: Pick<Config, 'flagsFile' | 'contentDir'>): boolean {
  return config.flagsFile === join(config.contentDir, FLAGS_FILE_NAME);
}

export function providerFor(
  config: Pick<Config, 'flagsProvider' | 'flagsFile' | 'flagsUrl' | 'flagsTimeoutMs' | 'contentDir'>,
  logger: Logger,
  onLoad: FileProviderOptions['onLoad'],
  readStored: StoredProviderOptions['read'],
): ProviderSetup {
  if (config.flagsProvider === 'file' && flagsInContent(config)) {
    return { kind: 'content', provider: new StoredFlagProvider({ read: readStored, logger, onLoad }) };
  }
  if (config.flagsProvider === 'file') {
    return { kind: 'file', provider: new FileFlagProvider({ file: config.flagsFile, logger, onLoad }) };
  }
  if (!config.flagsUrl) {
    return { kind: 'none', reason: `FLAGS_PROVIDER=${config.flagsProvider} needs FLAGS_URL (the service's OFREP base URL)` };
  }
  const provider = new OFREPProvider({ baseUrl: config.flagsUrl, fetchImplementation: fetchWithin(config.flagsTimeoutMs) });
  return { kind: 'remote', provider, url: config.flagsUrl };
}
