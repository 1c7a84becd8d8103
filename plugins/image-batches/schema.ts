// Options of the image-batches plugin (validated by the registry at start-up, defaults applied, frozen).
// docs/image-batches.md explains each one; settings.ts turns them into the numbers the plugin runs on.

export interface ImageBatchesOptions {
  /** Most items one batch may hold (400 beyond). */
  maxItems: number;
  /** Generation attempts per item for transient upstream failures (timeouts, 429, 5xx, network). */
  maxAttempts: number;
  /** Exponential backoff between attempts: baseMs · 2^(attempt-1), capped at maxMs, with jitter. */
  backoff: { baseMs: number; maxMs: number };
  concurrency: {
    /** Items of one batch generated at the same time (all instances together). */
    perBatch: number;
    /** Upstream calls in flight per provider, per gateway instance. */
    perProvider: number;
  };
  limits: {
    /** Queued + running items one key may have across its batches (429 beyond). */
    maxActiveItemsPerKey: number;
    /** Items one key may submit in any 24 h window (429 beyond). */
    imagesPerDayPerKey: number;
  };
  /** How long generated images are kept: milliseconds, or a duration such as `7d`, `12h`, `30m`, `90s`. */
  retention: string | number;
  /** Job lock and item lease lifetime; a crashed worker's items are taken over after this long. */
  lockLifetimeMs: number;
  /** How often each instance polls the job table (ms). */
  processEvery: number;
  /** `Retry-After` sent while a batch is not finished (spec §8: poll every 3-10 s). */
  pollAfterSeconds: number;
  /** Images an upstream returns as a URL are downloaded at once, within these limits. */
  download: { maxBytes: number; timeoutMs: number };
}

export const DURATION_PATTERN = '^[1-9][0-9]*(ms|s|m|h|d)$';

export const imageBatchesOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    maxItems: { type: 'integer', minimum: 1, maximum: 10_000, default: 100, description: 'Most items per batch.' },
    maxAttempts: { type: 'integer', minimum: 1, maximum: 20, default: 4, description: 'Attempts per item for transient failures.' },
    backoff: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        baseMs: { type: 'integer', minimum: 1, default: 1000 },
        maxMs: { type: 'integer', minimum: 1, default: 60_000 },
      },
    },
    concurrency: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        perBatch: { type: 'integer', minimum: 1, maximum: 256, default: 4 },
        perProvider: { type: 'integer', minimum: 1, maximum: 1024, default: 8 },
      },
    },
    limits: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        maxActiveItemsPerKey: { type: 'integer', minimum: 1, default: 1000 },
        imagesPerDayPerKey: { type: 'integer', minimum: 1, default: 2000 },
      },
    },
    retention: {
      // One schema for both forms (pattern applies to strings, minimum to numbers) so a mistake reads as one line.
      type: ['integer', 'string'],
      minimum: 100,
      pattern: DURATION_PATTERN,
      default: '7d',
      description: 'Milliseconds, or a duration like 7d / 12h / 30m / 90s / 500ms.',
    },
    lockLifetimeMs: { type: 'integer', minimum: 500, default: 60_000 },
    processEvery: { type: 'integer', minimum: 10, maximum: 60_000, default: 1000 },
    pollAfterSeconds: { type: 'integer', minimum: 3, maximum: 10, default: 5 },
    download: {
      type: 'object',
      additionalProperties: false,
      default: {},
      properties: {
        maxBytes: { type: 'integer', minimum: 1024, default: 20 * 1024 * 1024 },
        timeoutMs: { type: 'integer', minimum: 100, default: 60_000 },
      },
    },
  },
} as const;

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `7d` → 604800000; numbers are milliseconds already. The schema guarantees the shape. */
export function durationMs(value: string | number): number {
  if (typeof value === 'number') return value;
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(value);
  if (!match?.[1] || !match[2]) throw new Error(`invalid duration ${JSON.stringify(value)}`);
  return Number(match[1]) * (UNIT_MS[match[2]] ?? 1);
}
