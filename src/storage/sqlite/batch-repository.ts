// Batches and items in two sqlite tables. Every public method runs synchronously inside one BEGIN IMMEDIATE
// transaction, which makes each of them atomic against other processes sharing the database file.
import { admissionRejection, DEFAULT_IDEMPOTENCY_WINDOW_MS, isWithinIdempotencyWindow } from '../admission.ts';
import { BatchIdGenerator } from '../ids.ts';
import { itemPatchAssignments } from '../sql-columns.ts';
import type { SqlValue } from '../sql-columns.ts';
import { ACTIVE_ITEM_STATUSES, emptyCounts, addCount, isTerminalBatchStatus, nextBatchState, parseBatchStatus, parseItemStatus } from '../status.ts';
import type {
  Batch, BatchItem, BatchPage, BatchRepository, ClaimedItem, CreateBatchOptions, CreateBatchResult, ExpiredBlob, ItemPatch,
  ItemRef, ItemsChange, ItemStatus, NewBatch, TransitionGuard,
} from '../types.ts';
import { rowToBatch, rowToItem } from './batch-rows.ts';
import { placeholders } from './database.ts';
import type { Params, SqliteDatabase } from './database.ts';
import { numeric, millisOrNull, optionalDate, text } from './rows.ts';

const DEFAULT_REQUEUE_LIMIT = 100;
const ACTIVE_BATCH_STATUSES = ['queued', 'running'];

function toParam(value: SqlValue): string | number | null {
  return value instanceof Date ? value.getTime() : value;
}

export class SqliteBatchRepository implements BatchRepository {
  readonly #db: SqliteDatabase;
  readonly #clock: () => Date;
  readonly #ids = new BatchIdGenerator();

  constructor(db: SqliteDatabase, clock: () => Date) {
    this.#db = db;
    this.#clock = clock;
  }

