// Owner actions and policies: cancel, Idempotency-Key, isolation between keys, per-key limits and the daily
// budget, and image retention (410 once expired, blobs deleted by the recurring job).
import { expect } from 'chai';
import { OTHER_KEY } from '../../helpers/gateway.ts';
import type { BatchJson, ErrorJson } from './batch-client.ts';
import { describeOnBackends } from './harness.ts';

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describeOnBackends('image batches: cancel, idempotency, isolation, limits, retention', (harness) => {
  it('cancel: queued items become cancelled, the running one finishes, the batch ends cancelled', async () => {
    const { api } = await harness().start({ plugin: { concurrency: { perBatch: 1, perProvider: 8 } } });
    const items = Array.from({ length: 4 }, (_, n) => ({ prompt: `slow ${n} [slow:300]`, size: '64x64' }));
    const batch = await api.create({ model: 'img-model', items });
    await api.waitFor(batch.id, (b) => b.request_counts['running'] === 1);
    const cancelled = await api.cancel(batch.id);
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body.request_counts).to.include({ running: 1, cancelled: 3 });
    const done = await api.waitFor(batch.id);
    expect(done.status).to.equal('cancelled');
    expect(done.request_counts).to.include({ succeeded: 1, cancelled: 3 });
    expect(done.items[0]!.url).to.be.a('string');
    await delay(200);
    expect(harness().openai.totalCalls()).to.equal(1);
    const again = await api.cancel(batch.id);
    expect(again.status).to.equal(200);
    expect(again.body.status).to.equal('cancelled');
    const retry = await api.retry(batch.id);
    expect(retry.status).to.equal(400);
  });

  it('Idempotency-Key: same key and body → the same batch; a different body → 409; keys are per API key', async () => {
    const { api } = await harness().start();
    const body = { model: 'img-model', items: [{ prompt: 'once only', size: '64x64', custom_id: 'x' }], metadata: { a: '1', b: '2' } };
    const first = await api.submit(body, { 'idempotency-key': 'order-42' });
    expect(first.status).to.equal(202);
    const reordered = { metadata: { b: '2', a: '1' }, items: [{ custom_id: 'x', size: '64x64', prompt: 'once only' }], model: 'img-model' };
    const replay = await api.submit(reordered, { 'idempotency-key': 'order-42' });
    expect(replay.status).to.equal(202);
    expect(replay.body.id).to.equal(first.body.id);
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
    const conflict = await api.submit({ ...body, items: [{ prompt: 'something else', size: '64x64' }] }, { 'idempotency-key': 'order-42' });
    expect(conflict.status).to.equal(409);
    expect(conflict.body.error.code).to.equal('idempotency_key_reused');
    expect(conflict.body.error.message).to.contain(first.body.id);
    const other = await api.as(OTHER_KEY).submit({ model: 'other-img', items: [{ prompt: 'once only', size: '64x64' }] }, { 'idempotency-key': 'order-42' });
    expect(other.status).to.equal(202);
    expect(other.body.id).to.not.equal(first.body.id);
    const fresh = await api.submit(body, { 'idempotency-key': 'order-43' });
    expect(fresh.body.id).to.not.equal(first.body.id);
    await api.waitFor(first.body.id);
    await api.waitFor(fresh.body.id);
    expect(harness().openai.callsFor('once only')).to.equal(3);
    const bad = await api.submit(body, { 'idempotency-key': 'has space' });
    expect(bad.status).to.equal(400);
  });

  it("isolation: another key gets 404 for a batch's record, items, archive, retry and cancel, and does not list it", async () => {
    const { api } = await harness().start();
    const batch = await api.create({ model: 'img-model', items: [{ prompt: 'private', size: '64x64' }] });
    const done = await api.waitFor(batch.id);
    const other = api.as(OTHER_KEY);
    const replies = [
      await other.get(batch.id),
      await other.call<ErrorJson>('GET', `/v1/images/batches/${batch.id}/items/0/content`),
      await other.call<ErrorJson>('GET', `/v1/images/batches/${batch.id}/archive`),
      await other.retry(batch.id),
      await other.cancel(batch.id),
    ];
    for (const reply of replies) {
      expect(reply.status).to.equal(404);
      expect(reply.body.error).to.deep.include({ type: 'invalid_request_error', code: 'not_found' });
      expect(reply.body.error.message).to.equal(`No batch found with id '${batch.id}'.`);
    }
    const listed = await other.call<{ data: BatchJson[] }>('GET', '/v1/images/batches');
    expect(listed.body.data).to.deep.equal([]);
    expect((await api.fetchUrl(done.items[0]!.url!)).status).to.equal(200);
    const unknown = await api.get('batch_doesnotexist');
    expect(unknown.status).to.equal(404);
  });

  it('limits: 429 beyond the active-items cap and the daily budget; a batch is admitted whole or not at all', async () => {
    const { api } = await harness().start({ plugin: { limits: { maxActiveItemsPerKey: 3, imagesPerDayPerKey: 6 } } });
    const item = (name: string, slow = 0): { prompt: string; size: string } => ({ prompt: `${name}${slow ? ` [slow:${slow}]` : ''}`, size: '64x64' });
    const first = await api.create({ model: 'img-model', items: [item('a', 600), item('b', 600)] });
    const tooBusy = await api.submit({ model: 'img-model', items: [item('c'), item('d')] });
    expect(tooBusy.status).to.equal(429);
    expect(tooBusy.body.error.code).to.equal('insufficient_quota');
    expect(tooBusy.body.error.message).to.contain('queued or running').and.contain('limit is 3');
    const fits = await api.create({ model: 'img-model', items: [item('e'), { prompt: 'never runs', size: '999x999' }] });
    await api.waitFor(first.id);
    await api.waitFor(fits.id);
    const overBudget = await api.submit({ model: 'img-model', items: [item('f'), item('g'), item('h')] });
    expect(overBudget.status).to.equal(429);
    expect(overBudget.body.error.message).to.contain('Daily image budget').and.contain('4 of 6');
    const lastTwo = await api.create({ model: 'img-model', items: [item('f'), item('g')] });
    await api.waitFor(lastTwo.id);
    const exhausted = await api.submit({ model: 'img-model', items: [item('i')] });
    expect(exhausted.status).to.equal(429);
    const listed = await api.call<{ data: BatchJson[] }>('GET', '/v1/images/batches');
    expect(listed.body.data).to.have.length(3);
    expect(harness().openai.totalCalls()).to.equal(5);
  });

  it('retention: an expired image answers 410 and the recurring job deletes it', async () => {
    const { api } = await harness().start({ plugin: { retention: 1500 } });
    const batch = await api.create({ model: 'img-model', items: [{ prompt: 'short-lived', size: '64x64' }] });
    const done = await api.waitFor(batch.id);
    expect((await api.fetchUrl(done.items[0]!.url!)).status).to.equal(200);
    await delay(Math.max(0, done.items[0]!.expires_at! * 1000 - Date.now()) + 1100);
    const gone = await api.call<ErrorJson>('GET', `/v1/images/batches/${batch.id}/items/0/content`);
    expect(gone.status).to.equal(410);
    expect(gone.body.error.code).to.equal('expired');
    expect(gone.body.error.message).to.contain('expired');
    const archive = await api.call<ErrorJson>('GET', `/v1/images/batches/${batch.id}/archive`);
    expect(archive.status).to.equal(410);
    const view = (await api.get(batch.id)).body;
    expect(view.items[0]!.url).to.equal(undefined);
    expect(view.archive_url).to.equal(undefined);
    const storage = await harness().openStorage();
    const deadline = Date.now() + 8000;
    let stored = await storage.batches.findById(batch.id);
    while (stored?.items[0]?.expired !== true && Date.now() < deadline) {
      await delay(100);
      stored = await storage.batches.findById(batch.id);
    }
    expect(stored?.items[0]?.expired).to.equal(true);
    expect(await storage.blobs.open(stored!.items[0]!.blob!.key)).to.equal(null);
  });
});
