// The gateway's root winston logger: JSON lines on stdout, secrets redacted by field name.
import winston from 'winston';
import type { ServerConfig } from './config/types.ts';

const SECRET_FIELDS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key', 'apikey', 'apiKey', 'key', 'password']);

const redactSecrets = winston.format((info) => {
  for (const field of Object.keys(info)) {
    if (SECRET_FIELDS.has(field)) info[field] = '[redacted]';
  }
  return info;
});

export function createLogger(level: ServerConfig['logLevel'], silent = false): winston.Logger {
  return winston.createLogger({
    level,
    silent,
    format: winston.format.combine(redactSecrets(), winston.format.timestamp(), winston.format.json()),
    transports: [new winston.transports.Console()],
  });
}
