// Batches as documents with embedded items. An item changes by one conditional update on the batch document
// (positional `$` with `$elemMatch` for a single item, arrayFilters for several), which MongoDB applies atomically;
// the batch status follows in a second write guarded by the document version.
import { MongoServerError } from 'mongodb';
import type { Collection, Db, Filter, UpdateFilter } from 'mongodb';
import { admissionRejection, DEFAULT_IDEMPOTENCY_WINDOW_MS, isWithinIdempotencyWindow } from '../admission.ts';
import { BatchIdGenerator } from '../ids.ts';
import { ACTIVE_ITEM_STATUSES, countItems, nextBatchState } from '../status.ts';
import type {
  Batch, BatchPage, BatchRepository, ClaimedItem, CreateBatchOptions, CreateBatchResult, ExpiredBlob, ItemPatch,
  ItemRef, ItemsChange, ItemStatus, NewBatch, TransitionGuard,
} from '../types.ts';
import { documentToBatch, newBatchDocument } from './documents.ts';
import type { BatchDocument } from './documents.ts';

export const BATCHES_COLLECTION = 'batches';
const DUPLICATE_KEY = 11000;
const DEFAULT_REQUEUE_LIMIT = 100;

export async function ensureBatchIndexes(db: Db): Promise<void> {
  const batches = db.collection<BatchDocument>(BATCHES_COLLECTION);
  await batches.createIndex({ owner: 1, idempotencyKey: 1 }, { unique: true, partialFilterExpression: { idempotencyKey: { $type: 'string' } } });
  await batches.createIndex({ owner: 1, _id: -1 });
  await batches.createIndex({ owner: 1, createdAt: 1 });
  await batches.createIndex({ owner: 1, 'items.status': 1 });
  await batches.createIndex({ 'items.status': 1, 'items.updatedAt': 1 });
  await batches.createIndex({ 'items.expiresAt': 1 });
}

/** `$set`/`$unset` for one item addressed by `prefix` (`items.$` or `items.$[name]`). */
function itemPatchUpdate(prefix: string, patch: ItemPatch, now: Date): UpdateFilter<BatchDocument> {
  const set: Record<string, unknown> = { [`${prefix}.status`]: patch.status, [`${prefix}.updatedAt`]: now };
  const unset: Record<string, ''> = {};
  if (patch.error) set[`${prefix}.error`] = { code: patch.error.code, message: patch.error.message };
  if (patch.error === null) unset[`${prefix}.error`] = '';
  if (patch.blob) set[`${prefix}.blob`] = { ...patch.blob };
  if (patch.expiresAt) set[`${prefix}.expiresAt`] = patch.expiresAt;
  return { $set: set, ...(Object.keys(unset).length > 0 ? { $unset: unset } : {}), $inc: { version: 1 } };
}

export class MongoBatchRepository implements BatchRepository {
  readonly #batches: Collection<BatchDocument>;
  readonly #clock: () => Date;
  readonly #ids = new BatchIdGenerator();

  constructor(db: Db, clock: () => Date) {
    this.#batches = db.collection<BatchDocument>(BATCHES_COLLECTION);
    this.#clock = clock;
  }

