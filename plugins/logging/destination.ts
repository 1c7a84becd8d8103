// Where access lines go. `stdout` (the default) means the gateway's own logger, through the plugin's
// child logger: JSON lines on stdout from `npm start`, and captured by whatever logger an embedder or a
// test passes to createGateway. A file path gets a dedicated winston logger appending JSON lines to that
// file, so ops can ship access lines separately; the gateway logger then reports problems writing it.
// Either way `server.logLevel` is the threshold.
import { once } from 'node:events';
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import winston from 'winston';
import type { Logger } from 'winston';
import type { LogLevel } from './schema.ts';

export interface AccessLogger {
  readonly logger: Logger;
  /** Flushes and closes a file destination; the gateway logger is left alone. */
  close(): Promise<void>;
}

export interface AccessLoggerSettings {
  destination: string;
  /** The gateway's `server.logLevel`. */
  threshold: LogLevel;
  /** Relative file destinations resolve against this directory (the config file's). */
  baseDir: string;
  /** The plugin's child of the gateway logger. */
  gatewayLogger: Logger;
}

export function createAccessLogger(settings: AccessLoggerSettings): AccessLogger {
  if (settings.destination === 'stdout') {
    return { logger: settings.gatewayLogger, close: async () => undefined };
  }

  const file = path.resolve(settings.baseDir, settings.destination);
  mkdirSync(path.dirname(file), { recursive: true });
  const stream = createWriteStream(file, { flags: 'a' });
  stream.on('error', (error) => settings.gatewayLogger.error(`access log ${file}: ${error.message}`));
  const logger = winston.createLogger({
    level: settings.threshold,
    format: winston.format.json(),
    transports: [new winston.transports.Stream({ stream })],
  });
  return {
    logger,
    async close() {
      logger.close();
      if (stream.closed) return;
      stream.end();
      await once(stream, 'close');
    },
  };
}
