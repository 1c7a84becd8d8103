// Contract: creating, reading and listing batches; idempotency; per-owner counters and admission limits.
import { expect } from 'chai';
import type { ContractContext } from './helpers.ts';
import { createdBatch, newBatch } from './helpers.ts';

const HOUR = 60 * 60 * 1000;

export function batchLifecycleContract(context: () => ContractContext): void {
  it('creates a batch with its items and reads it back', async () => {
    const storage = await context().storage();
    const input = newBatch('alice', 3, { metadata: { campaign: 'spring' }, requestHash: 'h1' });
    const batch = await createdBatch(storage, input);
    expect(batch.id).to.match(/^batch_[0-9a-f]{28}$/);
    expect(batch).to.include({ owner: 'alice', model: 'image-model', status: 'queued', requestHash: 'h1' });
    expect(batch.createdAt.getTime()).to.equal(context().clock.now().getTime());
    expect(batch.completedAt).to.equal(undefined);
    expect(batch.metadata).to.deep.equal({ campaign: 'spring' });
    expect(batch.items.map((item) => [item.index, item.customId, item.prompt, item.status, item.attempts])).to.deep.equal([
      [0, 'c0', 'prompt 0', 'queued', 0],
      [1, 'c1', 'prompt 1', 'queued', 0],
      [2, 'c2', 'prompt 2', 'queued', 0],
    ]);
    expect(await storage.batches.findById(batch.id)).to.deep.equal(batch);
    expect(await storage.batches.findForOwner('alice', batch.id)).to.deep.equal(batch);
  });

  it('hides a batch from other owners and unknown ids', async () => {
    const storage = await context().storage();
    const batch = await createdBatch(storage, newBatch('alice', 1));
    expect(await storage.batches.findForOwner('bob', batch.id)).to.equal(null);
    expect(await storage.batches.findForOwner('alice', 'batch_000000000000ffffffffffffffff')).to.equal(null);
    expect(await storage.batches.findById('batch_000000000000ffffffffffffffff')).to.equal(null);
  });

  it('creates items that failed at submit as failed, and a batch of only those as failed', async () => {
    const storage = await context().storage();
    const unsupported = { code: 'unsupported_size', message: 'size 7x7 is not offered by image-model' };
    const mixed = await createdBatch(storage, { owner: 'alice', model: 'm', items: [{ prompt: 'a', size: '7x7', initialError: unsupported }, { prompt: 'b', size: '1x1' }] });
    expect(mixed.items.map((item) => item.status)).to.deep.equal(['failed', 'queued']);
    expect(mixed.items[0]!.error).to.deep.equal(unsupported);
    expect(mixed.status).to.equal('running');
    const allFailed = await createdBatch(storage, { owner: 'alice', model: 'm', items: [{ prompt: 'a', size: '7x7', initialError: unsupported }] });
    expect(allFailed.status).to.equal('failed');
    expect(allFailed.completedAt?.getTime()).to.equal(context().clock.now().getTime());
  });

  it('lists an owner\'s batches newest first with limit and an after cursor', async () => {
    const storage = await context().storage();
    const ids: string[] = [];
    for (let n = 0; n < 5; n += 1) {
      ids.push((await createdBatch(storage, newBatch('alice', 1))).id);
      await createdBatch(storage, newBatch('bob', 1));
      context().clock.advance(1000);
    }
    const newestFirst = [...ids].reverse();
    const first = await storage.batches.listForOwner('alice', { limit: 2 });
    expect(first.batches.map((batch) => batch.id)).to.deep.equal(newestFirst.slice(0, 2));
    expect(first.hasMore).to.equal(true);
    expect(first.batches[0]!.items).to.have.length(1);
    const second = await storage.batches.listForOwner('alice', { limit: 2, after: newestFirst[1]! });
    expect(second.batches.map((batch) => batch.id)).to.deep.equal(newestFirst.slice(2, 4));
    const last = await storage.batches.listForOwner('alice', { limit: 2, after: newestFirst[3]! });
    expect(last.batches.map((batch) => batch.id)).to.deep.equal(newestFirst.slice(4));
    expect(last.hasMore).to.equal(false);
    expect((await storage.batches.listForOwner('carol', { limit: 10 })).batches).to.deep.equal([]);
  });

  it('keeps ids in creation order even when batches are created within the same millisecond', async () => {
    const storage = await context().storage();
    const ids: string[] = [];
    for (let n = 0; n < 10; n += 1) ids.push((await createdBatch(storage, newBatch('alice', 1))).id);
    const listed = await storage.batches.listForOwner('alice', { limit: 20 });
    expect(listed.batches.map((batch) => batch.id)).to.deep.equal([...ids].reverse());
  });
}

