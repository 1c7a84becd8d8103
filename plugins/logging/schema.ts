// Options of the logging plugin (validated by the registry at start-up, defaults applied).

export const LOG_LEVELS = ['error', 'warn', 'info', 'http', 'verbose', 'debug', 'silly'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LoggingOptions {
  /** winston level each access line is written at; `server.logLevel` is the threshold (e.g. `warn` hides `info`). */
  level: LogLevel;
  /** `stdout` (the gateway log), or a file path appended to (relative paths resolve against the config file's directory). */
  destination: string;
}

export const loggingOptionsSchema = {
  type: 'object',
  properties: {
    level: { enum: [...LOG_LEVELS], default: 'info', description: 'Level the access lines are logged at.' },
    destination: {
      type: 'string',
      minLength: 1,
      default: 'stdout',
      description: '"stdout" (the gateway log) or a file path the JSON lines are appended to.',
    },
  },
  additionalProperties: false,
} as const;
