import type { LoggerOptions } from 'pino';

/** pino JSON everywhere; human-readable only when a person is watching a terminal. */
export function loggerOptions(level: string, stream: NodeJS.WriteStream = process.stdout): LoggerOptions {
  const options: LoggerOptions = {
    level,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization'], censor: '[redacted]' },
  };
  if (stream.isTTY) {
    options.transport = { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } };
  }
  return options;
}
