// Two real gateway processes (`src/main.ts`, each its own Node process, Agenda instance and pg pool) on one
// PostgreSQL schema share a batch: submitted through A and polled through B, every item is generated exactly
// once upstream and both processes do part of the work (issue 4, "Nothing is lost").
//
// Telling the processes apart honestly: the image-batches plugin calls upstreams with its own HTTP code
// (plugins/image-batches/upstream/http.ts), not through the proxy pipeline, so beforeUpstream hooks such as
// the request-tag example never run for it. Instead each process is configured with its own upstream API
// key, which only that process knows, so the fake upstream sees who made every call in the Authorization
// header. As a cross-check, each process's own debug log ("image generated") must agree with what the
// upstream saw from it, and the items' `attempts` in storage must all be 1 (no item was claimed twice).
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { openStorage } from '../../../src/storage/index.ts';
import { startChildGateway, writeTempConfig } from '../../helpers/child-gateway.ts';
import type { ChildGateway } from '../../helpers/child-gateway.ts';
import { TEST_KEY } from '../../helpers/gateway.ts';
import { BatchClient } from './batch-client.ts';
import { expectedPng, startFakeOpenAIImages } from './fake-image-upstreams.ts';
import type { FakeImageUpstream } from './fake-image-upstreams.ts';
import { dropPostgresSchema } from './harness.ts';

const postgresUrl = process.env['POSTGRES_URL'];
const ITEMS = 24;
const NAMES = ['A', 'B'] as const;
type Name = (typeof NAMES)[number];
const upstreamKey = (name: Name): string => `sk-upstream-gateway-${name.toLowerCase()}`;

/** Both processes: the same key (so the same batch owner), the same store, their own upstream API key. */
function childConfig(name: Name, storage: Record<string, unknown>, upstreamUrl: string): string {
  // JSON is YAML, and spares the quoting of URLs and keys.
  return writeTempConfig(
    JSON.stringify({
      server: { port: 0, host: '127.0.0.1', logLevel: 'debug', shutdownTimeoutMs: 2000 },
      storage,
      keys: [{ name: 'ops', key: TEST_KEY }],
      providers: { img: { type: 'openai', baseUrl: `${upstreamUrl}/v1`, apiKey: upstreamKey(name) } },
      models: [{ name: 'img-model', type: 'image', sizes: ['64x64'], targets: [{ provider: 'img', model: 'gpt-image-1' }] }],
      plugins: [
        'logging',
        'auth',
        {
          'image-batches': {
            processEvery: 50,
            lockLifetimeMs: 1500,
            backoff: { baseMs: 40, maxMs: 200 },
            // 8 lanes of 3 items; one process runs at most 2 lanes at a time, so it cannot take them all.
            concurrency: { perBatch: 8, perProvider: 2 },
          },
        },
      ],
    }),
  );
}

/** SIGTERM (graceful drain), SIGKILL if it has not exited within 5 s. */
async function stopChild(gateway: ChildGateway): Promise<void> {
  const { child } = gateway;
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await gateway.exited;
    clearTimeout(timer);
  }
}

/** Lines of a child's JSON log with this message. */
function logged(gateway: ChildGateway, message: string): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = [];
  for (const line of gateway.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      if (entry['message'] === message) lines.push(entry);
    } catch {
      // not a log line
    }
  }
  return lines;
}

