import { randomUUID } from 'node:crypto';
import { mock } from 'node:test';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import rateLimit from '../../../plugins/rate-limit/index.ts';
import { GatewayError, REDACTED } from '../../../src/index.ts';
import type { KeySettings, RequestContext } from '../../../src/index.ts';
import { createHarness, key, makeConfig, makeContext } from '../../helpers/plugin-harness.ts';
import type { PluginHarness } from '../../helpers/plugin-harness.ts';

const keys: KeySettings[] = [
  key('ops', 'sk-ops'),
  key('ci', 'sk-ci', { rateLimit: { requestsPerMinute: 1 } }),
  key('batch', 'sk-batch', { rateLimit: { concurrency: 1 } }),
];

async function limiter(options: Record<string, unknown>): Promise<PluginHarness> {
  const harness = createHarness(makeConfig({ keys }));
  await harness.use(rateLimit, options);
  return harness;
}

function request(keyName: string | undefined): RequestContext {
  return makeContext({ key: keyName === undefined ? undefined : { name: keyName, models: ['*'] } });
}

/** Runs onRequest; returns the context on success or the GatewayError it was rejected with. */
async function start(harness: PluginHarness, keyName: string | undefined): Promise<RequestContext | GatewayError> {
  const ctx = request(keyName);
  try {
    await harness.run('onRequest', ctx);
    return ctx;
  } catch (error) {
    expect(error).to.be.instanceOf(GatewayError);
    return error as GatewayError;
  }
}

async function admitted(harness: PluginHarness, keyName: string): Promise<RequestContext> {
  const result = await start(harness, keyName);
  if (result instanceof GatewayError) throw new Error(`expected admission, got ${result.code}: ${result.message}`);
  return result;
}

async function rejected(harness: PluginHarness, keyName: string): Promise<GatewayError> {
  const result = await start(harness, keyName);
  if (!(result instanceof GatewayError)) throw new Error('expected a rejection');
  return result;
}

