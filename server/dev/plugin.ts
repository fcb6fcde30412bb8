import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { ContentSnapshot } from '../content/load.ts';
import { importContent, vacuumContent } from '../content/import.ts';
import { checkLoaded } from '../content/import.ts';
import { formatProblem, sourcesIn, type Problem } from '../content/problems.ts';
import { watchTree } from './watcher.ts';
import { CLIENT_JS, OVERLAY_CSS, overlayHtml } from './overlay.tsx';

export interface DevStatus {
  /** Changes with every import and every change of problems; pages reload when it does. */
  state: string;
  problems: Problem[];
  /** The files that changed in the last update. */
  changed: string[];
  /** From the change being seen to the content served, and its steps: re-reading, whole-tree checks, writing. */
  ms: number;
  steps?: { read: number; check: number; write: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Live preview (npm run dev only): the tree's state, and re-reading files by hand (tests). */
    dev: { status(): DevStatus; update(paths: string[]): Promise<DevStatus>; ready: Promise<DevStatus> };
  }
}

export interface DevOptions {
  contentDir: string;
  /** Watch the tree (default true); tests may drive `app.dev.update` instead. */
  watch?: boolean;
}

const HEAD_TAGS = '<link rel="stylesheet" href="/__dev/overlay.css"/><script type="module" src="/__dev/client.js"></script>';

/**
 * Live preview for `npm run dev`: keeps the content tree parsed in memory, re-reads only the files that
 * change, imports the tree when it is good, and tells open pages to reload over Server-Sent Events. A
 * tree with problems is not imported (the last good content keeps serving) and its problems are shown
 * over every page. Registered before the app, so its hooks see pages before compression; never
 * registered by `npm start`, so production pages carry none of it.
 */
export default fp<DevOptions>(async (app, opts) => {
  const snapshot = new ContentSnapshot(opts.contentDir);
  let status: DevStatus = { state: '0', problems: [], changed: [], ms: 0 };
  let generation = 0;
  const clients = new Set<FastifyReply>();
  let queue: Promise<unknown> = Promise.resolve();

  const publish = (next: Omit<DevStatus, 'state'>) => {
    const same = status.problems.map(formatProblem).join('\n') === next.problems.map(formatProblem).join('\n');
    status = { ...next, state: same && next.changed.length === 0 ? status.state : String(++generation) };
    for (const reply of clients) reply.raw.write(`event: state\ndata: ${status.state}\n\n`);
    return status;
  };

  const apply = async (paths: string[] | 'all'): Promise<DevStatus> => {
    const t0 = performance.now();
    let changed: string[];
    if (paths === 'all') {
      await snapshot.loadAll();
      changed = ['*'];
    } else {
      changed = await snapshot.update(paths);
      if (changed.length === 0) return status;
    }
    const t1 = performance.now();
    const loaded = snapshot.result();
    const checked = checkLoaded(loaded);
    const { problems } = checked;
    const t2 = performance.now();
    if (problems.length > 0) {
      app.log.warn({ problems: problems.length, changed: changed.length }, 'content has problems; the last good content keeps serving');
      for (const p of problems) app.log.warn({ file: p.file, line: p.line, field: p.field }, formatProblem(p));
      return publish({ problems, changed, ms: t2 - t0, steps: { read: t1 - t0, check: t2 - t1, write: 0 } });
    }
    const result = await importContent(app.db, opts.contentDir, { checked, vacuum: false });
    if (result.imported) {
      await app.content.invalidate();
      vacuumWhenIdle();
    }
    const ms = performance.now() - t0;
    const steps = { read: t1 - t0, check: t2 - t1, write: result.ms.write };
    app.log.info({ changed: changed.length, entries: result.entries, written: result.written.entries, removed: result.written.removed, ms: Math.round(ms), readMs: Math.round(steps.read),
      checkMs: Math.round(steps.check), writeMs: Math.round(steps.write) }, 'content updated');
    return publish({ problems: [], changed: result.imported ? changed : [], ms, steps });
  };
  // An import leaves the replaced rows behind (PGlite has no autovacuum): they are cleared once saves
  // pause, not between a save and the reload that shows it.
  let vacuumTimer: NodeJS.Timeout | undefined;
  const vacuumWhenIdle = () => {
    clearTimeout(vacuumTimer);
    vacuumTimer = setTimeout(() => {
      queue = queue.then(() => vacuumContent(app.db)).catch((error: unknown) => app.log.warn({ err: error }, 'vacuum after live preview failed'));
    }, 5000);
    vacuumTimer.unref();
  };
  const enqueue = (paths: string[] | 'all') => {
    const run = queue.then(() => apply(paths));
    queue = run.catch((error: unknown) => app.log.error({ err: error }, 'live preview update failed'));
    return run;
  };

  let started!: (status: Promise<DevStatus>) => void;
  const ready = new Promise<DevStatus>((resolve) => (started = (run) => resolve(run)));
  app.decorate('dev', { status: () => status, update: (paths: string[]) => enqueue(paths), ready });

  // Pages go out uncompressed and unvalidated in dev, so the overlay can be added to each one as it is sent.
  app.addHook('onRequest', async (request) => {
    delete request.headers['accept-encoding'];
    delete request.headers['if-none-match'];
    delete request.headers['if-modified-since'];
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!String(reply.getHeader('content-type') ?? '').startsWith('text/html')) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    // A page the page cache kept was sent through here already: what was added then is taken out first.
    let html = payload.toString().replace(HEAD_TAGS, '').replace(/<!--dev-overlay-->[\s\S]*?<!--\/dev-overlay-->/, '');
    const head = html.indexOf('</head>');
    if (head < 0) return payload;
    html = html.slice(0, head) + HEAD_TAGS + html.slice(head);
    if (status.problems.length > 0) {
      const body = html.search(/<body[^>]*>/);
      if (body >= 0) {
        const end = html.indexOf('>', body) + 1;
        html = `${html.slice(0, end)}<!--dev-overlay-->${overlayHtml(status.problems, sourcesIn(opts.contentDir))}<!--/dev-overlay-->${html.slice(end)}`;
      }
    }
    reply.removeHeader('etag');
    reply.removeHeader('content-length');
    reply.header('cache-control', 'no-store');
    return html;
  });

  app.get('/__dev/client.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(CLIENT_JS));
  app.get('/__dev/overlay.css', async (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'no-store').send(OVERLAY_CSS));
  // A stream of reload notices, open as long as the tab is: no database work, never shed or queued.
  app.get('/__dev/events', { config: { exemptFromShedding: true } }, (request, reply) => {
    reply.hijack();
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    reply.raw.write(`retry: 500\nevent: state\ndata: ${status.state}\n\n`);
    clients.add(reply);
    request.raw.on('close', () => clients.delete(reply));
  });

  let unwatch: (() => void) | undefined;
  // The first read and import run in the background, as the import at start does: the stored content
  // serves meanwhile, and a large tree does not hold up start-up. Saves from then on are queued behind it.
  app.addHook('onReady', async () => {
    if (opts.watch !== false) unwatch = watchTree(opts.contentDir, (paths) => void enqueue(paths));
    started(enqueue('all'));
  });
  app.addHook('preClose', async () => {
    unwatch?.();
    clearTimeout(vacuumTimer);
    for (const reply of clients) reply.raw.end();
    clients.clear();
    await queue;
  });
}, { name: 'dev' });
