// Batch ids sort by creation time, so "newest first, after <id>" pagination is a plain comparison on the id.
import { randomBytes } from 'node:crypto';

const TIME_HEX_DIGITS = 12;

export class BatchIdGenerator {
  #lastMillis = 0;

  /** `batch_` + 12 hex digits of milliseconds (strictly increasing within this process) + 16 random hex digits. */
  next(now: Date): string {
    this.#lastMillis = Math.max(now.getTime(), this.#lastMillis + 1);
    const time = this.#lastMillis.toString(16).padStart(TIME_HEX_DIGITS, '0');
    return `batch_${time}${randomBytes(8).toString('hex')}`;
  }
}
