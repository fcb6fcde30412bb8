import Fastify, { type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { loadConfig, ConfigError, trustProxyOption } from './config.ts';
import { loggerOptions } from './logger.ts';
import app, { serverOptions } from './app.ts';

/**
 * Where a failure to start is told: the server's logger once there is one, before that one like it.
 * Every line the process writes is pino JSON, a fatal start-up error included, so log collectors
 * parse it like any other line.
 */
let log: FastifyBaseLogger | undefined;

async function start() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      pino(loggerOptions('info')).fatal({ problem: error.message }, 'configuration not usable; not starting');
      process.exit(1);
    }
    throw error;
  }
  const started = performance.now();
  const server = Fastify({ ...serverOptions, logger: loggerOptions(config.logLevel), trustProxy: trustProxyOption(config.trustProxy) });
  log = server.log;
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
    void close('content', 1);
  });
}

start().catch((error: unknown) => {
  (log ?? pino(loggerOptions('info'))).fatal({ err: error }, 'start-up failed');
  process.exit(1);
});
