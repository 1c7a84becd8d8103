// What an image adapter (one per upstream protocol) takes and returns, and how it reports failures.
import type { ProviderEndpoint } from '../../../src/index.ts';

export interface GeneratedImage {
  bytes: Buffer;
  mimeType: string;
}

export interface DownloadLimits {
  maxBytes: number;
  timeoutMs: number;
}

export interface ImageCall {
  endpoint: ProviderEndpoint;
  /** The upstream's own model name (the target's `model`). */
  model: string;
  prompt: string;
  size: string;
  download: DownloadLimits;
  /** Aborted when the gateway shuts down; the adapter adds the provider's own time limit. */
  signal: AbortSignal;
}

export type ImageAdapter = (call: ImageCall) => Promise<GeneratedImage>;

/** Item error codes a failed generation can end with. */
export type FailureCode = 'content_policy_violation' | 'upstream_timeout' | 'upstream_error';

/**
 * - `policy`: the provider refused the prompt; final, never retried.
 * - `transient`: timeout, 429, 5xx, network; the next target is tried, then the item is retried with backoff.
 * - `permanent`: any other refusal (bad request, credentials); final, the next target is not tried.
 */
export type FailureKind = 'policy' | 'transient' | 'permanent';

export class UpstreamFailure extends Error {
  readonly kind: FailureKind;
  readonly code: FailureCode;
  /** From the upstream's Retry-After, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(kind: FailureKind, code: FailureCode, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'UpstreamFailure';
    this.kind = kind;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The gateway is shutting down: the attempt is abandoned, not failed. */
export class Interrupted extends Error {
  constructor() {
    super('generation interrupted by shutdown');
    this.name = 'Interrupted';
  }
}
