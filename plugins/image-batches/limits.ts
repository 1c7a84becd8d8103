// Admission limits (per key, checked atomically by the storage inside createBatch) and the per-provider
// concurrency of upstream calls. The provider limit is a semaphore in this process: with N gateway instances
// a provider sees at most N × perProvider calls.
import { GatewayError } from '../../src/index.ts';
import type { AdmissionLimits, CreateBatchResult } from '../../src/index.ts';
import type { Settings } from './settings.ts';

export const BUDGET_WINDOW_MS = 24 * 60 * 60 * 1000;

/** A counting semaphore whose waiters give up when their signal aborts. */
export class Semaphore {
  readonly #limit: number;
  #held = 0;
  readonly #waiters: Array<() => void> = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  get held(): number {
    return this.#held;
  }

  async acquire(signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    if (this.#held < this.#limit) {
      this.#held += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = (): void => {
        signal.removeEventListener('abort', abandon);
        resolve();
      };
      const abandon = (): void => {
        const at = this.#waiters.indexOf(grant);
        if (at >= 0) this.#waiters.splice(at, 1);
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      this.#waiters.push(grant);
      signal.addEventListener('abort', abandon, { once: true });
    });
  }

  /** Hands the slot straight to the next waiter, if any. */
  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#held = Math.max(0, this.#held - 1);
  }
}

/** One semaphore per provider id, created on first use. */
export class ProviderSlots {
  readonly #perProvider: number;
  readonly #slots = new Map<string, Semaphore>();

  constructor(perProvider: number) {
    this.#perProvider = perProvider;
  }

  async run<T>(providerId: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    let slot = this.#slots.get(providerId);
    if (!slot) {
      slot = new Semaphore(this.#perProvider);
      this.#slots.set(providerId, slot);
    }
    await slot.acquire(signal);
    try {
      return await work();
    } finally {
      slot.release();
    }
  }
}

export function admissionLimits(settings: Settings, now: Date): AdmissionLimits {
  return {
    maxActiveItems: settings.maxActiveItemsPerKey,
    budget: { since: new Date(now.getTime() - BUDGET_WINDOW_MS), maxItems: settings.imagesPerDayPerKey },
  };
}

type Rejection = Extract<CreateBatchResult, { outcome: 'rejected' }>;

/** The 429 for a batch the storage refused; `queued` is how many of its items would have been queued. */
export function rejectionError(rejection: Rejection, owner: string, items: number, queued: number, retryAfterSeconds: number): GatewayError {
  if (rejection.limit === 'active_items') {
    return new GatewayError(
      'quota_exceeded',
      `Key "${owner}" already has ${rejection.current} images queued or running and this batch would add ${queued}; ` +
        `the limit is ${rejection.max}. Wait for running batches to finish, or submit fewer items.`,
      { headers: { 'retry-after': String(retryAfterSeconds) } },
    );
  }
  return new GatewayError(
    'quota_exceeded',
    `Daily image budget exceeded for key "${owner}": ${rejection.current} of ${rejection.max} images were admitted in the last 24 hours ` +
      `and this batch asks for ${items} more. The batch was not admitted (a batch is admitted whole or not at all).`,
  );
}
