// Where access lines go: `stdout` shares the gateway's own JSON logger (the plugin's child logger);
// a file path gets a dedicated winston logger so ops can ship access lines without start-up and warning
// messages. Problems with a file destination are reported on the gateway logger.
import { createWriteStream, mkdirSync } from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import winston from 'winston';
import type { Logger } from 'winston';
import type { LogLevel } from './schema.ts';

export interface AccessLogger {
  readonly logger: Logger;
  /** Flushes and closes a file destination; stdout is left open. */
  close(): Promise<void>;
}

export interface AccessLoggerSettings {
  destination: string;
  /** Threshold: lines below it are dropped (the gateway's `server.logLevel`). */
  threshold: LogLevel;
  /** Relative file destinations resolve against this directory. */
  baseDir: string;
  /** Where write errors on the destination are reported. */
  diagnostics: Logger;
}

const format = winston.format.json();

export function createAccessLogger(settings: AccessLoggerSettings): AccessLogger {
  if (settings.destination === 'stdout') {
    // The gateway's own logger already writes JSON to stdout (and embedders/tests may redirect it):
    // access lines share it instead of opening a second stdout writer.
    return { logger: settings.diagnostics, close: async () => undefined };
  }

  const file = path.resolve(settings.baseDir, settings.destination);
  mkdirSync(path.dirname(file), { recursive: true });
  const stream = createWriteStream(file, { flags: 'a' });
  stream.on('error', (error) => settings.diagnostics.error(`access log ${file}: ${error.message}`));
  const logger = winston.createLogger({
    level: settings.threshold,
    format,
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
