// Admission rules applied inside createBatch's transaction: idempotency window and per-owner limits.
import type { AdmissionLimits, CreateBatchResult, NewBatch } from './types.ts';

export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface OwnerUsage {
  activeItems: number;
  admittedSince: number;
}

/** Items that will be queued (pre-failed items never run, so they do not hold concurrency). */
export function itemsToQueue(input: NewBatch): number {
  return input.items.filter((item) => !item.initialError).length;
}

export function isWithinIdempotencyWindow(createdAt: Date, now: Date, windowMs: number): boolean {
  return now.getTime() - createdAt.getTime() < windowMs;
}

/** The rejection for a batch that would push the owner past a limit, or null when it fits. */
export function admissionRejection(
  limits: AdmissionLimits | undefined,
  input: NewBatch,
  usage: OwnerUsage,
): Extract<CreateBatchResult, { outcome: 'rejected' }> | null {
  if (limits?.maxActiveItems !== undefined && usage.activeItems + itemsToQueue(input) > limits.maxActiveItems) {
    return { outcome: 'rejected', limit: 'active_items', current: usage.activeItems, max: limits.maxActiveItems };
  }
  if (limits?.budget && usage.admittedSince + input.items.length > limits.budget.maxItems) {
    return { outcome: 'rejected', limit: 'budget', current: usage.admittedSince, max: limits.budget.maxItems };
  }
  return null;
}
