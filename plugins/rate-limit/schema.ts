// Options of the rate-limit plugin (validated by the registry at start-up, defaults applied).
// Per-key overrides live in the YAML's `keys[].rateLimit: { requestsPerMinute, concurrency }`.

export interface RedisStoreOptions {
  kind: 'redis';
  /** `redis://[user:password@]host:port[/db]` or `rediss://…`. */
  url: string;
  /** Prefix of every Redis key this plugin writes (default `gateway:rl`). */
  keyPrefix?: string;
  /** In-flight counters expire after this long without a request starting or ending for the key (default 900 s). */
  concurrencyLeaseSeconds?: number;
}

export type StoreOptions = { kind: 'memory' } | RedisStoreOptions;

export interface RateLimitOptions {
  requestsPerMinute: number;
  concurrency: number;
  store: StoreOptions;
}

/** Defaults of the Redis store's optional fields (ajv applies no defaults inside `oneOf` branches). */
export const REDIS_DEFAULTS = { keyPrefix: 'gateway:rl', concurrencyLeaseSeconds: 900 } as const;

export const rateLimitOptionsSchema = {
  type: 'object',
  properties: {
    requestsPerMinute: { type: 'integer', minimum: 1, default: 600, description: 'Requests per minute per key.' },
    concurrency: { type: 'integer', minimum: 1, default: 32, description: 'Requests in flight per key.' },
    store: {
      default: { kind: 'memory' },
      description: 'Where counters live: this process (memory) or Redis, shared by every gateway instance.',
      oneOf: [
        {
          type: 'object',
          properties: { kind: { const: 'memory' } },
          required: ['kind'],
          additionalProperties: false,
        },
        {
          type: 'object',
          properties: {
            kind: { const: 'redis' },
            url: { type: 'string', pattern: '^rediss?://' },
            keyPrefix: { type: 'string', minLength: 1 },
            concurrencyLeaseSeconds: { type: 'integer', minimum: 1 },
          },
          required: ['kind', 'url'],
          additionalProperties: false,
        },
      ],
    },
  },
  additionalProperties: false,
} as const;
