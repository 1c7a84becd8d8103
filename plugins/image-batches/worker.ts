// The lane job handler. For each item of its lane: claim it (queued → running, attempts + 1, the fencing
// token), keep the claim alive with a heartbeat, generate, then settle it — the image is stored before the
// item is marked succeeded, and every write is guarded by the attempts value of this claim, so a worker
// that lost its lease (its item was taken over) cannot overwrite the winner. Transient failures put the
// item back to queued with a backoff the lane honours; at shutdown the current item is handed back.
import type { Job } from 'agenda';
import type { Logger } from 'winston';
import type { BatchRepository, BlobStore, ClaimedItem } from '../../src/index.ts';
import { backoffDelay } from './backoff.ts';
import { blobKey } from './files.ts';
import type { Attempt, Generator } from './generate.ts';
import { LaneQueue } from './lanes.ts';
import type { LaneData } from './lanes.ts';
import type { Settings } from './settings.ts';
import { Interrupted } from './upstream/types.ts';

export interface WorkerDeps {
  batches: BatchRepository;
  blobs: BlobStore;
  generator: Generator;
  settings: Settings;
  logger: Logger;
  /** Aborted when this instance stops taking new items (shutdown). */
  stopping: AbortSignal;
  /** Aborted when in-flight generations must be abandoned (shutdown deadline passed). */
  interrupt: AbortSignal;
}

/** What happened to one item: finished (any final state), to be retried after a delay, or handed back. */
type ItemResult = { kind: 'done' } | { kind: 'retry'; delayMs: number } | { kind: 'interrupted' };

const DONE: ItemResult = { kind: 'done' };

/** Renews the item lease and the Agenda lock; aborts `lost` if the item was taken over meanwhile. */
function startHeartbeat(deps: WorkerDeps, job: Job<LaneData>, claimed: ClaimedItem, lost: AbortController): () => void {
  const { batchId, item } = claimed;
  const timer = setInterval(() => {
    void (async () => {
      const alive = await deps.batches.transitionItem(batchId, item.index, ['running'], { status: 'running' }, { attempts: item.attempts });
      if (!alive) {
        lost.abort(new Interrupted());
        return;
      }
      await job.touch();
    })().catch((error: unknown) => deps.logger.warn(`heartbeat of ${batchId}#${item.index} failed: ${String(error)}`));
  }, Math.max(100, Math.floor(deps.settings.lockLifetimeMs / 3)));
  return () => clearInterval(timer);
}

async function settle(deps: WorkerDeps, claimed: ClaimedItem, attempt: Attempt): Promise<ItemResult> {
  const { batchId, item } = claimed;
  const guard = { attempts: item.attempts };
  if (attempt.ok) {
    const key = blobKey(batchId, item.index, item.attempts, attempt.image.mimeType);
    const blob = await deps.blobs.put(key, attempt.image.bytes, attempt.image.mimeType);
    const expiresAt = new Date(Date.now() + deps.settings.retentionMs);
    const stored = await deps.batches.transitionItem(batchId, item.index, ['running'], { status: 'succeeded', blob, expiresAt, error: null }, guard);
    if (!stored) await deps.blobs.delete(key);
    deps.logger.debug(stored ? 'image generated' : 'image discarded: the item was taken over', { batchId, index: item.index, provider: attempt.provider, attempts: item.attempts });
    return DONE;
  }
  const { failure } = attempt;
  if (failure.kind === 'transient' && item.attempts < deps.settings.maxAttempts) {
    const requeued = await deps.batches.transitionItem(batchId, item.index, ['running'], { status: 'queued', error: null }, guard);
    const delayMs = backoffDelay(item.attempts, deps.settings.backoff, failure.retryAfterMs);
    deps.logger.debug('image attempt failed, will retry', { batchId, index: item.index, attempts: item.attempts, delayMs, reason: failure.message });
    return requeued ? { kind: 'retry', delayMs } : DONE;
  }
  const message = failure.kind === 'transient' ? `gave up after ${item.attempts} attempts: ${failure.message}` : failure.message;
  await deps.batches.transitionItem(batchId, item.index, ['running'], { status: 'failed', error: { code: failure.code, message } }, guard);
  deps.logger.debug('image failed', { batchId, index: item.index, code: failure.code, attempts: item.attempts });
  return DONE;
}

