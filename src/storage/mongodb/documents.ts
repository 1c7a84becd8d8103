// The `batches` collection: one document per batch with its items embedded, and the mapping to the model.
import { addCount, emptyCounts, countItems, isTerminalBatchStatus, nextBatchState } from '../status.ts';
import type { Batch, BatchItem, BatchStatus, BlobRef, ItemError, ItemStatus, NewBatch } from '../types.ts';

export interface ItemDocument {
  index: number;
  customId?: string;
  prompt: string;
  size: string;
  status: ItemStatus;
  error?: ItemError;
  attempts: number;
  blob?: BlobRef;
  expiresAt?: Date;
  expired?: boolean;
  updatedAt: Date;
}

export interface BatchDocument {
  _id: string;
  owner: string;
  model: string;
  status: BatchStatus;
  createdAt: Date;
  completedAt?: Date;
  cancelledAt?: Date;
  metadata?: Record<string, string>;
  idempotencyKey?: string;
  requestHash?: string;
  itemCount: number;
  /** Incremented by every item change; guards the follow-up status write against overwriting a newer one. */
  version: number;
  items: ItemDocument[];
}

export function newBatchDocument(id: string, input: NewBatch, now: Date): BatchDocument {
  const items: ItemDocument[] = input.items.map((item, index) => ({
    index,
    ...(item.customId !== undefined ? { customId: item.customId } : {}),
    prompt: item.prompt,
    size: item.size,
    status: item.initialError ? 'failed' : 'queued',
    ...(item.initialError ? { error: item.initialError } : {}),
    attempts: 0,
    updatedAt: now,
  }));
  const counts = emptyCounts();
  for (const item of items) addCount(counts, item.status, 1);
  const state = nextBatchState(counts, false, undefined, now);
  return {
    _id: id,
    owner: input.owner,
    model: input.model,
    status: state.status,
    createdAt: now,
    ...(state.completedAt ? { completedAt: state.completedAt } : {}),
    ...(input.metadata ? { metadata: input.metadata } : {}),
    ...(input.idempotencyKey !== undefined ? { idempotencyKey: input.idempotencyKey } : {}),
    ...(input.requestHash !== undefined ? { requestHash: input.requestHash } : {}),
    itemCount: items.length,
    version: 0,
    items,
  };
}

function documentToItem(item: ItemDocument): BatchItem {
  const result: BatchItem = { index: item.index, prompt: item.prompt, size: item.size, status: item.status, attempts: item.attempts, updatedAt: item.updatedAt };
  if (item.customId !== undefined) result.customId = item.customId;
  if (item.error) result.error = { code: item.error.code, message: item.error.message };
  if (item.blob) result.blob = { key: item.blob.key, mimeType: item.blob.mimeType, bytes: item.blob.bytes, etag: item.blob.etag };
  if (item.expiresAt) result.expiresAt = item.expiresAt;
  if (item.expired) result.expired = true;
  return result;
}

/**
 * The item change and the status write are two operations here, so status is re-derived from the embedded items
 * on every read: a process dying between the two cannot leave a stale status visible.
 */
export function documentToBatch(doc: BatchDocument): Batch {
  const items = [...doc.items].sort((a, b) => a.index - b.index).map(documentToItem);
  const lastChange = new Date(Math.max(doc.createdAt.getTime(), ...items.map((item) => item.updatedAt.getTime())));
  const state = nextBatchState(countItems(items), doc.cancelledAt !== undefined, doc.completedAt ?? lastChange, lastChange);
  const batch: Batch = { id: doc._id, owner: doc.owner, model: doc.model, status: state.status, createdAt: doc.createdAt, items };
  if (state.completedAt && isTerminalBatchStatus(state.status)) batch.completedAt = state.completedAt;
  if (doc.cancelledAt) batch.cancelledAt = doc.cancelledAt;
  if (doc.metadata) batch.metadata = { ...doc.metadata };
  if (doc.idempotencyKey !== undefined) batch.idempotencyKey = doc.idempotencyKey;
  if (doc.requestHash !== undefined) batch.requestHash = doc.requestHash;
  return batch;
}
