// Contract: item transitions (claim, compare-and-set, retry, cancel), derived batch status, expiry, lease recovery.
import { expect } from 'chai';
import type { ItemStatus, Storage } from '../../../src/storage/types.ts';
import type { ContractContext } from './helpers.ts';
import { createdBatch, newBatch } from './helpers.ts';

const LEASE = 60_000;
const IMAGE = { key: 'img/0', mimeType: 'image/png', bytes: 3, etag: '"abc"' };
const FAILURE = { code: 'upstream_error', message: 'upstream answered 500' };

async function finish(storage: Storage, batchId: string, index: number, outcome: 'succeeded' | 'failed'): Promise<void> {
  expect(await storage.batches.claimItem(batchId, index, LEASE)).to.not.equal(null);
  const patch = outcome === 'succeeded' ? { status: outcome, blob: { ...IMAGE, key: `img/${index}` } } : { status: outcome, error: FAILURE };
  expect(await storage.batches.transitionItem(batchId, index, ['running'], patch)).to.equal(true);
}

export function transitionContract(context: () => ContractContext): void {
  it('claims a queued item once, increments attempts and returns what the worker needs', async () => {
    const storage = await context().storage();
    const batch = await createdBatch(storage, newBatch('alice', 2));
    const claimed = await storage.batches.claimItem(batch.id, 1, LEASE);
    expect(claimed).to.deep.include({ batchId: batch.id, owner: 'alice', model: 'image-model' });
    expect(claimed?.item).to.include({ index: 1, status: 'running', attempts: 1, prompt: 'prompt 1', size: '1024x1024' });
    expect(await storage.batches.claimItem(batch.id, 1, LEASE)).to.equal(null);
    expect(await storage.batches.claimItem(batch.id, 9, LEASE)).to.equal(null);
    expect((await storage.batches.findById(batch.id))?.status).to.equal('running');
  });

  it('lets exactly one of two connections claim each item when they race', async () => {
    const [a, b] = [await context().storage(), await context().storage()];
    const batch = await createdBatch(a, newBatch('alice', 20));
    const indexes = batch.items.map((item) => item.index);
    const results = await Promise.all(indexes.flatMap((index) => [a.batches.claimItem(batch.id, index, LEASE), b.batches.claimItem(batch.id, index, LEASE)]));
    for (const index of indexes) {
      const pair = results.slice(index * 2, index * 2 + 2);
      expect(pair.filter((claim) => claim !== null), `item ${index}`).to.have.length(1);
    }
    const cas = await Promise.all([
      a.batches.transitionItem(batch.id, 0, ['running'], { status: 'succeeded', blob: IMAGE }),
      b.batches.transitionItem(batch.id, 0, ['running'], { status: 'failed', error: FAILURE }),
    ]);
    expect(cas.filter(Boolean)).to.have.length(1);
  });

  it('applies a transition only from the expected statuses and with the expected attempt', async () => {
    const storage = await context().storage();
    const batch = await createdBatch(storage, newBatch('alice', 1));
    expect(await storage.batches.transitionItem(batch.id, 0, ['running'], { status: 'succeeded' })).to.equal(false);
    expect(await storage.batches.transitionItem(batch.id, 0, [], { status: 'running' })).to.equal(false);
    await storage.batches.claimItem(batch.id, 0, LEASE);
    expect(await storage.batches.transitionItem(batch.id, 0, ['running'], { status: 'succeeded' }, { attempts: 2 })).to.equal(false);
    const expiresAt = new Date(context().clock.now().getTime() + LEASE);
    context().clock.advance(5);
    expect(await storage.batches.transitionItem(batch.id, 0, ['queued', 'running'], { status: 'succeeded', blob: IMAGE, expiresAt }, { attempts: 1 })).to.equal(true);
    const item = (await storage.batches.findById(batch.id))?.items[0];
    expect(item).to.deep.include({ status: 'succeeded', blob: IMAGE, expiresAt, attempts: 1, updatedAt: context().clock.now() });
    expect(item?.error).to.equal(undefined);
  });

  it('records and clears an item error', async () => {
    const storage = await context().storage();
    const batch = await createdBatch(storage, newBatch('alice', 1));
    await storage.batches.claimItem(batch.id, 0, LEASE);
    await storage.batches.transitionItem(batch.id, 0, ['running'], { status: 'queued', error: { code: 'upstream_timeout', message: 'slow' } });
    expect((await storage.batches.findById(batch.id))?.items[0]?.error).to.deep.equal({ code: 'upstream_timeout', message: 'slow' });
    await storage.batches.claimItem(batch.id, 0, LEASE);
    await storage.batches.transitionItem(batch.id, 0, ['running'], { status: 'succeeded', error: null });
    const item = (await storage.batches.findById(batch.id))?.items[0];
    expect(item?.error).to.equal(undefined);
    expect(item?.attempts).to.equal(2);
  });

  it('re-queues only failed items on retry and reopens the batch', async () => {
    const storage = await context().storage();
    const batch = await createdBatch(storage, newBatch('alice', 4));
    await finish(storage, batch.id, 0, 'succeeded');
    await finish(storage, batch.id, 1, 'failed');
    await finish(storage, batch.id, 2, 'failed');
    await finish(storage, batch.id, 3, 'succeeded');
    const done = await storage.batches.findById(batch.id);
    expect(done?.status).to.equal('partial_failed');
    expect(done?.completedAt).to.be.instanceOf(Date);
    expect(await storage.batches.retryFailed('bob', batch.id)).to.equal(null);
    const retried = await storage.batches.retryFailed('alice', batch.id);
    expect(retried?.indexes).to.deep.equal([1, 2]);
    expect(retried?.batch.status).to.equal('running');
    expect(retried?.batch.completedAt).to.equal(undefined);
    expect(retried?.batch.items.map((item) => [item.status, item.attempts, item.error, item.blob?.key])).to.deep.equal([
      ['succeeded', 1, undefined, 'img/0'],
      ['queued', 0, undefined, undefined],
      ['queued', 0, undefined, undefined],
      ['succeeded', 1, undefined, 'img/3'],
    ]);
    expect((await storage.batches.retryFailed('alice', batch.id))?.indexes).to.deep.equal([]);
  });

  it('cancels queued items, lets running items finish and then ends the batch cancelled', async () => {
    const storage = await context().storage();
    const batch = await createdBatch(storage, newBatch('alice', 3));
    await storage.batches.claimItem(batch.id, 0, LEASE);
    expect(await storage.batches.cancel('bob', batch.id)).to.equal(null);
    const cancelled = await storage.batches.cancel('alice', batch.id);
    expect(cancelled?.indexes).to.deep.equal([1, 2]);
    expect(cancelled?.batch.status).to.equal('running');
    expect(cancelled?.batch.cancelledAt?.getTime()).to.equal(context().clock.now().getTime());
    expect(cancelled?.batch.items.map((item) => item.status)).to.deep.equal(['running', 'cancelled', 'cancelled']);
    expect(await storage.batches.claimItem(batch.id, 1, LEASE)).to.equal(null);
    await storage.batches.transitionItem(batch.id, 0, ['running'], { status: 'succeeded', blob: IMAGE });
    const ended = await storage.batches.findById(batch.id);
    expect(ended?.status).to.equal('cancelled');
    expect(ended?.completedAt).to.be.instanceOf(Date);
  });

  it('leaves a finished batch alone when asked to cancel it', async () => {
    const storage = await context().storage();
    const batch = await createdBatch(storage, newBatch('alice', 1));
    await finish(storage, batch.id, 0, 'succeeded');
    const result = await storage.batches.cancel('alice', batch.id);
    expect(result?.indexes).to.deep.equal([]);
    expect(result?.batch.status).to.equal('completed');
    expect(result?.batch.cancelledAt).to.equal(undefined);
  });
}

