// Batch status is derived from item counts, one rule set for every backend.
import type { BatchStatus, ItemStatus } from './types.ts';

export type ItemCounts = Record<ItemStatus, number> & { total: number };

export const ITEM_STATUSES: readonly ItemStatus[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];
export const ACTIVE_ITEM_STATUSES: readonly ItemStatus[] = ['queued', 'running'];
const TERMINAL_BATCH_STATUSES: ReadonlySet<BatchStatus> = new Set(['completed', 'partial_failed', 'failed', 'cancelled']);

export function emptyCounts(): ItemCounts {
  return { total: 0, queued: 0, running: 0, succeeded: 0, failed: 0, cancelled: 0 };
}

export function countItems(items: Iterable<{ status: ItemStatus }>): ItemCounts {
  const counts = emptyCounts();
  for (const item of items) addCount(counts, item.status, 1);
  return counts;
}

export function addCount(counts: ItemCounts, status: ItemStatus, amount: number): void {
  counts[status] += amount;
  counts.total += amount;
}

export function isTerminalBatchStatus(status: BatchStatus): boolean {
  return TERMINAL_BATCH_STATUSES.has(status);
}

/**
 * Not terminal while anything is queued or running ("queued" until the first item starts or finishes).
 * Once nothing is active: a cancel request wins, then all succeeded → completed, all failed → failed,
 * anything mixed → partial_failed.
 */
export function deriveBatchStatus(counts: ItemCounts, cancelRequested: boolean): BatchStatus {
  if (counts.running > 0) return 'running';
  if (counts.queued > 0) return counts.queued === counts.total ? 'queued' : 'running';
  if (cancelRequested) return 'cancelled';
  if (counts.succeeded === counts.total) return 'completed';
  if (counts.failed === counts.total) return 'failed';
  if (counts.succeeded === 0 && counts.failed === 0) return 'cancelled';
  return 'partial_failed';
}

export interface StatusUpdate {
  status: BatchStatus;
  completedAt: Date | undefined;
}

/** The status and completedAt a batch should have now; completedAt is kept once set and cleared on reactivation. */
export function nextBatchState(
  counts: ItemCounts,
  cancelRequested: boolean,
  previousCompletedAt: Date | undefined,
  now: Date,
): StatusUpdate {
  const status = deriveBatchStatus(counts, cancelRequested);
  if (!isTerminalBatchStatus(status)) return { status, completedAt: undefined };
  return { status, completedAt: previousCompletedAt ?? now };
}

const BATCH_STATUSES: ReadonlySet<string> = new Set(['queued', 'running', 'completed', 'partial_failed', 'failed', 'cancelled']);
const ITEM_STATUS_SET: ReadonlySet<string> = new Set(ITEM_STATUSES);

/** Narrows a stored string; an unknown value means the row was written by something else, so fail loudly. */
export function parseBatchStatus(value: string): BatchStatus {
  if (!BATCH_STATUSES.has(value)) throw new TypeError(`unknown batch status ${JSON.stringify(value)}`);
  return value as BatchStatus;
}

export function parseItemStatus(value: string): ItemStatus {
  if (!ITEM_STATUS_SET.has(value)) throw new TypeError(`unknown item status ${JSON.stringify(value)}`);
  return value as ItemStatus;
}
