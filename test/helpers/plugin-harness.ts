// Drives a plugin's hooks without HTTP: a fake GatewayApi records what setup registers, options go through
// the registry's own validation (defaults applied, frozen), and makeContext builds request contexts.
// Several plugins can share one harness; their hooks then run in the order they were set up, like the chain.
import os from 'node:os';
import { Writable } from 'node:stream';
import winston from 'winston';
import { validatePluginOptions } from '../../src/core/registry.ts';
import type {
  GatewayApi,
  GatewayConfig,
  HookName,
  Hooks,
  KeySettings,
  PluginDefinition,
  PluginRoute,
  RequestContext,
  ResolvedRoute,
  Translator,
} from '../../src/index.ts';

export interface LogLine {
  level: string;
  message: string;
  [field: string]: unknown;
}

type HookLists = { [N in HookName]: Hooks[N][] };

export interface PluginHarness {
  readonly config: GatewayConfig;
  readonly hooks: HookLists;
  readonly routes: PluginRoute[];
  /** What plugins wrote to their diagnostic (child) logger, parsed. */
  readonly logs: LogLine[];
  readonly translator: Translator | undefined;
  /** Validates `options` like the registry does and runs the plugin's setup. */
  use<O>(plugin: PluginDefinition<O>, options?: unknown): Promise<void>;
  /** Runs every hook of a request phase in chain order; the first throw propagates. */
  run(name: 'onRequest' | 'beforeUpstream' | 'onResponse', ctx: RequestContext): Promise<void>;
  /** Runs every onError hook (all of them, as the core does) and rethrows the first hook failure. */
  runError(ctx: RequestContext, error: Error): Promise<void>;
  /** Runs onClose callbacks in reverse registration order, as graceful shutdown does. */
  close(): Promise<void>;
}

export function makeConfig(overrides: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    server: {
      port: 0,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:8080',
      bodyLimit: '20mb',
      shutdownTimeoutMs: 1000,
      upstreamTimeoutMs: 1000,
      logLevel: 'info',
    },
    storage: { kind: 'sqlite', path: './data' },
    keys: [],
    providers: {},
    models: [],
    plugins: [],
    baseDir: os.tmpdir(),
    ...overrides,
  };
}

export function key(name: string, secret: string, extra: Partial<KeySettings> = {}): KeySettings {
  return { name, key: secret, models: ['*'], ...extra };
}

export function createHarness(config: GatewayConfig = makeConfig()): PluginHarness {
  const hooks: HookLists = { onRequest: [], beforeUpstream: [], onResponse: [], onError: [] };
  const routes: PluginRoute[] = [];
  const closers: Array<() => void | Promise<void>> = [];
  const logs: LogLine[] = [];
  let translator: Translator | undefined;

  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs.push(JSON.parse(chunk.toString('utf8')) as LogLine);
      done();
    },
  });
  const rootLogger = winston.createLogger({
    level: 'silly',
    format: winston.format.json(),
    transports: [new winston.transports.Stream({ stream: sink, eol: '' })],
  });

  const gateway: GatewayApi = {
    config,
    publicUrl: () => config.server.publicUrl,
    addHook(name, hook) {
      (hooks[name] as (typeof hook)[]).push(hook);
    },
    addRoute(route) {
      routes.push(route);
    },
    setTranslator(value) {
      translator = value;
    },
    onClose(fn) {
      closers.push(fn);
    },
    resolveModel() {
      throw new Error('resolveModel is not available in the plugin harness: set ctx.route in the test');
    },
    provider() {
      throw new Error('provider() is not available in the plugin harness');
    },
  };

  return {
    config,
    hooks,
    routes,
    logs,
    get translator() {
      return translator;
    },
    async use(plugin, options) {
      const entry = { name: plugin.name, options };
      const validated = validatePluginOptions(plugin as PluginDefinition<unknown>, entry, 0);
      await plugin.setup({
        options: validated as Parameters<typeof plugin.setup>[0]['options'],
        logger: rootLogger.child({ plugin: plugin.name }),
        gateway,
      });
    },
    async run(name, ctx) {
      for (const hook of hooks[name]) await hook(ctx);
    },
    async runError(ctx, error) {
      const failures: unknown[] = [];
      for (const hook of hooks.onError) {
        try {
          await hook(ctx, error);
        } catch (failure) {
          failures.push(failure);
        }
      }
      if (failures.length > 0) throw failures[0];
    },
    async close() {
      for (const fn of closers.splice(0).reverse()) await fn();
    },
  };
}

export type ContextInit = Partial<Omit<RequestContext, 'pluginState' | 'signal' | 'headers'>> & {
  headers?: Record<string, string | string[]>;
};

let sequence = 0;

const DEFAULT_PATHS: Record<RequestContext['protocol'], string> = {
  chat: '/v1/chat/completions',
  responses: '/v1/responses',
  messages: '/v1/messages',
  gemini: '/v1beta/models/demo:generateContent',
};

/** A request context as the core would build it; header names are lower-cased like Node's. */
export function makeContext(init: ContextInit = {}): RequestContext {
  const protocol = init.protocol ?? 'chat';
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  sequence += 1;
  return {
    id: init.id ?? `req_test_${sequence}`,
    protocol,
    operation: init.operation ?? 'generate',
    method: init.method ?? 'POST',
    path: init.path ?? DEFAULT_PATHS[protocol],
    timings: init.timings ?? { start: performance.now() },
    headers,
    query: init.query ?? {},
    key: init.key,
    model: init.model,
    stream: init.stream ?? false,
    body: init.body,
    route: init.route,
    upstream: init.upstream,
    response: init.response,
    dropped: init.dropped ?? [],
    logFields: init.logFields ?? {},
    pluginState: new Map(),
    signal: new AbortController().signal,
  };
}

/** A resolved route to `providerId`'s `upstreamModel`, for contexts past model resolution. */
export function makeRoute(modelName: string, providerId: string, upstreamModel: string): ResolvedRoute {
  return {
    model: { name: modelName, type: 'chat', targets: [{ provider: providerId, model: upstreamModel }] },
    target: { provider: providerId, model: upstreamModel },
    provider: { id: providerId, type: 'openai', baseUrl: 'https://api.openai.com/v1', missingEnv: [] },
    targetIndex: 0,
  };
}