describe('rate-limit plugin (memory store)', () => {
  beforeEach(() => mock.timers.enable({ apis: ['Date', 'setTimeout'], now: Date.UTC(2030, 0, 1) }));
  afterEach(() => mock.timers.reset());

  it('answers 429 rate_limited with retry-after once the per-minute budget is spent, then recovers', async () => {
    const harness = await limiter({ requestsPerMinute: 3, concurrency: 100 });
    for (let i = 0; i < 3; i += 1) await harness.run('onResponse', await admitted(harness, 'ops'));
    const error = await rejected(harness, 'ops');
    expect(error.code).to.equal('rate_limited');
    expect(error.status).to.equal(429);
    expect(error.headers).to.deep.equal({ 'retry-after': '60' });
    expect(error.message).to.equal('rate limit of 3 requests/min for key ops exceeded; retry after 60 s');

    mock.timers.tick(57_000);
    const later = await rejected(harness, 'ops');
    expect(later.headers['retry-after']).to.equal('3');
    expect(later.message).to.equal('rate limit of 3 requests/min for key ops exceeded; retry after 3 s');

    mock.timers.tick(2_500);
    expect((await rejected(harness, 'ops')).headers['retry-after']).to.equal('1');
    mock.timers.tick(500);
    await admitted(harness, 'ops');
  });

  it('records the limit and the remaining requests in the access-log fields', async () => {
    const harness = await limiter({ requestsPerMinute: 2 });
    const first = await admitted(harness, 'ops');
    expect(first.logFields).to.deep.equal({ 'x-ratelimit-limit-requests': 2, 'x-ratelimit-remaining-requests': 1 });
    await admitted(harness, 'ops');
    const ctx = request('ops');
    await harness.run('onRequest', ctx).catch(() => undefined);
    expect(ctx.logFields).to.deep.equal({ 'x-ratelimit-limit-requests': 2, 'x-ratelimit-remaining-requests': 0 });
  });

  it('applies the defaults (600/min, 32 in flight) and per-key overrides from keys[].rateLimit', async () => {
    const harness = await limiter({});
    const ops = await admitted(harness, 'ops');
    expect(ops.logFields['x-ratelimit-limit-requests']).to.equal(600);
    await admitted(harness, 'ci');
    const error = await rejected(harness, 'ci');
    expect(error.message).to.equal('rate limit of 1 requests/min for key ci exceeded; retry after 60 s');
    await admitted(harness, 'ops');
    for (let i = 0; i < 30; i += 1) await admitted(harness, 'ops');
    expect((await rejected(harness, 'ops')).code).to.equal('concurrency_limited');
  });

  it('keeps separate budgets per key and uses the defaults for keys not in the config', async () => {
    const harness = await limiter({ requestsPerMinute: 1 });
    await admitted(harness, 'ops');
    await admitted(harness, 'someone-else');
    expect((await rejected(harness, 'ops')).code).to.equal('rate_limited');
    expect((await rejected(harness, 'someone-else')).code).to.equal('rate_limited');
  });

  it('skips requests without a key identity (auth decides about them)', async () => {
    const harness = await limiter({ requestsPerMinute: 1, concurrency: 1 });
    for (let i = 0; i < 3; i += 1) {
      const ctx = await start(harness, undefined);
      expect(ctx).not.to.be.instanceOf(GatewayError);
      expect((ctx as RequestContext).logFields).to.deep.equal({});
    }
  });

  describe('concurrency', () => {
    it('answers 429 concurrency_limited while the key has `concurrency` requests in flight', async () => {
      const harness = await limiter({ concurrency: 2 });
      await admitted(harness, 'ops');
      await admitted(harness, 'ops');
      const error = await rejected(harness, 'ops');
      expect(error.code).to.equal('concurrency_limited');
      expect(error.status).to.equal(429);
      expect(error.headers).to.deep.equal({ 'retry-after': '1' });
      expect(error.message).to.equal('concurrency limit of 2 requests in flight for key ops exceeded; retry after 1 s');
      await admitted(harness, 'batch');
    });

    it('frees the slot on onResponse', async () => {
      const harness = await limiter({ concurrency: 1 });
      const first = await admitted(harness, 'ops');
      await rejected(harness, 'ops');
      await harness.run('onResponse', first);
      await admitted(harness, 'ops');
    });

    it('frees the slot on onError', async () => {
      const harness = await limiter({ concurrency: 1 });
      const first = await admitted(harness, 'ops');
      await harness.runError(first, new GatewayError('upstream_unreachable', 'connect ECONNREFUSED'));
      await admitted(harness, 'ops');
    });

    it('releases exactly once when both onError and onResponse run for a request', async () => {
      const harness = await limiter({ concurrency: 2 });
      const first = await admitted(harness, 'ops');
      await admitted(harness, 'ops');
      await harness.runError(first, new Error('stream broke'));
      await harness.run('onResponse', first);
      await harness.run('onResponse', first);
      await admitted(harness, 'ops');
      expect((await rejected(harness, 'ops')).code).to.equal('concurrency_limited');
    });

    it('does not count rejected requests as in flight, and their onError releases nothing', async () => {
      const harness = await limiter({ concurrency: 1 });
      const first = await admitted(harness, 'ops');
      const turnedAway = request('ops');
      const error = await harness.run('onRequest', turnedAway).then(() => undefined, (e: Error) => e);
      expect(error).to.be.instanceOf(GatewayError);
      await harness.runError(turnedAway, error as Error);
      expect((await rejected(harness, 'ops')).code).to.equal('concurrency_limited');
      await harness.run('onResponse', first);
      await admitted(harness, 'ops');
      expect((await rejected(harness, 'ops')).code).to.equal('concurrency_limited');
    });

    it('takes no slot for a request the per-minute limit rejected', async () => {
      const harness = await limiter({ requestsPerMinute: 1, concurrency: 1 });
      const first = await admitted(harness, 'ops');
      await harness.run('onResponse', first);
      expect((await rejected(harness, 'ops')).code).to.equal('rate_limited');
      mock.timers.tick(60_000);
      await admitted(harness, 'ops');
    });

    it('uses the per-key concurrency override', async () => {
      const harness = await limiter({ concurrency: 5 });
      await admitted(harness, 'batch');
      const error = await rejected(harness, 'batch');
      expect(error.message).to.equal('concurrency limit of 1 requests in flight for key batch exceeded; retry after 1 s');
    });
  });

  it('validates its options at start-up', async () => {
    const problems = async (options: unknown): Promise<string> =>
      createHarness().use(rateLimit, options).then(() => '', (error: Error) => error.message);
    expect(await problems({ requestsPerMinute: 0 })).to.include('requestsPerMinute: must be >= 1');
    expect(await problems({ concurrency: 2.5 })).to.include('concurrency: must be integer');
    expect(await problems({ store: { kind: 'redis' } })).to.include("must have required property 'url'");
    expect(await problems({ store: { kind: 'memory', url: 'redis://x' } })).to.include('must match exactly one schema');
    expect(await problems({ store: { kind: 'redis', url: 'http://x' } })).to.include('store.url: must match pattern');
    expect(await problems({ burst: 1 })).to.include('unknown option "burst"');
  });
});

