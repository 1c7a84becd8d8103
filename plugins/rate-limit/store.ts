// Limiter construction for the configured store. Both stores give each key two rate-limiter-flexible
// limiters:
//  - perMinute: a fixed one-minute window of `requestsPerMinute` points, one point per request;
//  - inFlight: a counter of requests in flight, used as a semaphore: `consume` when a request starts
//    (rejected once `concurrency` are running), `reward` when it ends.
// Memory: the in-flight limiter has duration 0, so its counter never expires: an exact semaphore for one
// process, with the library's atomic counter instead of a hand-written map.
// Redis: counters are shared by every gateway instance. The in-flight counter uses a small Lua script
// (LEASE_SCRIPT) that renews its TTL on every start and end and never goes below zero, so counts left
// behind by a crashed instance expire once the key has been idle for `concurrencyLeaseSeconds`.
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from 'winston';
import { redactUrl } from '../../src/index.ts';
import { REDIS_DEFAULTS } from './schema.ts';
import type { RedisStoreOptions, StoreOptions } from './schema.ts';

export interface LimiterStore {
  perMinute(points: number): RateLimiterAbstract;
  inFlight(points: number): RateLimiterAbstract;
  close(): Promise<void>;
}

const WINDOW_SECONDS = 60;

// KEYS[1] counter; ARGV[1] points to add (negative on release); ARGV[2] lease in seconds.
// Returns {count, pttl} as rate-limiter-flexible's own script does.
const LEASE_SCRIPT = `
local count = redis.call('incrby', KEYS[1], ARGV[1])
if count < 0 then
  redis.call('set', KEYS[1], 0)
  count = 0
end
redis.call('expire', KEYS[1], ARGV[2])
return {count, redis.call('pttl', KEYS[1])}
`;

function memoryStore(): LimiterStore {
  return {
    perMinute: (points) => new RateLimiterMemory({ points, duration: WINDOW_SECONDS }),
    inFlight: (points) => new RateLimiterMemory({ points, duration: 0 }),
    close: async () => undefined,
  };
}

async function connect(url: string, name: string, whileDown: string, logger: Logger): Promise<Redis> {
  const client = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectionName: name });
  let reported = false;
  client.on('error', (error: Error) => {
    if (!reported) logger.warn(`Redis ${redactUrl(url)}: ${redactUrl(error.message)} (${whileDown} until it is back)`);
    reported = true;
  });
  client.on('ready', () => {
    reported = false;
  });
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new Error(`cannot connect to Redis at ${redactUrl(url)}: ${redactUrl((error as Error).message)}`, { cause: error });
  }
  return client;
}

async function redisStore(options: RedisStoreOptions, logger: Logger): Promise<LimiterStore> {
  const prefix = options.keyPrefix ?? REDIS_DEFAULTS.keyPrefix;
  const lease = options.concurrencyLeaseSeconds ?? REDIS_DEFAULTS.concurrencyLeaseSeconds;
  // Two connections on purpose: rate-limiter-flexible registers its Lua script on the client under one
  // command name, so the in-flight limiter's custom script would replace the per-minute one on a shared client.
  const windows = await connect(options.url, 'gateway-rate-limit', 'requests per minute counted per instance', logger);
  const leases = await connect(options.url, 'gateway-concurrency', 'concurrency not limited', logger).catch(async (error: unknown) => {
    await windows.quit();
    throw error;
  });
  return {
    perMinute: (points) =>
      new RateLimiterRedis({
        storeClient: windows,
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: `${prefix}:rpm`,
        rejectIfRedisNotReady: true,
        // While Redis is unreachable each instance keeps counting on its own.
        insuranceLimiter: new RateLimiterMemory({ points, duration: WINDOW_SECONDS }),
      }),
    inFlight: (points) =>
      new RateLimiterRedis({
        storeClient: leases,
        points,
        duration: lease,
        keyPrefix: `${prefix}:conc`,
        rejectIfRedisNotReady: true,
        customIncrTtlLuaScript: LEASE_SCRIPT,
      }),
    async close() {
      await Promise.all([windows.quit(), leases.quit()]);
    },
  };
}

export async function createStore(options: StoreOptions, logger: Logger): Promise<LimiterStore> {
  return options.kind === 'redis' ? redisStore(options, logger) : memoryStore();
}
