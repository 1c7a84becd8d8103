// Built-in rate-limit plugin: per-key requests per minute and requests in flight (rate-limiter-flexible;
// memory or Redis store, see store.ts). Defaults come from the options, per-key overrides from
// `keys[].rateLimit`.
//
// onRequest runs after auth (chain order) and limits by `ctx.key.name`. A request without a key identity
// is not limited here: auth decides about it, and limiting anonymous traffic by client IP would let one
// NATed office exhaust everyone's budget. The in-flight slot taken in onRequest is released in onResponse
// or onError, exactly once (the lease in `ctx.pluginState` remembers it was released).
// If the store itself fails (not a limit), the request is let through and the failure logged.
import { GatewayError, definePlugin, redactUrl } from '../../src/index.ts';
import type { KeySettings, RequestContext } from '../../src/index.ts';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from 'winston';
import { rateLimitOptionsSchema } from './schema.ts';
import type { RateLimitOptions } from './schema.ts';
import { createStore } from './store.ts';
import type { LimiterStore } from './store.ts';

const NAME = 'rate-limit';

interface Limits {
  requestsPerMinute: number;
  concurrency: number;
}

interface KeyLimiters {
  limits: Limits;
  perMinute: RateLimiterAbstract;
  inFlight: RateLimiterAbstract;
}

/** The in-flight slot a request holds, kept in `ctx.pluginState`. */
class Lease {
  readonly limiter: RateLimiterAbstract;
  readonly key: string;
  released = false;

  constructor(limiter: RateLimiterAbstract, key: string) {
    this.limiter = limiter;
    this.key = key;
  }
}

const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

function tooMany(code: 'rate_limited' | 'concurrency_limited', what: string, key: string, retryAfter: number): GatewayError {
  return new GatewayError(code, `${what} for key ${key} exceeded; retry after ${retryAfter} s`, {
    headers: { 'retry-after': String(retryAfter) },
  });
}

function limitersByKey(store: LimiterStore, options: RateLimitOptions, keys: readonly KeySettings[]) {
  const build = (limits: Limits): KeyLimiters => ({
    limits,
    perMinute: store.perMinute(limits.requestsPerMinute),
    inFlight: store.inFlight(limits.concurrency),
  });
  const defaults = build({ requestsPerMinute: options.requestsPerMinute, concurrency: options.concurrency });
  const overrides = new Map<string, KeyLimiters>();
  for (const key of keys) {
    if (key.rateLimit === undefined) continue;
    overrides.set(key.name, build({
      requestsPerMinute: key.rateLimit.requestsPerMinute ?? options.requestsPerMinute,
      concurrency: key.rateLimit.concurrency ?? options.concurrency,
    }));
  }
  return (name: string): KeyLimiters => overrides.get(name) ?? defaults;
}

async function countRequest(ctx: RequestContext, key: string, limiters: KeyLimiters, logger: Logger): Promise<void> {
  const limit = limiters.limits.requestsPerMinute;
  ctx.logFields['x-ratelimit-limit-requests'] = limit;
  try {
    const res = await limiters.perMinute.consume(key);
    ctx.logFields['x-ratelimit-remaining-requests'] = res.remainingPoints;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) {
      logger.warn(`request ${ctx.id}: requests-per-minute store failed, request let through: ${redactUrl(String(rejection))}`);
      return;
    }
    ctx.logFields['x-ratelimit-remaining-requests'] = 0;
    throw tooMany('rate_limited', `rate limit of ${limit} requests/min`, key, seconds(rejection.msBeforeNext));
  }
}

async function acquireSlot(ctx: RequestContext, key: string, limiters: KeyLimiters, logger: Logger): Promise<void> {
  try {
    await limiters.inFlight.consume(key);
    ctx.pluginState.set(NAME, new Lease(limiters.inFlight, key));
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) {
      logger.warn(`request ${ctx.id}: concurrency store failed, request let through: ${redactUrl(String(rejection))}`);
      return;
    }
    // A rejected consume still counted this request: give the point back, it never ran.
    await limiters.inFlight.reward(key).catch(() => undefined);
    throw tooMany('concurrency_limited', `concurrency limit of ${limiters.limits.concurrency} requests in flight`, key, 1);
  }
}

async function release(ctx: RequestContext, logger: Logger): Promise<void> {
  const lease = ctx.pluginState.get(NAME);
  if (!(lease instanceof Lease) || lease.released) return;
  lease.released = true;
  try {
    await lease.limiter.reward(lease.key);
  } catch (error) {
    logger.warn(`request ${ctx.id}: could not release its concurrency slot: ${redactUrl(String(error))}`);
  }
}

export default definePlugin<RateLimitOptions>({
  name: NAME,
  optionsSchema: rateLimitOptionsSchema,
  async setup({ options, gateway, logger }) {
    const store = await createStore(options.store, logger);
    gateway.onClose(() => store.close());
    const limitersFor = limitersByKey(store, options, gateway.config.keys);

    gateway.addHook('onRequest', async (ctx) => {
      if (ctx.key === undefined) return;
      const limiters = limitersFor(ctx.key.name);
      await countRequest(ctx, ctx.key.name, limiters, logger);
      await acquireSlot(ctx, ctx.key.name, limiters, logger);
    });
    gateway.addHook('onResponse', (ctx) => release(ctx, logger));
    gateway.addHook('onError', (ctx) => release(ctx, logger));
  },
});