type Outcome = ItemStatus | 'cancel';

const STATUS_TABLE: Array<{ outcomes: Outcome[]; status: string; terminal: boolean }> = [
  { outcomes: ['queued', 'queued'], status: 'queued', terminal: false },
  { outcomes: ['running', 'queued'], status: 'running', terminal: false },
  { outcomes: ['succeeded', 'queued'], status: 'running', terminal: false },
  { outcomes: ['succeeded', 'succeeded'], status: 'completed', terminal: true },
  { outcomes: ['succeeded', 'failed'], status: 'partial_failed', terminal: true },
  { outcomes: ['failed', 'failed'], status: 'failed', terminal: true },
  { outcomes: ['failed', 'running'], status: 'running', terminal: false },
  { outcomes: ['succeeded', 'cancel'], status: 'cancelled', terminal: true },
  { outcomes: ['failed', 'cancel'], status: 'cancelled', terminal: true },
  { outcomes: ['running', 'cancel'], status: 'running', terminal: false },
];

export function statusDerivationContract(context: () => ContractContext): void {
  for (const row of STATUS_TABLE) {
    it(`derives ${row.status} from items [${row.outcomes.join(', ')}]`, async () => {
      const storage = await context().storage();
      const batch = await createdBatch(storage, newBatch('alice', row.outcomes.length));
      for (const [index, outcome] of row.outcomes.entries()) {
        if (outcome === 'running') await storage.batches.claimItem(batch.id, index, LEASE);
        if (outcome === 'succeeded' || outcome === 'failed') await finish(storage, batch.id, index, outcome);
      }
      if (row.outcomes.includes('cancel')) await storage.batches.cancel('alice', batch.id);
      const after = await storage.batches.findById(batch.id);
      expect(after?.status).to.equal(row.status);
      expect(after?.completedAt !== undefined).to.equal(row.terminal);
    });
  }
}