describe('rate-limit plugin (Redis store)', function () {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const keyPrefix = `gateway-test:${randomUUID()}`;
  const store = { kind: 'redis', url, keyPrefix };
  const harnesses: PluginHarness[] = [];

  async function instance(options: Record<string, unknown>): Promise<PluginHarness> {
    const harness = await limiter({ ...options, store });
    harnesses.push(harness);
    return harness;
  }

  before(async function () {
    if (!(await reachable(url))) {
      console.log(`      Redis store tests skipped: no Redis reachable at ${url} (set REDIS_URL to run them)`);
      this.skip();
    }
  });

  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.close();
  });

  after(async () => {
    if (!(await reachable(url))) return;
    const client = new Redis(url);
    const found = await client.keys(`${keyPrefix}:*`);
    if (found.length > 0) await client.del(...found);
    await client.quit();
  });

  it('shares the per-minute budget between gateway instances', async () => {
    const a = await instance({ requestsPerMinute: 2 });
    const b = await instance({ requestsPerMinute: 2 });
    await a.run('onResponse', await admitted(a, 'ops'));
    await b.run('onResponse', await admitted(b, 'ops'));
    const error = await rejected(a, 'ops');
    expect(error.code).to.equal('rate_limited');
    const retryAfter = Number(error.headers['retry-after']);
    expect(retryAfter).to.be.within(1, 60);
    expect(error.message).to.equal(`rate limit of 2 requests/min for key ops exceeded; retry after ${retryAfter} s`);
    expect((await rejected(b, 'ops')).code).to.equal('rate_limited');
    await a.run('onResponse', await admitted(a, 'ci'));
  });

  it('shares in-flight counts between instances and releases on response and on error', async () => {
    const a = await instance({ concurrency: 1 });
    const b = await instance({ concurrency: 1 });
    const first = await admitted(a, 'ops');
    expect((await rejected(b, 'ops')).code).to.equal('concurrency_limited');
    await a.run('onResponse', first);
    const second = await admitted(b, 'ops');
    expect((await rejected(a, 'ops')).code).to.equal('concurrency_limited');
    await b.runError(second, new Error('upstream reset'));
    await b.run('onResponse', second);
    await admitted(a, 'ops');
    expect((await rejected(b, 'ops')).code).to.equal('concurrency_limited');
  });

  it('renews the in-flight lease on every start and end and never counts below zero', async () => {
    const a = await instance({ concurrency: 2 });
    const first = await admitted(a, 'batch');
    const client = new Redis(url);
    try {
      const counter = `${keyPrefix}:conc:batch`;
      expect(await client.get(counter)).to.equal('1');
      expect(await client.ttl(counter)).to.be.within(890, 900);
      await client.set(counter, 0, 'EX', 900);
      await a.run('onResponse', first);
      expect(await client.get(counter)).to.equal('0');
    } finally {
      await client.quit();
    }
  });

});

describe('rate-limit plugin (Redis store settings)', () => {
  it('fails to start, naming the Redis URL without its password, when Redis is unreachable', async () => {
    const message = await createHarness(makeConfig({ keys }))
      .use(rateLimit, { store: { kind: 'redis', url: 'redis://:hunter2@127.0.0.1:1' } })
      .then(() => '', (error: Error) => error.message);
    expect(message).to.include(`cannot connect to Redis at redis://:${REDACTED}@127.0.0.1:1`);
    expect(message).not.to.include('hunter2');
  });
});

/** Whether a Redis answers PING at `url` (asked through ioredis: nock's socket interception fakes raw connects). */
async function reachable(url: string): Promise<boolean> {
  const client = new Redis(url, { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: 1000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
