// What the rest of the gateway (and plugins such as image-batches) may know about a provider:
// where its endpoints are and which headers carry its credentials. Implemented in src/providers/.
import type { ProviderType } from '../config/types.ts';
import type { RequestProtocol } from './context.ts';

export type ProviderOperation =
  | 'chat'
  | 'responses'
  | 'messages'
  | 'messages_count_tokens'
  | 'gemini_generate'
  | 'gemini_stream'
  | 'gemini_count_tokens'
  | 'images_generate';

export interface ProviderEndpoint {
  readonly id: string;
  readonly type: ProviderType;
  /** Client protocols this provider speaks natively (same-protocol requests take the fast path). */
  readonly protocols: readonly RequestProtocol[];
  /** False when an env var its settings reference is unset: calls answer 503. */
  readonly available: boolean;
  readonly missingEnv: readonly string[];
  readonly timeoutMs: number;
  /** Absolute URL of an operation; `model` fills Gemini's path; `streamSse` adds `alt=sse`. */
  url(operation: ProviderOperation, model?: string, options?: { streamSse?: boolean }): string;
  /** Credential and version headers for this provider (never the client's key). */
  authHeaders(): Record<string, string>;
}