describe('image batches: two gateway processes on one PostgreSQL [postgres]', function () {
  this.timeout(30_000);
  let upstream: FakeImageUpstream | undefined;
  let schema: string | undefined;
  const gateways = new Map<Name, ChildGateway>();

  before(async function () {
    if (!postgresUrl) {
      console.log('    two gateway processes: postgres skipped: POSTGRES_URL is not set (CI sets postgres://postgres@127.0.0.1:5432/test)');
      this.skip();
    }
    upstream = await startFakeOpenAIImages();
    upstream.latencyMs = 100;
    schema = `gw_multiproc_${randomBytes(4).toString('hex')}`;
    const storage = { kind: 'postgres', url: postgresUrl, schema };
    const fake = upstream;
    // Started together: they also race on creating the schema, which the storage layer serialises.
    const started = await Promise.allSettled(NAMES.map((name) => startChildGateway(childConfig(name, storage, fake.url))));
    started.forEach((result, i) => {
      if (result.status === 'fulfilled') gateways.set(NAMES[i]!, result.value);
    });
    const failed = started.find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
  });

  after(async () => {
    await Promise.all([...gateways.values()].map(stopChild));
    gateways.clear();
    await upstream?.close();
    if (postgresUrl && schema) await dropPostgresSchema(postgresUrl, schema);
  });

  it('share one batch: submitted through A, polled through B, each item generated once, both did part of it', async () => {
    const [a, b] = NAMES.map((name) => gateways.get(name)!);
    const fake = upstream!;
    const apiA = new BatchClient(a!.url, TEST_KEY);
    const apiB = new BatchClient(b!.url, TEST_KEY);
    const items = Array.from({ length: ITEMS }, (_, n) => ({ prompt: `two processes ${n}`, size: '64x64' }));
    const batch = await apiA.create({ model: 'img-model', items });

    const done = await apiB.waitFor(batch.id, undefined, 20_000);
    const diagnostics = (): string => `A:\n${a!.output().slice(-3000)}\nB:\n${b!.output().slice(-3000)}`;
    expect(done.status, diagnostics()).to.equal('completed');
    expect(done.request_counts).to.include({ total: ITEMS, succeeded: ITEMS, failed: 0, queued: 0, running: 0 });
    expect(done.items.every((item) => item.status === 'succeeded' && item.url)).to.equal(true);

    // Exactly once upstream, per prompt.
    for (const item of items) expect(fake.callsFor(item.prompt), item.prompt).to.equal(1);
    expect(fake.totalCalls()).to.equal(ITEMS);

    // Who made the calls, as the upstream saw it: each process authenticates with its own key.
    const byKey = new Map<string, number>();
    for (const request of fake.upstream.requests) {
      if (request.path !== '/v1/images/generations') continue;
      const auth = String(request.headers.authorization);
      byKey.set(auth, (byKey.get(auth) ?? 0) + 1);
    }
    const calls = { A: byKey.get(`Bearer ${upstreamKey('A')}`) ?? 0, B: byKey.get(`Bearer ${upstreamKey('B')}`) ?? 0 };
    expect(calls.A + calls.B, `upstream calls by key: ${JSON.stringify([...byKey])}`).to.equal(ITEMS);
    expect(calls.A, 'process A generated some items').to.be.greaterThan(0);
    expect(calls.B, 'process B generated some items').to.be.greaterThan(0);

    // Each process's own account agrees: as many images stored by it as calls it made, none discarded.
    expect(logged(a!, 'image generated').length, 'A logged').to.equal(calls.A);
    expect(logged(b!, 'image generated').length, 'B logged').to.equal(calls.B);
    for (const gateway of [a!, b!]) expect(logged(gateway, 'image discarded: the item was taken over')).to.have.length(0);

    // No item was ever claimed twice (claimItem increments attempts; a lease take-over would show as 2).
    const storage = await openStorage({ kind: 'postgres', url: postgresUrl!, schema: schema! });
    try {
      const stored = await storage.batches.findById(batch.id);
      expect(stored?.items.map((item) => item.attempts)).to.deep.equal(Array.from({ length: ITEMS }, () => 1));
    } finally {
      await storage.close();
    }

    // The images are shared too: every one downloads through A, whichever process generated it.
    for (const item of done.items) {
      const response = await apiA.fetchUrl(item.url!);
      expect(response.status).to.equal(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(expectedPng(item.prompt, item.size)), item.prompt).to.equal(true);
    }
  });
});