  async createBatch(input: NewBatch, options: CreateBatchOptions = {}): Promise<CreateBatchResult> {
    const now = this.#clock();
    const windowMs = options.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
    return this.#db.transaction(() => {
      const existing = input.idempotencyKey ? this.#claimIdempotencyKey(input.owner, input.idempotencyKey, now, windowMs) : null;
      if (existing) return { outcome: 'existing', batch: existing };
      const rejection = admissionRejection(options.limits, input, {
        activeItems: options.limits?.maxActiveItems === undefined ? 0 : this.#countActive(input.owner),
        admittedSince: options.limits?.budget ? this.#countAdmitted(input.owner, options.limits.budget.since) : 0,
      });
      if (rejection) return rejection;
      const id = this.#ids.next(now);
      this.#insert(id, input, now);
      return { outcome: 'created', batch: this.#mustLoad(id) };
    });
  }

  async findById(batchId: string): Promise<Batch | null> {
    return this.#load(batchId);
  }

  async findForOwner(owner: string, batchId: string): Promise<Batch | null> {
    const batch = this.#load(batchId);
    return batch && batch.owner === owner ? batch : null;
  }

  async listForOwner(owner: string, page: { limit: number; after?: string }): Promise<BatchPage> {
    const params: Params = [owner];
    let sql = 'SELECT * FROM batches WHERE owner = ?';
    if (page.after !== undefined) {
      sql += ' AND id < ?';
      params.push(page.after);
    }
    params.push(page.limit + 1);
    const rows = this.#db.all(`${sql} ORDER BY id DESC LIMIT ?`, params);
    const batches = rows.slice(0, page.limit).map((row) => rowToBatch(row, this.#items(text(row, 'id'))));
    return { batches, hasMore: rows.length > page.limit };
  }

  async claimItem(batchId: string, index: number, leaseMs: number): Promise<ClaimedItem | null> {
    const now = this.#clock();
    return this.#db.transaction(() => {
      const row = this.#db.get(
        `UPDATE batch_items SET status = 'running', attempts = attempts + 1, updated_at = ?
         WHERE batch_id = ? AND idx = ? AND (status = 'queued' OR (status = 'running' AND updated_at < ?))
         RETURNING *`,
        [now.getTime(), batchId, index, now.getTime() - leaseMs],
      );
      if (!row) return null;
      this.#refreshStatus(batchId, now);
      const batch = this.#db.get('SELECT owner, model FROM batches WHERE id = ?', [batchId]) ?? {};
      return { batchId, owner: text(batch, 'owner'), model: text(batch, 'model'), item: rowToItem(row) };
    });
  }

  async transitionItem(
    batchId: string,
    index: number,
    from: readonly ItemStatus[],
    patch: ItemPatch,
    guard: TransitionGuard = {},
  ): Promise<boolean> {
    if (from.length === 0) return false;
    const now = this.#clock();
    const assignments = itemPatchAssignments(patch, now);
    const params: Params = [...assignments.map(([, value]) => toParam(value)), batchId, index, ...from];
    let sql = `UPDATE batch_items SET ${assignments.map(([column]) => `${column} = ?`).join(', ')}
      WHERE batch_id = ? AND idx = ? AND status IN (${placeholders(from.length)})`;
    if (guard.attempts !== undefined) {
      sql += ' AND attempts = ?';
      params.push(guard.attempts);
    }
    return this.#db.transaction(() => {
      if (this.#db.run(sql, params) === 0) return false;
      this.#refreshStatus(batchId, now);
      return true;
    });
  }

  async retryFailed(owner: string, batchId: string): Promise<ItemsChange | null> {
    const now = this.#clock();
    return this.#db.transaction(() => {
      if (!this.#ownedBy(owner, batchId)) return null;
      const rows = this.#db.all(
        `UPDATE batch_items SET status = 'queued', error_code = NULL, error_message = NULL, attempts = 0, updated_at = ?
         WHERE batch_id = ? AND status = 'failed' RETURNING idx`,
        [now.getTime(), batchId],
      );
      this.#refreshStatus(batchId, now);
      return { batch: this.#mustLoad(batchId), indexes: sortedIndexes(rows.map((row) => numeric(row, 'idx'))) };
    });
  }

  async cancel(owner: string, batchId: string): Promise<ItemsChange | null> {
    const now = this.#clock();
    return this.#db.transaction(() => {
      const batch = this.#db.get('SELECT status FROM batches WHERE id = ? AND owner = ?', [batchId, owner]);
      if (!batch) return null;
      if (isTerminalBatchStatus(parseBatchStatus(text(batch, 'status')))) return { batch: this.#mustLoad(batchId), indexes: [] };
      this.#db.run('UPDATE batches SET cancelled_at = COALESCE(cancelled_at, ?) WHERE id = ?', [now.getTime(), batchId]);
      const rows = this.#db.all(
        `UPDATE batch_items SET status = 'cancelled', updated_at = ? WHERE batch_id = ? AND status = 'queued' RETURNING idx`,
        [now.getTime(), batchId],
      );
      this.#refreshStatus(batchId, now);
      return { batch: this.#mustLoad(batchId), indexes: sortedIndexes(rows.map((row) => numeric(row, 'idx'))) };
    });
  }

  async countActiveItems(owner: string): Promise<number> {
    return this.#countActive(owner);
  }

  async countItemsAdmittedSince(owner: string, since: Date): Promise<number> {
    return this.#countAdmitted(owner, since);
  }

  async listExpiredBlobs(limit: number): Promise<ExpiredBlob[]> {
    const rows = this.#db.all(
      `SELECT batch_id, idx, blob_key FROM batch_items
       WHERE expired = 0 AND blob_key IS NOT NULL AND expires_at <= ? ORDER BY expires_at LIMIT ?`,
      [this.#clock().getTime(), limit],
    );
    return rows.map((row) => ({ batchId: text(row, 'batch_id'), index: numeric(row, 'idx'), blobKey: text(row, 'blob_key') }));
  }

  async markExpired(batchId: string, index: number): Promise<boolean> {
    const changes = this.#db.run(
      'UPDATE batch_items SET expired = 1, updated_at = ? WHERE batch_id = ? AND idx = ? AND expired = 0',
      [this.#clock().getTime(), batchId, index],
    );
    return changes > 0;
  }

  async requeueStaleRunning(leaseMs: number, limit = DEFAULT_REQUEUE_LIMIT): Promise<ItemRef[]> {
    const now = this.#clock();
    return this.#db.transaction(() => {
      const rows = this.#db.all(
        `UPDATE batch_items SET status = 'queued', updated_at = ?
         WHERE (batch_id, idx) IN (
           SELECT batch_id, idx FROM batch_items WHERE status = 'running' AND updated_at < ? ORDER BY updated_at LIMIT ?
         ) RETURNING batch_id, idx`,
        [now.getTime(), now.getTime() - leaseMs, limit],
      );
      const refs = rows.map((row) => ({ batchId: text(row, 'batch_id'), index: numeric(row, 'idx') }));
      for (const batchId of new Set(refs.map((ref) => ref.batchId))) this.#refreshStatus(batchId, now);
      return refs;
    });
  }

  /** The live batch holding this key, or null after releasing a key whose window has passed. */
  #claimIdempotencyKey(owner: string, key: string, now: Date, windowMs: number): Batch | null {
    const row = this.#db.get('SELECT id, created_at FROM batches WHERE owner = ? AND idempotency_key = ?', [owner, key]);
    if (!row) return null;
    if (isWithinIdempotencyWindow(new Date(numeric(row, 'created_at')), now, windowMs)) return this.#load(text(row, 'id'));
    this.#db.run('UPDATE batches SET idempotency_key = NULL WHERE id = ?', [text(row, 'id')]);
    return null;
  }

  #insert(id: string, input: NewBatch, now: Date): void {
    const counts = emptyCounts();
    for (const item of input.items) addCount(counts, item.initialError ? 'failed' : 'queued', 1);
    const state = nextBatchState(counts, false, undefined, now);
    this.#db.run(
      `INSERT INTO batches (id, owner, model, status, created_at, completed_at, metadata, idempotency_key, request_hash, item_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        id, input.owner, input.model, state.status, now.getTime(), millisOrNull(state.completedAt),
        input.metadata ? JSON.stringify(input.metadata) : null, input.idempotencyKey ?? null, input.requestHash ?? null,
        input.items.length,
      ],
    );
    input.items.forEach((item, index) => {
      this.#db.run(
        `INSERT INTO batch_items (batch_id, idx, custom_id, prompt, size, status, error_code, error_message, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id, index, item.customId ?? null, item.prompt, item.size, item.initialError ? 'failed' : 'queued',
          item.initialError?.code ?? null, item.initialError?.message ?? null, now.getTime(),
        ],
      );
    });
  }

  /** Re-derives status/completedAt from the item counts; runs inside the caller's transaction. */
  #refreshStatus(batchId: string, now: Date): void {
    const batch = this.#db.get('SELECT status, completed_at, cancelled_at FROM batches WHERE id = ?', [batchId]);
    if (!batch) return;
    const counts = emptyCounts();
    for (const row of this.#db.all('SELECT status, count(*) AS n FROM batch_items WHERE batch_id = ? GROUP BY status', [batchId])) {
      addCount(counts, parseItemStatus(text(row, 'status')), numeric(row, 'n'));
    }
    const previousCompletedAt = optionalDate(batch, 'completed_at');
    const next = nextBatchState(counts, batch['cancelled_at'] !== null, previousCompletedAt, now);
    if (next.status === text(batch, 'status') && next.completedAt?.getTime() === previousCompletedAt?.getTime()) return;
    this.#db.run('UPDATE batches SET status = ?, completed_at = ? WHERE id = ?', [next.status, millisOrNull(next.completedAt), batchId]);
  }

  #ownedBy(owner: string, batchId: string): boolean {
    return this.#db.get('SELECT 1 FROM batches WHERE id = ? AND owner = ?', [batchId, owner]) !== undefined;
  }

  #countActive(owner: string): number {
    const row = this.#db.get(
      `SELECT count(*) AS n FROM batch_items i JOIN batches b ON b.id = i.batch_id
       WHERE b.owner = ? AND b.status IN (${placeholders(ACTIVE_BATCH_STATUSES.length)})
         AND i.status IN (${placeholders(ACTIVE_ITEM_STATUSES.length)})`,
      [owner, ...ACTIVE_BATCH_STATUSES, ...ACTIVE_ITEM_STATUSES],
    );
    return row ? numeric(row, 'n') : 0;
  }

  #countAdmitted(owner: string, since: Date): number {
    const row = this.#db.get('SELECT coalesce(sum(item_count), 0) AS n FROM batches WHERE owner = ? AND created_at >= ?', [owner, since.getTime()]);
    return row ? numeric(row, 'n') : 0;
  }

  #load(batchId: string): Batch | null {
    const row = this.#db.get('SELECT * FROM batches WHERE id = ?', [batchId]);
    return row ? rowToBatch(row, this.#items(batchId)) : null;
  }

  /** For reads inside a transaction that just wrote the batch. */
  #mustLoad(batchId: string): Batch {
    const batch = this.#load(batchId);
    if (!batch) throw new Error(`batch ${batchId} vanished inside its own transaction`);
    return batch;
  }

  #items(batchId: string): BatchItem[] {
    return this.#db.all('SELECT * FROM batch_items WHERE batch_id = ? ORDER BY idx', [batchId]).map(rowToItem);
  }
}

function sortedIndexes(indexes: number[]): number[] {
  return [...indexes].sort((a, b) => a - b);
}