  /**
   * The unique (owner, idempotencyKey) index settles racing replays. The limit checks read then insert: without
   * multi-document transactions an overshoot needs two simultaneous submits by the same owner.
   */
  async createBatch(input: NewBatch, options: CreateBatchOptions = {}): Promise<CreateBatchResult> {
    const now = this.#clock();
    if (input.idempotencyKey !== undefined) {
      const existing = await this.#claimIdempotencyKey(input.owner, input.idempotencyKey, now, options.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS);
      if (existing) return { outcome: 'existing', batch: existing };
    }
    const limits = options.limits;
    const rejection = admissionRejection(limits, input, {
      activeItems: limits?.maxActiveItems === undefined ? 0 : await this.countActiveItems(input.owner),
      admittedSince: limits?.budget ? await this.countItemsAdmittedSince(input.owner, limits.budget.since) : 0,
    });
    if (rejection) return rejection;
    const doc = newBatchDocument(this.#ids.next(now), input, now);
    try {
      await this.#batches.insertOne(doc);
    } catch (error) {
      const winner = error instanceof MongoServerError && error.code === DUPLICATE_KEY && input.idempotencyKey !== undefined
        ? await this.#batches.findOne({ owner: input.owner, idempotencyKey: input.idempotencyKey })
        : null;
      if (winner) return { outcome: 'existing', batch: documentToBatch(winner) };
      throw error;
    }
    return { outcome: 'created', batch: documentToBatch(doc) };
  }

  async findById(batchId: string): Promise<Batch | null> {
    const doc = await this.#batches.findOne({ _id: batchId });
    return doc ? documentToBatch(doc) : null;
  }

  async findForOwner(owner: string, batchId: string): Promise<Batch | null> {
    const doc = await this.#batches.findOne({ _id: batchId, owner });
    return doc ? documentToBatch(doc) : null;
  }

  async listForOwner(owner: string, page: { limit: number; after?: string }): Promise<BatchPage> {
    const filter: Filter<BatchDocument> = page.after === undefined ? { owner } : { owner, _id: { $lt: page.after } };
    const docs = await this.#batches.find(filter).sort({ _id: -1 }).limit(page.limit + 1).toArray();
    return { batches: docs.slice(0, page.limit).map(documentToBatch), hasMore: docs.length > page.limit };
  }

  async claimItem(batchId: string, index: number, leaseMs: number): Promise<ClaimedItem | null> {
    const now = this.#clock();
    const claimable = { index, $or: [{ status: 'queued' }, { status: 'running', updatedAt: { $lt: new Date(now.getTime() - leaseMs) } }] };
    const doc = await this.#batches.findOneAndUpdate(
      { _id: batchId, items: { $elemMatch: claimable } },
      { $set: { 'items.$.status': 'running', 'items.$.updatedAt': now }, $inc: { 'items.$.attempts': 1, version: 1 } },
      { returnDocument: 'after' },
    );
    if (!doc) return null;
    await this.#refreshStatus(doc);
    const item = documentToBatch(doc).items.find((candidate) => candidate.index === index);
    return item ? { batchId, owner: doc.owner, model: doc.model, item } : null;
  }

  async transitionItem(batchId: string, index: number, from: readonly ItemStatus[], patch: ItemPatch, guard: TransitionGuard = {}): Promise<boolean> {
    if (from.length === 0) return false;
    const now = this.#clock();
    const expected = { index, status: { $in: [...from] }, ...(guard.attempts !== undefined ? { attempts: guard.attempts } : {}) };
    const doc = await this.#batches.findOneAndUpdate({ _id: batchId, items: { $elemMatch: expected } }, itemPatchUpdate('items.$', patch, now), { returnDocument: 'after' });
    if (!doc) return false;
    await this.#refreshStatus(doc);
    return true;
  }

  async retryFailed(owner: string, batchId: string): Promise<ItemsChange | null> {
    const now = this.#clock();
    const before = await this.#batches.findOneAndUpdate(
      { _id: batchId, owner },
      {
        $set: { 'items.$[failed].status': 'queued', 'items.$[failed].attempts': 0, 'items.$[failed].updatedAt': now },
        $unset: { 'items.$[failed].error': '' },
        $inc: { version: 1 },
      },
      { arrayFilters: [{ 'failed.status': 'failed' }], returnDocument: 'before' },
    );
    if (!before) return null;
    return { batch: await this.#refreshById(batchId), indexes: indexesWithStatus(before, 'failed') };
  }

  async cancel(owner: string, batchId: string): Promise<ItemsChange | null> {
    const now = this.#clock();
    // Only while something is still queued or running: cancelling a finished batch changes nothing.
    const before = await this.#batches.findOneAndUpdate(
      { _id: batchId, owner, items: { $elemMatch: { status: { $in: [...ACTIVE_ITEM_STATUSES] } } } },
      { $set: { 'items.$[queued].status': 'cancelled', 'items.$[queued].updatedAt': now }, $min: { cancelledAt: now }, $inc: { version: 1 } },
      { arrayFilters: [{ 'queued.status': 'queued' }], returnDocument: 'before' },
    );
    if (before) return { batch: await this.#refreshById(batchId), indexes: indexesWithStatus(before, 'queued') };
    const batch = await this.findForOwner(owner, batchId);
    return batch ? { batch, indexes: [] } : null;
  }

  async countActiveItems(owner: string): Promise<number> {
    const active = { $in: [...ACTIVE_ITEM_STATUSES] };
    const [result] = await this.#batches
      .aggregate<{ n: number }>([{ $match: { owner, 'items.status': active } }, { $unwind: '$items' }, { $match: { 'items.status': active } }, { $count: 'n' }])
      .toArray();
    return result?.n ?? 0;
  }

