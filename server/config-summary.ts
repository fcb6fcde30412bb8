/**
 * The start-up line a security team reads first: where the site answers and whom it trusts (issuer,
 * flag service, AI endpoint). Addresses only: a URL's user, password, query and fragment (where
 * credentials are sometimes put) are left out, and no secret variable is named at all.
 */
import type { Config } from './config.ts';
import { embeddedIssuer } from './identity/types.ts';
import { flagsInContent } from './flags/providers.ts';

/** A configured address without what could be a credential in it. */
export function addressOnly(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '[not a URL]';
  }
}

export function configurationSummary(config: Config): Record<string, unknown> {
  return {
    publicUrl: addressOnly(config.publicUrl),
    issuer: addressOnly(config.oidcIssuer ?? embeddedIssuer(config.publicUrl, config.identityUrl)),
    issuerKind: config.oidcIssuer ? 'external' : 'embedded',
    oidcClientId: config.oidcClientId,
    flagProvider: config.flagsProvider,
    flagSource: config.flagsProvider !== 'file' ? addressOnly(config.flagsUrl) ?? 'none (every flag takes its default)'
      : flagsInContent(config) ? 'the imported content\'s flags.json' : config.flagsFile,
    aiEndpoint: addressOnly(config.aiBaseUrl) ?? 'none (the assistant answers from the passages)',
    aiModel: config.aiModel,
  };
}
