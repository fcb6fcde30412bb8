/**
 * LISTEN on a PostgreSQL server over a connection of its own that comes back by itself. A pooled client
 * would be the wrong tool: the pool gives it no 'error' handler while checked out (a dropped connection
 * crashed the process) and never replaces it. Here a lost connection is logged through `onDisconnect`,
 * retried with backoff, and once LISTEN is issued again `onReconnect` tells the caller that notifications
 * may have been missed while away (DESIGN "Running safely").
 */
import type pg from 'pg';
import { backoffMs } from './backoff.ts';

export interface ListenOptions {
  /** Called once per reconnection, after LISTEN is issued again: a NOTIFY may have been missed. */
  onReconnect?: () => void;
  /** Called when the connection is lost; reconnecting has already been scheduled. */
  onDisconnect?: (error: Error) => void;
}

export interface ListenerSettings extends ListenOptions {
  newClient: () => pg.Client;
  channel: string;
  onMessage: (payload: string) => void;
}

export class Listener {
  private client: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private attempt = 0;
  private stopped = false;

  constructor(private readonly settings: ListenerSettings) {}

  /** The first connection: fails when the server cannot be reached, like opening the pool does. */
  async start(): Promise<void> {
    this.client = await this.connect();
  }

  /** Stops listening for good: no reconnect is attempted after this. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    await client.query(`unlisten ${quoteIdent(this.settings.channel)}`).catch(() => undefined);
    await client.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const { channel, onMessage } = this.settings;
    const client = this.settings.newClient();
    // Attached before connecting and never removed: an 'error' without a listener would end the process.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('Connection terminated')));
    client.on('notification', (msg) => {
      if (msg.channel === channel) onMessage(msg.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen ${quoteIdent(channel)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      throw new Error('listener stopped');
    }
    return client;
  }

  private lost(client: pg.Client, error: Error): void {
    // Events of a client that is not (or no longer) the live one: a failed attempt, or one already handled.
    if (client !== this.client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.settings.onDisconnect?.(error);
    this.retry();
  }

  private retry(): void {
    this.timer = setTimeout(() => {
      this.connect().then((client) => {
        this.client = client;
        this.attempt = 0;
        this.settings.onReconnect?.();
      }, () => {
        if (!this.stopped) this.retry();
      });
    }, backoffMs(this.attempt++));
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
