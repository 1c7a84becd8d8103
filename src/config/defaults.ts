// Schema-valid document → GatewayConfig: defaults applied, paths resolved, provider ids and missingEnv filled.
import path from 'node:path';
import { formatPath } from './problems.ts';
import type { RawConfig, RawKey, RawModel, RawProvider, RawServer, RawStorage } from './schema.ts';
import type {
  GatewayConfig,
  KeySettings,
  ModelSettings,
  PluginEntry,
  ProviderSettings,
  ServerConfig,
  StorageSettings,
} from './types.ts';

export const SERVER_DEFAULTS = {
  port: 8080,
  host: '0.0.0.0',
  bodyLimit: '20mb',
  shutdownTimeoutMs: 10_000,
  upstreamTimeoutMs: 120_000,
  logLevel: 'info',
} as const satisfies Omit<ServerConfig, 'publicUrl'>;

export const STORAGE_DEFAULTS = { kind: 'sqlite', path: './data' } as const;

export interface BuildContext {
  baseDir: string;
  filePath?: string;
  /** Effective `PORT` environment override, already validated. */
  portOverride?: number;
  missingEnv: ReadonlyMap<string, readonly string[]>;
  /** Formatted paths of strings that referenced an unset variable. */
  unresolved: ReadonlySet<string>;
  plugins: readonly PluginEntry[];
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/** `http://127.0.0.1:<port>` for wildcard binds, else the bound host. */
export function defaultPublicUrl(host: string, port: number): string {
  const reachable = WILDCARD_HOSTS.has(host) ? '127.0.0.1' : host;
  return `http://${reachable.includes(':') ? `[${reachable}]` : reachable}:${port}`;
}

const trimSlashes = (url: string): string => url.replace(/\/+$/, '');

function buildServer(raw: RawServer, portOverride: number | undefined): ServerConfig {
  const port = portOverride ?? raw.port ?? SERVER_DEFAULTS.port;
  const host = raw.host ?? SERVER_DEFAULTS.host;
  const limit = raw.bodyLimit ?? SERVER_DEFAULTS.bodyLimit;
  return {
    port,
    host,
    publicUrl: trimSlashes(raw.publicUrl ?? defaultPublicUrl(host, port)),
    bodyLimit: typeof limit === 'number' ? `${limit}b` : limit.replace(/\s+/g, '').toLowerCase(),
    shutdownTimeoutMs: raw.shutdownTimeoutMs ?? SERVER_DEFAULTS.shutdownTimeoutMs,
    upstreamTimeoutMs: raw.upstreamTimeoutMs ?? SERVER_DEFAULTS.upstreamTimeoutMs,
    logLevel: raw.logLevel ?? SERVER_DEFAULTS.logLevel,
  };
}

function buildStorage(raw: RawStorage, baseDir: string): StorageSettings {
  if (raw.kind === 'postgres') return { kind: 'postgres', url: raw.url, ...(raw.schema ? { schema: raw.schema } : {}) };
  if (raw.kind === 'mongodb') return { kind: 'mongodb', uri: raw.uri, ...(raw.database ? { database: raw.database } : {}) };
  const where = raw.path ?? STORAGE_DEFAULTS.path;
  return { kind: 'sqlite', path: where === ':memory:' ? where : path.resolve(baseDir, where) };
}

function buildKey(raw: RawKey): KeySettings {
  return {
    name: raw.name,
    ...(raw.key !== undefined ? { key: raw.key } : {}),
    ...(raw.keyHash !== undefined ? { keyHash: raw.keyHash.toLowerCase() } : {}),
    models: raw.models ?? ['*'],
    ...(raw.rateLimit ? { rateLimit: { ...raw.rateLimit } } : {}),
  };
}

function buildProvider(id: string, raw: RawProvider, context: BuildContext): ProviderSettings {
  const resolved = (...segments: string[]): boolean => !context.unresolved.has(formatPath(['providers', id, ...segments]));
  const headers = Object.entries(raw.headers ?? {}).filter(([name]) => resolved('headers', name));
  return {
    id,
    type: raw.type,
    ...(raw.baseUrl !== undefined && resolved('baseUrl') ? { baseUrl: trimSlashes(raw.baseUrl) } : {}),
    ...(raw.apiKey !== undefined && resolved('apiKey') ? { apiKey: raw.apiKey } : {}),
    ...(raw.headers ? { headers: Object.fromEntries(headers) } : {}),
    ...(raw.timeoutMs !== undefined ? { timeoutMs: raw.timeoutMs } : {}),
    ...(raw.responses !== undefined ? { responses: raw.responses } : {}),
    ...(raw.mock ? { mock: { ...raw.mock } } : {}),
    missingEnv: [...(context.missingEnv.get(id) ?? [])],
  };
}

function buildModel(raw: RawModel): ModelSettings {
  return {
    name: raw.name,
    type: raw.type ?? 'chat',
    ...(raw.sizes ? { sizes: [...raw.sizes] } : {}),
    ...(raw.maxTokens !== undefined ? { maxTokens: raw.maxTokens } : {}),
    targets: raw.targets.map((target) => ({ provider: target.provider, model: target.model })),
  };
}

/** A new, unfrozen GatewayConfig; the raw document is not modified. */
export function buildConfig(raw: RawConfig, context: BuildContext): GatewayConfig {
  return {
    server: buildServer(raw.server ?? {}, context.portOverride),
    storage: buildStorage(raw.storage ?? {}, context.baseDir),
    keys: raw.keys.map(buildKey),
    providers: Object.fromEntries(
      Object.entries(raw.providers).map(([id, settings]) => [id, buildProvider(id, settings, context)]),
    ),
    models: raw.models.map(buildModel),
    plugins: context.plugins.map((entry) => ({ name: entry.name, options: entry.options })),
    baseDir: context.baseDir,
    ...(context.filePath !== undefined ? { filePath: context.filePath } : {}),
  };
}