  async countItemsAdmittedSince(owner: string, since: Date): Promise<number> {
    const [result] = await this.#batches
      .aggregate<{ n: number }>([{ $match: { owner, createdAt: { $gte: since } } }, { $group: { _id: null, n: { $sum: '$itemCount' } } }])
      .toArray();
    return result?.n ?? 0;
  }

  async listExpiredBlobs(limit: number): Promise<ExpiredBlob[]> {
    const due = { expired: { $ne: true }, blob: { $exists: true }, expiresAt: { $lte: this.#clock() } };
    const rows = await this.#batches
      .aggregate<{ batchId: string; index: number; blobKey: string }>([
        { $match: { items: { $elemMatch: due } } },
        { $unwind: '$items' },
        { $match: { 'items.expired': due.expired, 'items.blob': due.blob, 'items.expiresAt': due.expiresAt } },
        { $sort: { 'items.expiresAt': 1 } },
        { $limit: limit },
        { $project: { _id: 0, batchId: '$_id', index: '$items.index', blobKey: '$items.blob.key' } },
      ])
      .toArray();
    return rows.map((row) => ({ batchId: row.batchId, index: row.index, blobKey: row.blobKey }));
  }

  async markExpired(batchId: string, index: number): Promise<boolean> {
    const result = await this.#batches.updateOne(
      { _id: batchId, items: { $elemMatch: { index, expired: { $ne: true } } } },
      { $set: { 'items.$.expired': true, 'items.$.updatedAt': this.#clock() }, $inc: { version: 1 } },
    );
    return result.modifiedCount > 0;
  }

  async requeueStaleRunning(leaseMs: number, limit = DEFAULT_REQUEUE_LIMIT): Promise<ItemRef[]> {
    const now = this.#clock();
    const stale = { status: 'running' as const, updatedAt: { $lt: new Date(now.getTime() - leaseMs) } };
    const candidates = await this.#batches.find({ items: { $elemMatch: stale } }, { projection: { _id: 1 } }).limit(limit).toArray();
    const refs: ItemRef[] = [];
    for (const { _id: batchId } of candidates) {
      const before = await this.#batches.findOneAndUpdate(
        { _id: batchId, items: { $elemMatch: stale } },
        { $set: { 'items.$[stale].status': 'queued', 'items.$[stale].updatedAt': now }, $inc: { version: 1 } },
        { arrayFilters: [{ 'stale.status': 'running', 'stale.updatedAt': stale.updatedAt }], returnDocument: 'before' },
      );
      if (!before) continue;
      const cutoff = stale.updatedAt.$lt.getTime();
      for (const item of before.items) if (item.status === 'running' && item.updatedAt.getTime() < cutoff) refs.push({ batchId, index: item.index });
      await this.#refreshById(batchId);
    }
    return refs.slice(0, limit);
  }

  async #claimIdempotencyKey(owner: string, key: string, now: Date, windowMs: number): Promise<Batch | null> {
    const existing = await this.#batches.findOne({ owner, idempotencyKey: key });
    if (!existing) return null;
    if (isWithinIdempotencyWindow(existing.createdAt, now, windowMs)) return documentToBatch(existing);
    await this.#batches.updateOne({ _id: existing._id, idempotencyKey: key }, { $unset: { idempotencyKey: '' } });
    return null;
  }

  async #refreshById(batchId: string): Promise<Batch> {
    const doc = await this.#batches.findOne({ _id: batchId });
    if (!doc) throw new Error(`batch ${batchId} disappeared`);
    await this.#refreshStatus(doc);
    return documentToBatch(doc);
  }

  /** Stores the derived status; skipped when a newer item change exists, whose own refresh then wins. */
  async #refreshStatus(doc: BatchDocument): Promise<void> {
    const next = nextBatchState(countItems(doc.items), doc.cancelledAt !== undefined, doc.completedAt, this.#clock());
    if (next.status === doc.status && next.completedAt?.getTime() === doc.completedAt?.getTime()) return;
    const update: UpdateFilter<BatchDocument> = next.completedAt
      ? { $set: { status: next.status, completedAt: next.completedAt } }
      : { $set: { status: next.status }, $unset: { completedAt: '' } };
    await this.#batches.updateOne({ _id: doc._id, version: doc.version }, update);
  }
}

function indexesWithStatus(doc: BatchDocument, status: ItemStatus): number[] {
  return doc.items.filter((item) => item.status === status).map((item) => item.index).sort((a, b) => a - b);
}
