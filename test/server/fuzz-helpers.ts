/**
 * The pieces the fuzz tests share (test/server/fuzz.test.ts, fuzz-sockets.test.ts): a seeded random
 * source, nasty values, multipart bodies whole and broken, and a runner that sends one group's requests
 * with a deadline on each and counts statuses, server errors and requests that never got an answer.
 */
import type { FastifyInstance, InjectOptions } from 'fastify';

/** mulberry32: small, seeded, the same sequence on every machine. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Already URL-level: what a client can put on the wire that decodes badly or to something nasty. */
export const RAW = ['%00', 'a%00b', '%', '%E0%A4%A', '%ZZ', '%C0%AF', '%FF%FE', '%ED%A0%80', '%2F', '%2e%2e%2f', '%25', '%0d%0aSet-Cookie:%20x=1', '%u0000', '..', ''];
/** Text, percent-encoded on the way out. */
export const TEXT = ['a\u0000b', '\u0000', 'é', '日本語の検索', '😀', '\u202eevil', '\ud800', '\udc00x', '<script>alert(1)</script>', '../../etc/passwd', '//evil.example',
  '\\evil', '__proto__', 'constructor', 'null', '-1', '0', '1.0', '11.3', '1e309', 'Infinity', 'NaN', '-0', '0x10', '99999999999999999999', 'x'.repeat(600), 'y'.repeat(5000), 'z'.repeat(12_000),
  'a@b.example', 'acme-cloud-first-steps', 'acme-cloud', 'cloud', 'data_center', 'relevance', 'topic,kb_article', ' ', '\t\n', 'true', '\uE000email\uE001'];
/** Numbers as a query string carries them, the ones a schema or a SQL cast might take badly. */
export const NUMBERS = ['1', '2', '0', '-1', '1.5', '1e3', '1e309', 'Infinity', '-Infinity', 'NaN', '9007199254740993', '99999999999999999999', '0x10', ' 1', '1 ', '', 'one', '%00', '1%00'];
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;
export const CONTENT_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'text/plain', 'text/plain;charset=UTF-8', 'application/xml',
  'multipart/form-data; boundary=x', 'multipart/form-data', 'application/json; charset=utf-16', 'a/b/c', '', 'application/json\u0000'];

/** Random choices over one seeded sequence. */
export class Fuzz {
  readonly random: () => number;
  constructor(seed: number) {
    this.random = prng(seed);
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  int(below: number): number {
    return Math.floor(this.random() * below);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)] as T;
  }
  text(): string {
    return this.pick(TEXT);
  }
  /** Text as a URL carries it: percent-encoded, or already broken. */
  urlValue(): string {
    return this.chance(0.4) ? this.pick(RAW) : encode(this.text());
  }
  /** A number-like query value. */
  number(): string {
    return this.chance(0.8) ? this.pick(NUMBERS) : this.urlValue();
  }
  /** A query string of up to `max` parameters drawn from `params`, values from `value` or fuzz. */
  query(params: readonly string[], value: (name: string) => string = () => this.urlValue(), max = 4): string {
    const n = this.int(max + 1);
    const parts = Array.from({ length: n }, () => {
      const name = this.chance(0.9) ? this.pick(params) : this.pick(['__proto__', 'constructor[prototype]', 'a%00', '%ZZ', '']);
      return this.chance(0.05) ? name : `${name}=${this.chance(0.7) ? value(name) : this.urlValue()}`;
    });
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  }
  /** A key of a UUID's shape, from this sequence. */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(16).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  /** A client address: a few networks, so per-network limits are met now and then but not always. */
  address(): string {
    return this.chance(0.1) ? this.pick(['::1', '2001:db8::1', '2001:db8::ffff', '127.0.0.1']) : `10.${this.int(4)}.${this.int(250)}.${1 + this.int(250)}`;
  }
  /** A JSON value of the wrong kind for whatever expects one. */
  wrongValue(): unknown {
    return this.pick<unknown>([null, true, 0, -1, 1.5, 1e308, '', 'x', [], [1, 2], {}, { a: 1 }, 'a\u0000b', '\ud800', 'x'.repeat(20_000), [[[[]]]]]);
  }
}

export function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return '%ED%A0%80';
  }
}

/** The boundary multipartBody() uses unless told another. */
export const BOUNDARY = '----signpost-fuzz-boundary';

export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/**
 * A multipart body as a browser sends one, or broken on purpose: `close` false leaves out the closing
 * boundary (a body cut off), `headers` replaces a part's own header lines.
 */
