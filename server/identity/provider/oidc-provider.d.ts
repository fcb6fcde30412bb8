/**
 * The part of oidc-provider 8 this folder uses (the package ships no type declarations).
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  import type { EventEmitter } from 'node:events';

  export type AdapterPayload = Record<string, unknown> & {
    grantId?: string; userCode?: string; uid?: string; consumed?: unknown;
  };

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  /** The Koa context oidc-provider hands to configuration functions. */
  export interface KoaContextWithOIDC {
    status: number;
    body: unknown;
    type: string;
    method: string;
    path: string;
    host: string;
    req: IncomingMessage;
    res: ServerResponse;
    set(name: string, value: string): void;
    remove(name: string): void;
    accepts(...types: string[]): string | false;
    state: Record<string, unknown>;
    redirect(url: string): void;
    oidc: {
      route?: string;
      client?: { clientId: string; clientName?: string; redirectUris?: string[] };
      session?: { accountId?: string; grantIdFor(clientId: string, value?: string): string | undefined };
      account?: { accountId: string };
      params?: Record<string, unknown>;
      result?: Record<string, unknown> & { consent?: { grantId?: string } };
      requestParamOIDCScopes: Set<string>;
      requestParamClaims: Set<string>;
      provider: Provider;
      urlFor(name: string, opt?: Record<string, unknown>): string;
    };
  }

  export interface ErrorOut { error: string; error_description?: string; state?: string; iss?: string }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean };
    consent?: { grantId?: string };
    select_account?: Record<string, never>;
    error?: string;
    error_description?: string;
    [key: string]: unknown;
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    getOIDCScope(): string;
    save(): Promise<string>;
    static find(id: string): Promise<Grant | undefined>;
  }

  export interface Interaction {
    uid: string;
    jti: string;
    exp: number;
    returnTo: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown> & { client_id?: string; scope?: string; redirect_uri?: string };
    session?: { accountId?: string; uid?: string };
    grantId?: string;
    lastSubmission?: InteractionResults;
    result?: InteractionResults;
    save(ttl: number): Promise<string>;
  }

  export class Prompt {
    constructor(options: { name: string; requestable: boolean }, ...checks: unknown[]);
    name: string;
  }

  export const interactionPolicy: {
    Prompt: typeof Prompt;
    base(): Prompt[] & { add(prompt: Prompt, index?: number): void; get(name: string): Prompt | undefined };
  };

  export const errors: {
    InvalidRequest: new (description?: string, code?: number) => Error;
    [name: string]: new (...args: never[]) => Error;
  };

  export interface Configuration { [key: string]: unknown }

  export default class Provider extends EventEmitter {
    constructor(issuer: string, configuration: Configuration);
    readonly issuer: string;
    proxy: boolean;
    Grant: typeof Grant;
    Client: { find(id: string): Promise<{ clientId: string; clientName?: string; redirectUris: string[] } | undefined> };
    use(middleware: (ctx: KoaContextWithOIDC, next: () => Promise<void>) => Promise<void>): void;
    callback(): (req: IncomingMessage, res: ServerResponse) => Promise<void>;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(req: IncomingMessage, res: ServerResponse, result: InteractionResults, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
  }
}
