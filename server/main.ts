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
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    server.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await server.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void close('SIGTERM'));
  process.once('SIGINT', () => void close('SIGINT'));

  await server.listen({ port: config.port, host: config.host });
  server.log.info({ ms: Math.round(performance.now() - started), url: `http://localhost:${config.port}` }, 'Signpost is serving');
}

start().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