export function multipartBody(parts: Part[], options: { boundary?: string; close?: boolean } = {}): { payload: Buffer; boundary: string } {
  const boundary = options.boundary ?? BOUNDARY;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ''}`;
    const type = part.filename !== undefined ? `\r\nContent-Type: ${part.type ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}${type}\r\n\r\n`), Buffer.from(part.value), Buffer.from('\r\n'));
  }
  if (options.close !== false) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), boundary };
}

export interface GroupResult {
  group: string;
  requests: number;
  fiveHundreds: number;
  hangs: number;
  ms: number;
  statuses: Record<number, number>;
  /** What went wrong, by kind (method, path without its query, status, problem): how often, and one example. */
  failures: Map<string, { count: number; example: string }>;
}

export interface Sent {
  request: InjectOptions;
  /** Extra checks on the answer: a problem's text, or nothing. */
  check?: (res: { statusCode: number; headers: Record<string, unknown>; body: string }) => string | undefined;
}

/**
 * Sends `count` requests made by `make`, one at a time, each with a `hangMs` deadline: no answer by then
 * counts as a hang (the request is left to finish in the background). No answer may be a server error,
 * no error may be publicly cacheable, and every answer carries the security headers.
 */
export async function runGroup(app: FastifyInstance, group: string, count: number, hangMs: number,
  make: (i: number) => Sent | Promise<Sent>): Promise<GroupResult> {
  const result: GroupResult = { group, requests: 0, fiveHundreds: 0, hangs: 0, ms: 0, statuses: {}, failures: new Map() };
  const fail = (kind: string, example: string) => {
    const seen = result.failures.get(kind);
    if (seen) seen.count += 1;
    else result.failures.set(kind, { count: 1, example });
  };
  const judge = (what: string, path: string, method: string, res: Awaited<ReturnType<FastifyInstance['inject']>>, check: Sent['check']) => {
    result.statuses[res.statusCode] = (result.statuses[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500) {
      result.fiveHundreds += 1;
      fail(`${method} ${path} -> ${res.statusCode}`, `${what} -> ${res.statusCode}: ${res.body.slice(0, 200)}`);
    } else if (res.statusCode >= 400 && !/no-store/.test(String(res.headers['cache-control']))) {
      fail(`${method} ${path} -> ${res.statusCode}: error cacheable`, `${what}: cache-control ${res.headers['cache-control']}`);
    }
    if (res.headers['x-content-type-options'] !== 'nosniff') fail(`${method} ${path} -> ${res.statusCode}: no security headers`, what);
    const problem = check?.(res);
    if (problem) fail(`${method} ${path} -> ${res.statusCode}: ${problem}`, what);
  };
  // A request still unanswered after a moment is left running while the next ones go: whether it answers
  // within `hangMs` of its start is settled at the end, so a hang costs the group `hangMs` once, not each time.
  const waiting: { answer: Promise<unknown>; started: number; what: string; kind: string }[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const { request, check } = await make(i);
    const method = request.method ?? 'GET';
    const url = typeof request.url === 'string' ? request.url : String(request.url);
    const path = url.split('?')[0]?.slice(0, 60) ?? '';
    const what = `${method} ${url.slice(0, 160)}`;
    result.requests += 1;
    const at = performance.now();
    let answered = false;
    const answer = app.inject(request).then(
      (res) => { answered = true; judge(what, path, method, res, check); },
      (error: unknown) => { answered = true; fail(`${method} ${path}: inject threw`, `${what}: ${(error as Error).message}`); },
    );
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([answer, new Promise((resolve) => { timer = setTimeout(resolve, Math.min(250, hangMs)); })]);
    clearTimeout(timer);
    if (!answered) waiting.push({ answer, started: at, what, kind: `${method} ${path}` });
  }
  for (const w of waiting) {
    let timer: NodeJS.Timeout | undefined;
    const left = Math.max(0, w.started + hangMs - performance.now());
    const inTime = await Promise.race([w.answer.then(() => true), new Promise<boolean>((resolve) => { timer = setTimeout(() => resolve(false), left); })]);
    clearTimeout(timer);
    if (!inTime) {
      result.hangs += 1;
      fail(`${w.kind}: no answer in ${hangMs} ms`, w.what);
    }
  }
  result.ms = Math.round(performance.now() - started);
  return result;
}

/** One line per failure kind, most frequent first. */
export function failureLines(result: GroupResult, max = 25): string[] {
  return [...result.failures].sort((a, b) => b[1].count - a[1].count).slice(0, max)
    .map(([kind, { count, example }]) => `${count}× ${kind} | e.g. ${JSON.stringify(example.slice(0, 300))}`);
}
