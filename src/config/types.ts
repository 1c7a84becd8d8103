// The validated, defaulted, frozen configuration every other module reads. Field names are the public
// YAML interface ops write (docs/configuration.md); never rename without a migration note.

export type ProviderType = 'openai' | 'anthropic' | 'gemini' | 'mock';

export interface ServerConfig {
  port: number;
  host: string;
  /** Absolute base URL clients reach the gateway at; used for download links. */
  publicUrl: string;
  /** Max request body, e.g. `20mb` (bytes-style string). */
  bodyLimit: string;
  /** Graceful shutdown: how long in-flight requests and streams may run after SIGTERM. */
  shutdownTimeoutMs: number;
  /** Default upstream timeout (time to response headers) for providers that set none. */
  upstreamTimeoutMs: number;
  logLevel: 'error' | 'warn' | 'info' | 'http' | 'verbose' | 'debug' | 'silly';
}

export type StorageSettings =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string; schema?: string }
  | { kind: 'mongodb'; uri: string; database?: string };

export interface KeyRateLimit {
  requestsPerMinute?: number;
  concurrency?: number;
}

export interface KeySettings {
  name: string;
  /** Exactly one of key / keyHash is set. */
  key?: string;
  /** `sha256:<hex>` of the key. */
  keyHash?: string;
  /** Model-name globs this key may use (`*` = all). */
  models: readonly string[];
  rateLimit?: KeyRateLimit;
}

export interface ProviderSettings {
  id: string;
  type: ProviderType;
  /** SDK convention: OpenAI's includes `/v1`; Anthropic's and Gemini's are roots. Absent for `mock`. */
  baseUrl?: string;
  apiKey?: string;
  /** Extra headers sent upstream on every request (e.g. OpenRouter's attribution headers). */
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
  /** OpenAI-type provider that also serves the Responses API natively (passed through untouched). */
  responses?: boolean;
  /** Env vars referenced by this provider's settings that were unset at load: the provider answers 503. */
  missingEnv: readonly string[];
  /** Mock provider knobs (chunking, latency) for demos and tests. */
  mock?: { latencyMs?: number; chunkDelayMs?: number };
}

export interface TargetSettings {
  provider: string;
  model: string;
}

export interface ModelSettings {
  /** Exact name or glob (`gpt-*`); first match wins. */
  name: string;
  type: 'chat' | 'image';
  /** Image models: allowed `<w>x<h>` sizes. */
  sizes?: readonly string[];
  /** Default `max_tokens` for upstreams that require one (Anthropic) when the client omitted it. */
  maxTokens?: number;
  targets: readonly TargetSettings[];
}

export interface PluginEntry {
  /** Built-in name (`auth`), relative path (`./plugins/x.ts`) or package name. */
  name: string;
  options: unknown;
}

export interface GatewayConfig {
  server: ServerConfig;
  storage: StorageSettings;
  keys: readonly KeySettings[];
  providers: Readonly<Record<string, ProviderSettings>>;
  models: readonly ModelSettings[];
  plugins: readonly PluginEntry[];
  /** Directory of the config file: relative plugin paths and storage paths resolve against it. */
  baseDir: string;
  /** Path of the loaded file (absent for in-memory configs). */
  filePath?: string;
}
