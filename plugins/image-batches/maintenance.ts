// Background upkeep, run as recurring Agenda jobs (one run per interval across all instances) and once at
// start-up: items whose worker died go back to work, images past their retention are deleted, and queued
// items that never got a lane (a crash between creating the batch and scheduling it) get one.
import type { Logger } from 'winston';
import { isTerminalBatchStatus } from '../../src/index.ts';
import type { Batch, BatchRepository, BlobStore } from '../../src/index.ts';

export interface LaneScheduler {
  /** Schedules lanes (due now) over these items of the batch. */
  scheduleLanes(batchId: string, indexes: readonly number[]): Promise<void>;
  /** Item indexes the batch's existing lane jobs still cover. */
  coveredIndexes(batchId: string): Promise<Set<number>>;
}

/** Keeps a long upkeep run's job lock alive between pages. */
export type Heartbeat = () => Promise<void>;

const noop: Heartbeat = async () => undefined;
const PAGE = 100;
const MAX_ROUNDS = 20;
const RECONCILE_WINDOW_MS = 24 * 60 * 60 * 1000;

function groupByBatch(refs: ReadonlyArray<{ batchId: string; index: number }>): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const ref of refs) groups.set(ref.batchId, [...(groups.get(ref.batchId) ?? []), ref.index]);
  return groups;
}

/** Running items whose lease ran out (no heartbeat for leaseMs) → queued, with new lanes. */
export async function recoverStale(batches: BatchRepository, scheduler: LaneScheduler, leaseMs: number, logger: Logger, heartbeat: Heartbeat = noop): Promise<number> {
  let total = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const refs = await batches.requeueStaleRunning(leaseMs, PAGE);
    for (const [batchId, indexes] of groupByBatch(refs)) await scheduler.scheduleLanes(batchId, indexes);
    total += refs.length;
    if (refs.length < PAGE) break;
    await heartbeat();
  }
  if (total > 0) logger.info(`re-queued ${total} image(s) whose worker stopped responding`);
  return total;
}

/** Deletes images past their retention and marks their items expired (content then answers 410). */
export async function expireImages(batches: BatchRepository, blobs: BlobStore, logger: Logger, heartbeat: Heartbeat = noop): Promise<number> {
  let total = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const expired = await batches.listExpiredBlobs(PAGE);
    for (const blob of expired) {
      await blobs.delete(blob.blobKey);
      await batches.markExpired(blob.batchId, blob.index);
    }
    total += expired.length;
    if (expired.length < PAGE) break;
    await heartbeat();
  }
  if (total > 0) logger.info(`deleted ${total} expired image(s)`);
  return total;
}

/** Gives lanes to the batch's queued items that no lane covers; returns how many there were. */
export async function laneOrphans(scheduler: LaneScheduler, batch: Batch): Promise<number> {
  if (isTerminalBatchStatus(batch.status)) return 0;
  const covered = await scheduler.coveredIndexes(batch.id);
  const orphans = batch.items.filter((item) => item.status === 'queued' && !covered.has(item.index)).map((item) => item.index);
  if (orphans.length > 0) await scheduler.scheduleLanes(batch.id, orphans);
  return orphans.length;
}

/**
 * Start-up only: queued items of recent unfinished batches that no lane covers get lanes. Walks each key's
 * batches newest first and stops at the first one older than 24 h.
 */
export async function reconcileOrphans(batches: BatchRepository, scheduler: LaneScheduler, owners: readonly string[], logger: Logger): Promise<number> {
  const since = Date.now() - RECONCILE_WINDOW_MS;
  let total = 0;
  for (const owner of owners) {
    let after: string | undefined;
    for (;;) {
      const page = await batches.listForOwner(owner, { limit: PAGE, ...(after ? { after } : {}) });
      for (const batch of page.batches) total += await laneOrphans(scheduler, batch);
      const last = page.batches.at(-1);
      if (!page.hasMore || !last || last.createdAt.getTime() < since) break;
      after = last.id;
    }
  }
  if (total > 0) logger.info(`scheduled ${total} queued image(s) that had no job`);
  return total;
}
