// Nothing is lost: a gateway SIGKILLed mid-batch and restarted finishes every item, regenerating only what
// was in flight; a gracefully stopped gateway hands its lanes over without regenerating anything; and two
// gateways on one store share a batch, each item generated exactly once.
import { expect } from 'chai';
import { startChildGateway, writeTempConfig } from '../../helpers/child-gateway.ts';
import { TEST_KEY } from '../../helpers/gateway.ts';
import type { TestGateway } from '../../helpers/gateway.ts';
import { BatchClient } from './batch-client.ts';
import { expectedPng } from './fake-image-upstreams.ts';
import { requestHash } from '../../../plugins/image-batches/submit.ts';
import { describeOnBackends } from './harness.ts';
import type { Harness } from './harness.ts';

const generatedBy = (gw: TestGateway): number => gw.logs.filter((line) => line.message === 'image generated').length;

function childConfig(harness: Harness, storage: Record<string, unknown>): string {
  return writeTempConfig(`
server: { port: 0, host: 127.0.0.1 }
storage: ${JSON.stringify(storage)}
keys: [{ name: ops, key: ${TEST_KEY} }]
providers:
  img: { type: openai, baseUrl: "${harness.openai.url}/v1", apiKey: sk-upstream }
models:
  - { name: img-model, type: image, sizes: [64x64], targets: [{ provider: img, model: gpt-image-1 }] }
plugins:
  - logging
  - auth
  - image-batches: { processEvery: 50, lockLifetimeMs: 1000, backoff: { baseMs: 40, maxMs: 200 }, concurrency: { perBatch: 3, perProvider: 8 } }
`);
}

describeOnBackends('image batches: recovery and sharing', (harness) => {
  it('a gateway killed with SIGKILL mid-batch and restarted finishes every item; only in-flight ones run twice', async function () {
    this.timeout(45_000);
    const h = harness();
    const storage = (await h.config()).storage as Record<string, unknown>;
    h.openai.latencyMs = 250;
    const file = childConfig(h, storage);
    let child = await startChildGateway(file);
    const items = Array.from({ length: 12 }, (_, n) => ({ prompt: `survivor ${n}`, size: '64x64' }));
    try {
      const api = new BatchClient(child.url, TEST_KEY);
      const batch = await api.create({ model: 'img-model', items });
      const before = await api.waitFor(batch.id, (b) => (b.request_counts['succeeded'] ?? 0) >= 3 && (b.request_counts['running'] ?? 0) >= 1);
      const doneBeforeKill = before.items.filter((item) => item.status === 'succeeded').map((item) => item.prompt);
      child.child.kill('SIGKILL');
      await child.exited;
      child = await startChildGateway(file);
      const restarted = new BatchClient(child.url, TEST_KEY);
      const done = await restarted.waitFor(batch.id, undefined, 20_000);
      expect(done.status, child.output()).to.equal('completed');
      expect(done.request_counts).to.include({ succeeded: 12 });
      for (const prompt of doneBeforeKill) expect(h.openai.callsFor(prompt), prompt).to.equal(1);
      const repeated = items.filter((item) => h.openai.callsFor(item.prompt) > 1);
      expect(repeated.length, 'only the items in flight at the kill may run twice').to.be.at.most(3);
      for (const item of items) expect(h.openai.callsFor(item.prompt)).to.be.within(1, 2);
      const image = await restarted.fetchUrl(done.items[11]!.url!);
      expect(Buffer.from(await image.arrayBuffer()).equals(expectedPng('survivor 11', '64x64'))).to.equal(true);
    } finally {
      child.child.kill('SIGKILL');
      await child.exited;
    }
  });

  it('a gateway stopped gracefully mid-batch hands its work over: the next one finishes, nothing runs twice', async () => {
    const h = harness();
    h.openai.latencyMs = 200;
    const first = await h.start();
    const items = Array.from({ length: 10 }, (_, n) => ({ prompt: `handover ${n}`, size: '64x64' }));
    const batch = await first.api.create({ model: 'img-model', items });
    await first.api.waitFor(batch.id, (b) => (b.request_counts['succeeded'] ?? 0) >= 2);
    await first.gw.close();
    const second = await h.start();
    const done = await second.api.waitFor(batch.id);
    expect(done.status).to.equal('completed');
    for (const item of items) expect(h.openai.callsFor(item.prompt), item.prompt).to.equal(1);
    expect(generatedBy(second.gw)).to.be.greaterThan(0);
  });

  it('a batch stored without its jobs (crash right after the insert) is picked up at start-up and on an idempotent replay', async () => {
    const h = harness();
    const storage = await h.openStorage();
    const body = { model: 'img-model', items: [{ prompt: 'orphan a', size: '64x64' }, { prompt: 'orphan b', size: '64x64' }] };
    const stored = async (idempotencyKey?: string) => {
      const result = await storage.batches.createBatch({
        owner: 'ops',
        model: body.model,
        items: body.items.map(({ prompt, size }) => ({ prompt, size })),
        requestHash: requestHash(body),
        ...(idempotencyKey ? { idempotencyKey } : {}),
      });
      if (result.outcome !== 'created') throw new Error(result.outcome);
      return result.batch.id;
    };
    const beforeStart = await stored();
    const { api } = await h.start();
    expect((await api.waitFor(beforeStart)).status).to.equal('completed');
    const whileRunning = await stored('replay-me');
    const replay = await api.submit(body, { 'idempotency-key': 'replay-me' });
    expect(replay.body.id).to.equal(whileRunning);
    expect((await api.waitFor(whileRunning)).status).to.equal('completed');
    expect(h.openai.callsFor('orphan a')).to.equal(2);
  });

  it('two gateways on one store share a batch; each item is generated exactly once', async () => {
    const h = harness();
    h.openai.latencyMs = 100;
    const options = { plugin: { concurrency: { perBatch: 8, perProvider: 1 } } };
    const a = await h.start(options);
    const b = await h.start(options);
    const items = Array.from({ length: 24 }, (_, n) => ({ prompt: `shared ${n}`, size: '64x64' }));
    const batch = await a.api.create({ model: 'img-model', items });
    const done = await b.api.waitFor(batch.id);
    expect(done.status).to.equal('completed');
    for (const item of items) expect(h.openai.callsFor(item.prompt), item.prompt).to.equal(1);
    expect(generatedBy(a.gw), 'instance A generated some').to.be.greaterThan(0);
    expect(generatedBy(b.gw), 'instance B generated some').to.be.greaterThan(0);
    expect(generatedBy(a.gw) + generatedBy(b.gw)).to.equal(24);
  });
});
