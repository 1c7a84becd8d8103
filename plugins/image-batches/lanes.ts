// Work is scheduled as lanes: one Agenda job per lane, min(perBatch, items) lanes per batch, each walking
// its share of the batch's items one at a time. So a batch never has more than perBatch items generating,
// on one instance or many; a big batch adds only perBatch rows to the job table and cannot crowd out other
// batches; and lanes of one batch are picked up by whichever instances have room. Items still fail and
// retry independently: a lane keeps a not-before time per item waiting for its backoff and carries on with
// the others, and reschedules itself through Agenda when all it has left is waiting.

export const LANE_JOB = 'image-batches:lane';
export const RECOVER_JOB = 'image-batches:recover';
export const EXPIRE_JOB = 'image-batches:expire';

export interface LaneData {
  batchId: string;
  /** Items this lane still has to take care of, in order. */
  indexes: number[];
  /** Item index → epoch ms before which it must not be tried again (backoff). */
  retryAt?: Record<string, number>;
}

/** Round-robin split: lane l takes indexes[l], indexes[l + lanes], … */
export function splitIntoLanes(indexes: readonly number[], lanes: number): number[][] {
  const count = Math.max(1, Math.min(lanes, indexes.length));
  const out: number[][] = Array.from({ length: count }, () => []);
  indexes.forEach((index, position) => out[position % count]?.push(index));
  return out.filter((lane) => lane.length > 0);
}

/** A lane's remaining work in memory while its job runs. */
export class LaneQueue {
  readonly batchId: string;
  readonly #pending: number[];
  readonly #notBefore = new Map<number, number>();

  constructor(data: LaneData) {
    this.batchId = data.batchId;
    this.#pending = [...data.indexes];
    for (const [index, at] of Object.entries(data.retryAt ?? {})) this.#notBefore.set(Number(index), at);
  }

  get empty(): boolean {
    return this.#pending.length === 0;
  }

  /** The first item that is not waiting for its backoff. */
  next(now: number): number | undefined {
    return this.#pending.find((index) => (this.#notBefore.get(index) ?? 0) <= now);
  }

  /** When the earliest waiting item may run again. */
  earliest(): number | undefined {
    let soonest: number | undefined;
    for (const index of this.#pending) {
      const at = this.#notBefore.get(index) ?? 0;
      soonest = soonest === undefined ? at : Math.min(soonest, at);
    }
    return soonest;
  }

  done(index: number): void {
    const at = this.#pending.indexOf(index);
    if (at >= 0) this.#pending.splice(at, 1);
    this.#notBefore.delete(index);
  }

  /** Moves the item behind the others and holds it back until `at`. */
  later(index: number, at: number): void {
    this.done(index);
    this.#pending.push(index);
    this.#notBefore.set(index, at);
  }

  toData(): LaneData {
    const retryAt: Record<string, number> = {};
    for (const [index, at] of this.#notBefore) retryAt[String(index)] = at;
    return { batchId: this.batchId, indexes: [...this.#pending], ...(this.#notBefore.size > 0 ? { retryAt } : {}) };
  }
}