export function idempotencyContract(context: () => ContractContext): void {
  it('returns the existing batch for the same owner and key inside the window', async () => {
    const storage = await context().storage();
    const input = newBatch('alice', 2, { idempotencyKey: 'key-1', requestHash: 'hash-a' });
    const first = await storage.batches.createBatch(input);
    context().clock.advance(HOUR);
    const replay = await storage.batches.createBatch({ ...input, requestHash: 'hash-b' });
    expect(first.outcome).to.equal('created');
    expect(replay.outcome).to.equal('existing');
    if (first.outcome !== 'created' || replay.outcome !== 'existing') return;
    expect(replay.batch.id).to.equal(first.batch.id);
    expect(replay.batch.requestHash).to.equal('hash-a');
    const otherOwner = await storage.batches.createBatch({ ...input, owner: 'bob' });
    expect(otherOwner.outcome).to.equal('created');
  });

  it('releases a key after the window and creates a new batch', async () => {
    const storage = await context().storage();
    const input = newBatch('alice', 1, { idempotencyKey: 'key-2' });
    const first = await storage.batches.createBatch(input, { idempotencyWindowMs: HOUR });
    context().clock.advance(HOUR + 1);
    const second = await storage.batches.createBatch(input, { idempotencyWindowMs: HOUR });
    const third = await storage.batches.createBatch(input, { idempotencyWindowMs: HOUR });
    expect([first.outcome, second.outcome, third.outcome]).to.deep.equal(['created', 'created', 'existing']);
    if (first.outcome === 'rejected' || second.outcome === 'rejected' || third.outcome === 'rejected') return;
    expect(second.batch.id).to.not.equal(first.batch.id);
    expect(third.batch.id).to.equal(second.batch.id);
  });

  it('creates exactly one batch when two connections submit the same key at once', async () => {
    const [a, b] = [await context().storage(), await context().storage()];
    const input = newBatch('alice', 3, { idempotencyKey: 'race' });
    const results = await Promise.all([a.batches.createBatch(input), b.batches.createBatch(input), a.batches.createBatch(input)]);
    expect(results.map((result) => result.outcome).sort()).to.deep.equal(['created', 'existing', 'existing']);
    const ids = new Set(results.map((result) => (result.outcome === 'rejected' ? '' : result.batch.id)));
    expect(ids.size).to.equal(1);
    expect((await a.batches.listForOwner('alice', { limit: 10 })).batches).to.have.length(1);
  });
}

export function countersContract(context: () => ContractContext): void {
  it('counts an owner\'s queued and running items and the items admitted since a time', async () => {
    const storage = await context().storage();
    const { clock } = context();
    const dayStart = clock.now();
    const first = await createdBatch(storage, newBatch('alice', 3));
    clock.advance(HOUR);
    await createdBatch(storage, newBatch('alice', 2));
    await createdBatch(storage, newBatch('bob', 4));
    expect(await storage.batches.countActiveItems('alice')).to.equal(5);
    await storage.batches.claimItem(first.id, 0, HOUR);
    await storage.batches.transitionItem(first.id, 1, ['queued'], { status: 'failed', error: { code: 'x', message: 'y' } });
    expect(await storage.batches.countActiveItems('alice')).to.equal(4);
    expect(await storage.batches.countItemsAdmittedSince('alice', dayStart)).to.equal(5);
    expect(await storage.batches.countItemsAdmittedSince('alice', new Date(dayStart.getTime() + 1))).to.equal(2);
    expect(await storage.batches.countItemsAdmittedSince('nobody', dayStart)).to.equal(0);
  });

  it('admits a batch whole or rejects it when it would exceed the active-item limit', async () => {
    const storage = await context().storage();
    await createdBatch(storage, newBatch('alice', 3));
    const limits = { maxActiveItems: 5 };
    const tooMany = await storage.batches.createBatch(newBatch('alice', 3), { limits });
    expect(tooMany).to.deep.equal({ outcome: 'rejected', limit: 'active_items', current: 3, max: 5 });
    expect((await storage.batches.createBatch(newBatch('alice', 2), { limits })).outcome).to.equal('created');
    expect((await storage.batches.createBatch(newBatch('bob', 5), { limits })).outcome).to.equal('created');
    expect(await storage.batches.countActiveItems('alice')).to.equal(5);
  });

  it('rejects a batch that would exceed the budget since the given time', async () => {
    const storage = await context().storage();
    const since = context().clock.now();
    await createdBatch(storage, newBatch('alice', 4));
    const budget = { since, maxItems: 6 };
    expect(await storage.batches.createBatch(newBatch('alice', 3), { limits: { budget } })).to.deep.equal({
      outcome: 'rejected', limit: 'budget', current: 4, max: 6,
    });
    const tomorrow = { since: context().clock.advance(24 * HOUR), maxItems: 6 };
    expect((await storage.batches.createBatch(newBatch('alice', 3), { limits: { budget: tomorrow } })).outcome).to.equal('created');
  });

  it('answers an idempotent replay even when the owner is now over a limit', async () => {
    const storage = await context().storage();
    const input = newBatch('alice', 3, { idempotencyKey: 'k' });
    await storage.batches.createBatch(input);
    const replay = await storage.batches.createBatch(input, { limits: { maxActiveItems: 1 } });
    expect(replay.outcome).to.equal('existing');
  });
}
