/**
 * The peers delivery tests talk to: a real SMTP server (smtp-server, messages parsed by mailparser), a
 * real HTTP receiver (node:http) whose answers a test decides per request, and a log that can be waited
 * on. Waits are event-driven: each resolves on the event it waits for, or fails after a deadline.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { NewRequest } from '../../server/support/store.ts';

type Test = { teardown: (fn: () => unknown) => void };

export const WEBHOOK_SECRET = 'webhook-secret-for-tests-0123456789';
const DEADLINE_MS = 15_000;

/** Resolves when `check` says so, re-checked on every `signal` call; rejects after the deadline. */
class Waits {
  private waiting = new Set<() => void>();

  signal(): void {
    for (const check of [...this.waiting]) check();
  }

  until<T>(check: () => T | undefined, what: string, deadlineMs = DEADLINE_MS): Promise<T> {
    return new Promise((resolve, reject) => {
      const run = () => {
        const value = check();
        if (value === undefined) return;
        clearTimeout(timer);
        this.waiting.delete(run);
        resolve(value);
      };
      const timer = setTimeout(() => {
        this.waiting.delete(run);
        reject(new Error(`timed out waiting for ${what}`));
      }, deadlineMs);
      this.waiting.add(run);
      run();
    });
  }
}

export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

/** A pino destination that keeps every line and lets a test wait for one. */
export function logTap() {
  const lines: LogLine[] = [];
  const raw: string[] = [];
  const waits = new Waits();
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) {
        raw.push(text);
        try {
          lines.push(JSON.parse(text) as LogLine);
        } catch {
          // not JSON: kept in raw only
        }
      }
      waits.signal();
      done();
    },
  });
  return {
    stream, lines, raw,
    /** The first line (already written or to come, from line `from` on) with this message matching `match`. */
    waitFor(msg: string, match: (line: LogLine) => boolean = () => true, from = 0): Promise<LogLine> {
      return waits.until(() => lines.slice(from).find((l) => l.msg === msg && match(l)), `log "${msg}"`);
    },
    count(msg: string, match: (line: LogLine) => boolean = () => true): number {
      return lines.filter((l) => l.msg === msg && match(l)).length;
    },
  };
}

export interface Received {
  /** When it arrived (Date.now()). */
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
  key: string;
  /** The status the receiver answered; undefined while it has not (or never will). */
  status: number | undefined;
}

/**
 * What the receiver answers to a request: a status, or 'hang' (never answers). The default answers 200
 * to a key seen the first time and 200 again to a resend (an idempotent receiver).
 */
export type Answer = (request: Received, index: number) => number | 'hang';

/** A local webhook receiver: keeps every request, and the keys it accepted (answered 2xx). */
export async function startReceiver(t: Test, answer: Answer = () => 200) {
  const received: Received[] = [];
  const accepted = new Map<string, number>();
  const hanging: ServerResponse[] = [];
  const waits = new Waits();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = { at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), key: String(req.headers['idempotency-key'] ?? ''), status: undefined };
      received.push(entry);
      const status = state.answer(entry, received.length - 1);
      if (status === 'hang') {
        hanging.push(res);
      } else {
        entry.status = status;
        if (status >= 200 && status < 300) accepted.set(entry.key, (accepted.get(entry.key) ?? 0) + 1);
        res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
      }
      waits.signal();
    });
  });
  const state = { answer };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/support`,
    received, accepted, hanging, state,
    /** Resolves once `n` requests with this key (any key when undefined) have arrived. */
    requests(n: number, key?: string): Promise<Received[]> {
      return waits.until(() => {
        const list = received.filter((r) => key === undefined || r.key === key);
        return list.length >= n ? list : undefined;
      }, `${n} webhook request(s)${key ? ` for ${key}` : ''}`);
    },
  };
}

export interface Mail {
  envelope: { from: string; to: string[] };
  mail: ParsedMail;
  raw: Buffer;
  /** The SMTP reply code the server answered the message with. */
  code: number;
}

/**
 * A local SMTP server (no TLS, no authentication) keeping every message, parsed. `answer` may refuse a
 * message with an SMTP reply code (4xx, 5xx); by default every message is accepted (250).
 */
export async function startSmtp(t: Test, answer: (mail: ParsedMail, index: number) => number = () => 250) {
  const messages: Mail[] = [];
  const waits = new Waits();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw).then((mail) => {
          const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
          const code = answer(mail, messages.length);
          messages.push({ envelope: { from, to: session.envelope.rcptTo.map((r) => r.address) }, mail, raw, code });
          waits.signal();
          if (code < 400) return callback();
          callback(Object.assign(new Error(code < 500 ? 'Try again later' : 'Message refused'), { responseCode: code }));
        }, callback);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    /** Resolves once `n` messages have arrived. */
    received(n: number) {
      return waits.until(() => (messages.length >= n ? messages : undefined), `${n} e-mail(s)`);
    },
  };
}

/** A request as a form would store it, each with a fresh submission key. */
export function newRequest(overrides: Partial<NewRequest> = {}): NewRequest {
  return {
    formId: 'contact', kind: 'contact', submissionKey: randomBytes(12).toString('base64url'),
    email: 'ada@customer.example', name: 'Ada Lovelace', partner: false, subject: 'The widget will not start',
    product: 'widget', version: '2.1', severity: 'high',
    fields: { description: 'It stops at the splash screen.\nEvery time.', agree: true, areas: ['install', 'start'] },
    context: { pageUrl: 'https://help.example.test/widget/docs/start', productName: 'Widget' },
    language: 'en-US', attachments: [], ...overrides,
  };
}

/** The settings of an app that delivers to these peers, with short waits. */
export function deliveryEnv(peers: { smtp?: { url: string }; receiver?: { url: string } }, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...(peers.smtp ? { SMTP_URL: peers.smtp.url, SUPPORT_MAIL_TO: 'helpdesk@vendor.example', SUPPORT_MAIL_FROM: 'help-centre@help.example.test' } : {}),
    ...(peers.receiver ? { SUPPORT_WEBHOOK_URL: peers.receiver.url, SUPPORT_WEBHOOK_SECRET: WEBHOOK_SECRET } : {}),
    DELIVERY_BACKOFF_MS: '20', DELIVERY_POLL_MS: '200', DELIVERY_MAX_ATTEMPTS: '4', SHUTDOWN_TIMEOUT_MS: '200',
    LOG_LEVEL: 'info', ACCESS_LOG: 'off',
    ...extra,
  };
}