/**
 * The image (or the outcome) could not be written. Regenerating costs an upstream call, so this too is bounded
 * by maxAttempts: back to queued with a backoff, or failed with `internal_error` once the attempts are used up.
 */
async function storeFailed(deps: WorkerDeps, claimed: ClaimedItem, error: unknown): Promise<ItemResult> {
  const { batchId, item } = claimed;
  const guard = { attempts: item.attempts };
  deps.logger.error(`could not store the result of ${batchId}#${item.index}: ${String(error)}`);
  if (item.attempts < deps.settings.maxAttempts) {
    const requeued = await deps.batches.transitionItem(batchId, item.index, ['running'], { status: 'queued', error: null }, guard);
    return requeued ? { kind: 'retry', delayMs: backoffDelay(item.attempts, deps.settings.backoff) } : DONE;
  }
  const message = `the gateway could not store the generated image after ${item.attempts} attempts`;
  await deps.batches.transitionItem(batchId, item.index, ['running'], { status: 'failed', error: { code: 'internal_error', message } }, guard);
  return DONE;
}

async function runItem(deps: WorkerDeps, job: Job<LaneData>, batchId: string, index: number): Promise<ItemResult> {
  const claimed = await deps.batches.claimItem(batchId, index, deps.settings.lockLifetimeMs);
  if (!claimed) return DONE;
  // The claim is newer than the job's lock: renew the lock now so the lock never expires before the lease.
  try {
    await job.touch();
  } catch (error) {
    await deps.batches.transitionItem(batchId, index, ['running'], { status: 'queued' }, { attempts: claimed.item.attempts });
    throw error;
  }
  const lost = new AbortController();
  const stopHeartbeat = startHeartbeat(deps, job, claimed, lost);
  let attempt: Attempt;
  try {
    attempt = await deps.generator.generate(claimed.model, claimed.item, AbortSignal.any([deps.interrupt, lost.signal]));
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    if (lost.signal.aborted) return DONE;
    await deps.batches.transitionItem(batchId, index, ['running'], { status: 'queued' }, { attempts: claimed.item.attempts });
    return { kind: 'interrupted' };
  } finally {
    stopHeartbeat();
  }
  try {
    return await settle(deps, claimed, attempt);
  } catch (error) {
    return storeFailed(deps, claimed, error);
  }
}

/** Persists what is left of the lane and lets Agenda run it again at `at`. */
async function reschedule(job: Job<LaneData>, lane: LaneQueue, at: number): Promise<void> {
  job.attrs.data = lane.toData();
  job.schedule(new Date(at));
  await job.save();
}

export function createLaneHandler(deps: WorkerDeps): (job: Job<LaneData>) => Promise<void> {
  return async (job) => {
    const lane = new LaneQueue(job.attrs.data);
    for (;;) {
      if (deps.stopping.aborted) return lane.empty ? undefined : reschedule(job, lane, Date.now());
      const now = Date.now();
      const index = lane.next(now);
      if (index === undefined) return lane.empty ? undefined : reschedule(job, lane, lane.earliest() ?? now);
      let result: ItemResult;
      try {
        result = await runItem(deps, job, lane.batchId, index);
      } catch (error) {
        // Storage trouble: leave the item to the lease recovery and try the rest of the lane a little later.
        deps.logger.error(`lane of ${lane.batchId} failed on item ${index}: ${String(error)}`);
        lane.later(index, now + deps.settings.backoff.baseMs);
        return reschedule(job, lane, now + deps.settings.backoff.baseMs);
      }
      if (result.kind === 'interrupted') return reschedule(job, lane, Date.now());
      if (result.kind === 'retry') lane.later(index, Date.now() + result.delayMs);
      else lane.done(index);
    }
  };
}
