// Built-in logging plugin: one JSON access line per request, written when the request completes
// (onResponse) or fails (onError), whichever comes first; a per-request flag in `ctx.pluginState` makes
// sure a request that triggers both still logs once. Fields: see access-record.ts.
//
// Destination (destination.ts): by default the plugin's child logger, i.e. the gateway's own JSON log on
// stdout; with a file path, a dedicated winston logger appending to that file. `level` is the level each
// line is written at; `server.logLevel` is the threshold (e.g. `warn` silences `info` access lines).
import { definePlugin } from '../../src/index.ts';
import type { RequestContext } from '../../src/index.ts';
import { accessRecord } from './access-record.ts';
import { createAccessLogger } from './destination.ts';
import { loggingOptionsSchema } from './schema.ts';
import type { LoggingOptions } from './schema.ts';

const NAME = 'logging';

export default definePlugin<LoggingOptions>({
  name: NAME,
  optionsSchema: loggingOptionsSchema,
  setup({ options, gateway, logger }) {
    const access = createAccessLogger({
      destination: options.destination,
      threshold: gateway.config.server.logLevel,
      baseDir: gateway.config.baseDir,
      gatewayLogger: logger,
    });
    gateway.onClose(() => access.close());

    const write = (ctx: RequestContext, error?: Error): void => {
      if (ctx.pluginState.has(NAME)) return;
      ctx.pluginState.set(NAME, { logged: true });
      const record = accessRecord(ctx, performance.now(), error);
      // The record is ours: add winston's fields to it instead of copying it.
      access.logger.log(Object.assign(record, { level: options.level, message: 'access' }));
    };

    gateway.addHook('onResponse', (ctx) => write(ctx));
    gateway.addHook('onError', (ctx, error) => write(ctx, error));
  },
});