export function retentionAndRecoveryContract(context: () => ContractContext): void {
  it('lists images past their expiry and stops listing them once marked expired', async () => {
    const storage = await context().storage();
    const { clock } = context();
    const batch = await createdBatch(storage, newBatch('alice', 3));
    for (const index of [0, 1, 2]) {
      await storage.batches.claimItem(batch.id, index, LEASE);
      const expiresAt = new Date(clock.now().getTime() + (index + 1) * 1000);
      await storage.batches.transitionItem(batch.id, index, ['running'], { status: 'succeeded', blob: { ...IMAGE, key: `k/${index}` }, expiresAt });
    }
    expect(await storage.batches.listExpiredBlobs(10)).to.deep.equal([]);
    clock.advance(2000);
    expect(await storage.batches.listExpiredBlobs(10)).to.deep.equal([
      { batchId: batch.id, index: 0, blobKey: 'k/0' },
      { batchId: batch.id, index: 1, blobKey: 'k/1' },
    ]);
    expect(await storage.batches.listExpiredBlobs(1)).to.have.length(1);
    expect(await storage.batches.markExpired(batch.id, 0)).to.equal(true);
    expect(await storage.batches.markExpired(batch.id, 0)).to.equal(false);
    expect((await storage.batches.listExpiredBlobs(10)).map((blob) => blob.index)).to.deep.equal([1]);
    const item = (await storage.batches.findById(batch.id))?.items[0];
    expect(item).to.deep.include({ status: 'succeeded', expired: true, blob: { ...IMAGE, key: 'k/0' } });
    expect((await storage.batches.findById(batch.id))?.status).to.equal('completed');
  });

  it('puts running items whose lease passed back to queued', async () => {
    const storage = await context().storage();
    const { clock } = context();
    const batch = await createdBatch(storage, newBatch('alice', 2));
    await storage.batches.claimItem(batch.id, 0, LEASE);
    clock.advance(LEASE / 2);
    await storage.batches.claimItem(batch.id, 1, LEASE);
    clock.advance(LEASE / 2);
    expect(await storage.batches.requeueStaleRunning(LEASE)).to.deep.equal([]);
    clock.advance(1);
    expect(await storage.batches.requeueStaleRunning(LEASE)).to.deep.equal([{ batchId: batch.id, index: 0 }]);
    const after = await storage.batches.findById(batch.id);
    expect(after?.items.map((item) => [item.status, item.attempts])).to.deep.equal([['queued', 1], ['running', 1]]);
    expect(after?.status).to.equal('running');
  });

  it('renews the lease when a worker reports a running item as still running', async () => {
    const storage = await context().storage();
    const batch = await createdBatch(storage, newBatch('alice', 1));
    const claim = await storage.batches.claimItem(batch.id, 0, LEASE);
    context().clock.advance(LEASE - 1);
    expect(await storage.batches.transitionItem(batch.id, 0, ['running'], { status: 'running' }, { attempts: claim?.item.attempts ?? 0 })).to.equal(true);
    context().clock.advance(LEASE - 1);
    expect(await storage.batches.requeueStaleRunning(LEASE)).to.deep.equal([]);
    expect(await storage.batches.claimItem(batch.id, 0, LEASE)).to.equal(null);
  });

  it('lets a new claim take over a running item only after its lease passed', async () => {
    const storage = await context().storage();
    const batch = await createdBatch(storage, newBatch('alice', 1));
    const first = await storage.batches.claimItem(batch.id, 0, LEASE);
    context().clock.advance(LEASE);
    expect(await storage.batches.claimItem(batch.id, 0, LEASE)).to.equal(null);
    context().clock.advance(1);
    const takeover = await storage.batches.claimItem(batch.id, 0, LEASE);
    expect(takeover?.item.attempts).to.equal(2);
    // The first worker's late result is fenced off by its attempt number.
    const late = await storage.batches.transitionItem(batch.id, 0, ['running'], { status: 'succeeded', blob: IMAGE }, { attempts: first?.item.attempts ?? 0 });
    expect(late).to.equal(false);
  });
}
