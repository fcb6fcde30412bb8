import Fastify from 'fastify';
import { loadConfig, ConfigError, trustProxyOption } from './config.ts';
import { loggerOptions } from './logger.ts';
import app, { serverOptions } from './app.ts';

async function start() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const started = performance.now();
  const server = Fastify({ ...serverOptions, logger: loggerOptions(config.logLevel), trustProxy: trustProxyOption(config.trustProxy) });
  await server.register(app, { config });

  let closing = false;
  const close = async (signal: string, code = 0) => {
    if (closing) return;
    closing = true;
    server.log.info({ signal }, 'shutting down');
    // Draining has its own deadline (SHUTDOWN_TIMEOUT_MS, server/plugins/shutdown.ts); this one is the
    // last resort if closing the database or a hook hangs.
    const force = setTimeout(() => process.exit(1), config.shutdownTimeoutMs + 10_000);
    force.unref();
    await server.close();
    process.exit(code);
  };
  process.once('SIGTERM', () => void close('SIGTERM'));
  process.once('SIGINT', () => void close('SIGINT'));

  await server.listen({ port: config.port, host: config.host });
  server.log.info({ ms: Math.round(performance.now() - started), url: `http://localhost:${config.port}` }, 'Signpost is serving');
  // The import at start runs in the background. It fails only when no content is stored and the tree is
  // broken (each problem is logged already): there is nothing to serve, so stop.
  server.contentReady.catch((error: unknown) => {
    server.log.fatal({ err: error }, 'no content to serve; stopping');
    console.error(error instanceof Error ? error.message : error);
    void close('content', 1);
  });
}

start().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
