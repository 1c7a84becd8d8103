// The typed per-request context every hook receives. Plugins keep their own state under their name in
// `pluginState` instead of hanging loose properties on `req`.
import type { ModelSettings, ProviderSettings, TargetSettings } from '../config/types.ts';

/** Which wire protocol (and so which error shape) a request speaks. Batches and listings use OpenAI's. */
export type RequestProtocol = 'chat' | 'responses' | 'messages' | 'gemini';

/** What the client asked the gateway to do. */
export type Operation = 'generate' | 'count_tokens' | 'list_models' | 'get_model' | 'plugin_route';

export interface KeyIdentity {
  name: string;
  models: readonly string[];
}

export interface ResolvedRoute {
  model: ModelSettings;
  target: TargetSettings;
  provider: ProviderSettings;
  /** Position of `target` in `model.targets` (fallback walks this list). */
  targetIndex: number;
}

/** The outgoing upstream call, editable by `beforeUpstream` hooks. */
export interface UpstreamRequest {
  /** Absolute URL (provider base URL + endpoint path + query). */
  url: string;
  headers: Record<string, string>;
  /** JSON body; undefined for bodiless calls. */
  body: Record<string, unknown> | undefined;
}

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  totalTokens?: number;
}

export interface ResponseInfo {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  usage?: TokenUsage;
  /** Whether the response body was an SSE/JSON-array stream. */
  streamed: boolean;
}

export interface Timings {
  /** `performance.now()` when the request arrived. */
  start: number;
  upstreamStart?: number;
  /** First response byte written to the client (TTFB for streams). */
  firstByte?: number;
  end?: number;
}

export interface RequestContext {
  readonly id: string;
  readonly protocol: RequestProtocol;
  readonly operation: Operation;
  readonly method: string;
  readonly path: string;
  readonly timings: Timings;
  /** Request headers (lower-case names). Read-only view of what the client sent. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Query parameters. */
  readonly query: Readonly<Record<string, string>>;
  key?: KeyIdentity;
  /** Model as requested by the client (body `model` or Gemini path). */
  model?: string;
  stream: boolean;
  /** Parsed JSON body for generation requests. */
  body?: Record<string, unknown>;
  route?: ResolvedRoute;
  upstream?: UpstreamRequest;
  response?: ResponseInfo;
  /** Features dropped in translation, echoed in `x-gateway-dropped` and the access log. */
  readonly dropped: string[];
  /** Extra fields for the access log line. */
  readonly logFields: Record<string, unknown>;
  /** Per-plugin state, keyed by plugin name. */
  readonly pluginState: Map<string, unknown>;
  /** Aborted when the client disconnects (upstream calls listen to it). */
  readonly signal: AbortSignal;
}
