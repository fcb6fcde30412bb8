/**
 * npm run dev: the help centre on its usual configuration (embedded PGlite unless DATABASE_URL is set)
 * with live preview: the content tree is watched, each save is re-read and imported, open pages
 * reload, and a tree with problems shows them over the page while the last good content keeps serving.
 */
import Fastify from 'fastify';
import { loadConfig, ConfigError, trustProxyOption } from '../server/config.ts';
import { loggerOptions } from '../server/logger.ts';
import app, { serverOptions } from '../server/app.ts';
import dev from '../server/dev/plugin.ts';

async function start() {
  let config;
  try {
    // Live preview does the import itself, from the tree it keeps in memory.
    config = loadConfig({ ...process.env, IMPORT_ON_START: 'false' });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const server = Fastify({ ...serverOptions, logger: loggerOptions(config.logLevel), trustProxy: trustProxyOption(config.trustProxy) });
  // Before the app: its hooks see each page before compression.
  await server.register(dev, { contentDir: config.contentDir });
  await server.register(app, { config });
  const close = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void close());
  process.once('SIGINT', () => void close());
  await server.listen({ port: config.port, host: config.host });
  server.log.info({ url: `http://localhost:${config.port}`, content: config.contentDir }, 'Signpost live preview is serving');
}

start().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
