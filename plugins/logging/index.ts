// Built-in logging plugin: one JSON access line per request, written when the request completes
// (onResponse) or fails (onError), whichever comes first; a per-request flag in `ctx.pluginState` makes
// sure a request that triggers both still logs once. Fields: see access-record.ts.
//
// Lines go to a dedicated winston logger built from the options (destination.ts) rather than the
// plugin's child logger, so the access log can have its own destination; its threshold is the
// gateway's `server.logLevel`, and `level` is the level each line is written at.
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
  setup({ options, gateway, logger: diagnostics }) {
    const access = createAccessLogger({
      destination: options.destination,
      threshold: gateway.config.server.logLevel,
      baseDir: gateway.config.baseDir,
      diagnostics,
    });
    gateway.onClose(() => access.close());

    const write = (ctx: RequestContext, error?: Error): void => {
      if (ctx.pluginState.has(NAME)) return;
      ctx.pluginState.set(NAME, { logged: true });
      const record = accessRecord(ctx, performance.now(), error);
      access.logger.log({ ...record, level: options.level, message: 'access' });
    };

    gateway.addHook('onResponse', (ctx) => write(ctx));
    gateway.addHook('onError', (ctx, error) => write(ctx, error));
  },
});
