import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig } from '../../server/config.ts';
import app, { serverOptions } from '../../server/app.ts';
import dev from '../../server/dev/plugin.ts';
import { PREVIEW_TOKEN, testDb } from '../helpers/build.ts';

type Test = { teardown: (fn: () => unknown) => void };

/** The app as `npm run dev` builds it (live preview first), on a test database; no watcher unless asked. */
export async function buildDev(t: Test, contentDir: string, options: { watch?: boolean; env?: Record<string, string> } = {}): Promise<FastifyInstance> {
  const db = await testDb(t);
  const config = loadConfig({
    CONTENT_DIR: contentDir, PREVIEW_TOKEN, PUBLIC_URL: 'https://help.example.test', LOG_LEVEL: 'silent',
    IMPORT_ON_START: 'false', OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0', ...options.env,
  });
  const server = Fastify({ ...serverOptions, logger: false });
  t.teardown(() => server.close());
  await server.register(dev, { contentDir, watch: options.watch ?? false });
  await server.register(app, { config, db });
  await server.ready();
  await server.dev.ready;
  return server;
}
