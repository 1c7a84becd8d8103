// createGateway: wires config, providers, the plugin chain and the Express app, and owns the
// lifecycle (listen, readiness, graceful drain, close). Embedders and tests use this directly.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'winston';
import { buildApp } from './app.ts';
import type { GatewayConfig } from './config/types.ts';
import { HookRegistry } from './core/hooks.ts';
import type { GatewayApi, PluginRoute, Translator } from './core/plugin.ts';
import type { ProviderEndpoint } from './core/provider-api.ts';
import { loadPlugins, setupPlugins } from './core/registry.ts';
import { createLogger } from './logger.ts';
import { describeProvider } from './providers/descriptors.ts';
import { startMockUpstream, type MockUpstream } from './providers/mock/server.ts';
import { createFastPath } from './proxy/fast-path.ts';
import { createGenerateHandler } from './proxy/pipeline.ts';
import { resolveRoute } from './routing/resolve.ts';

export interface GatewayOptions {
  logger?: Logger;
}

export interface Gateway {
  readonly config: GatewayConfig;
  readonly logger: Logger;
  readonly app: ReturnType<typeof buildApp>;
  /** Start listening (port 0 = ephemeral). Resolves with the bound address. */
  listen(port?: number, host?: string): Promise<{ port: number; url: string }>;
  /** Graceful: stop accepting, let in-flight requests finish up to the deadline, then release everything. */
  close(deadlineMs?: number): Promise<void>;
  readonly inFlight: number;
}

async function startProviders(config: GatewayConfig, logger: Logger): Promise<{ endpoints: Map<string, ProviderEndpoint>; mock?: MockUpstream }> {
  const needsMock = Object.values(config.providers).some((p) => p.type === 'mock');
  const mock = needsMock ? await startMockUpstream(Object.values(config.providers).find((p) => p.type === 'mock')?.mock ?? {}) : undefined;
  const endpoints = new Map<string, ProviderEndpoint>();
  for (const settings of Object.values(config.providers)) {
    const endpoint = describeProvider(settings, { defaultTimeoutMs: config.server.upstreamTimeoutMs, ...(mock ? { mockBaseUrl: mock.url } : {}) });
    endpoints.set(settings.id, endpoint);
    if (!endpoint.available) {
      logger.warn(`provider ${settings.id}: not configured (${settings.missingEnv.join(', ') || 'no base URL'}); requests routed to it answer 503`);
    }
  }
  return { endpoints, ...(mock ? { mock } : {}) };
}

/** `server.publicUrl` as configured; an ephemeral `:0` port is replaced by the port actually bound. */
function resolvePublicUrl(configured: string, boundPort: number | undefined): string {
  const url = new URL(configured);
  if (url.port === '0' && boundPort !== undefined) url.port = String(boundPort);
  return url.toString().replace(/\/$/, '');
}

export async function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Promise<Gateway> {
  const logger = options.logger ?? createLogger(config.server.logLevel);
  const { endpoints, mock } = await startProviders(config, logger);
  const hooks = new HookRegistry();
  const pluginRoutes: PluginRoute[] = [];
  const closers: Array<() => void | Promise<void>> = mock ? [() => mock.close()] : [];
  let translator: Translator | undefined;
  let ready = false;
  let draining = false;
  let inFlight = 0;
  let boundPort: number | undefined;
  const idleWaiters = new Set<() => void>();

  const provider = (id: string): ProviderEndpoint => {
    const endpoint = endpoints.get(id);
    if (!endpoint) throw new Error(`unknown provider "${id}"`);
    return endpoint;
  };
  const apiFor = (pluginName: string): GatewayApi => ({
    config,
    addHook: (name, hook) => hooks.add(name, pluginName, hook),
    addRoute: (route) => void pluginRoutes.push(route),
    setTranslator: (t) => {
      translator = t;
    },
    onClose: (fn) => void closers.push(fn),
    resolveModel: (model, key, opts) => resolveRoute(config, model, key, opts),
    provider,
    publicUrl: () => resolvePublicUrl(config.server.publicUrl, boundPort),
  });

  try {
    await setupPlugins(await loadPlugins(config.plugins, config.baseDir), logger, apiFor);
  } catch (error) {
    for (const close of closers.reverse()) await close();
    throw error;
  }

  const generate = createGenerateHandler({ config, hooks, fastPath: createFastPath(logger), provider, translator: () => translator });
  const requestStarted = (): void => {
    inFlight += 1;
  };
  const requestEnded = (): void => {
    inFlight -= 1;
    if (inFlight === 0) for (const wake of idleWaiters) wake();
  };
  const app = buildApp({
    config,
    logger,
    hooks,
    pluginRoutes,
    generate,
    isReady: () => ready,
    isDraining: () => draining,
    requestStarted,
    requestEnded,
  });
  const server = http.createServer(app);
  server.keepAliveTimeout = 65_000;
  ready = true;

  const waitIdle = (deadlineMs: number): Promise<void> =>
    new Promise((resolve) => {
      if (inFlight === 0) return resolve();
      const timer = setTimeout(done, deadlineMs);
      function done(): void {
        clearTimeout(timer);
        idleWaiters.delete(done);
        resolve();
      }
      idleWaiters.add(done);
    });

  let closing: Promise<void> | undefined;
  return {
    config,
    logger,
    app,
    get inFlight() {
      return inFlight;
    },
    listen(port = config.server.port, host = config.server.host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address() as AddressInfo;
          boundPort = address.port;
          const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
          resolve({ port: address.port, url: `http://${shownHost}:${address.port}` });
        });
      });
    },
    close(deadlineMs = config.server.shutdownTimeoutMs) {
      closing ??= (async () => {
        draining = true;
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await waitIdle(deadlineMs);
        server.closeAllConnections();
        if (server.listening) await stopped;
        for (const close of closers.reverse()) {
          try {
            await close();
          } catch (error) {
            logger.error('plugin close failed', { error: String(error) });
          }
        }
      })();
      return closing;
    },
  };
}
