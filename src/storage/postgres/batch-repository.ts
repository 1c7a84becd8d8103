// Batches and items in PostgreSQL. Every item change runs in a transaction that first locks the batch row
// (SELECT ... FOR UPDATE): one lock order everywhere (batch, then items), so concurrent workers serialize per batch,
// the derived status is computed from committed items, and no two transactions can deadlock.
import type { Pool, PoolClient } from 'pg';
import { admissionRejection, DEFAULT_IDEMPOTENCY_WINDOW_MS, isWithinIdempotencyWindow } from '../admission.ts';
import { BatchIdGenerator } from '../ids.ts';
import { itemPatchAssignments } from '../sql-columns.ts';
import { ACTIVE_ITEM_STATUSES, addCount, emptyCounts, isTerminalBatchStatus, nextBatchState, parseBatchStatus, parseItemStatus } from '../status.ts';
import type {
  Batch, BatchItem, BatchPage, BatchRepository, ClaimedItem, CreateBatchOptions, CreateBatchResult, ExpiredBlob, ItemPatch,
  ItemRef, ItemsChange, ItemStatus, NewBatch, TransitionGuard,
} from '../types.ts';
import { rowToBatch, rowToItem } from './batch-rows.ts';
import type { BatchRow, ItemRow } from './batch-rows.ts';
import { advisoryLockSql } from './schema.ts';

type Queryable = Pool | PoolClient;

const DEFAULT_REQUEUE_LIMIT = 100;
const ACTIVE_BATCH_STATUSES = ['queued', 'running'];

export class PostgresBatchRepository implements BatchRepository {
  readonly #pool: Pool;
  readonly #clock: () => Date;
  readonly #ids = new BatchIdGenerator();

  constructor(pool: Pool, clock: () => Date) {
    this.#pool = pool;
    this.#clock = clock;
  }

  async createBatch(input: NewBatch, options: CreateBatchOptions = {}): Promise<CreateBatchResult> {
    const now = this.#clock();
    const windowMs = options.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
    return this.#transaction(async (client) => {
      // One submit per owner at a time: makes the idempotency lookup and the limit checks race-free.
      await client.query(advisoryLockSql('$1'), [`owner:${input.owner}`]);
      const existing = input.idempotencyKey ? await this.#claimIdempotencyKey(client, input.owner, input.idempotencyKey, now, windowMs) : null;
      if (existing) return { outcome: 'existing', batch: existing };
      const limits = options.limits;
      const rejection = admissionRejection(limits, input, {
        activeItems: limits?.maxActiveItems === undefined ? 0 : await this.#countActive(client, input.owner),
        admittedSince: limits?.budget ? await this.#countAdmitted(client, input.owner, limits.budget.since) : 0,
      });
      if (rejection) return rejection;
      const id = this.#ids.next(now);
      await this.#insert(client, id, input, now);
      return { outcome: 'created', batch: await this.#mustLoad(client, id) };
    });
  }

  async findById(batchId: string): Promise<Batch | null> {
    return this.#load(this.#pool, batchId);
  }

  async findForOwner(owner: string, batchId: string): Promise<Batch | null> {
    const batch = await this.#load(this.#pool, batchId);
    return batch && batch.owner === owner ? batch : null;
  }

  async listForOwner(owner: string, page: { limit: number; after?: string }): Promise<BatchPage> {
    const { rows } = await this.#pool.query<BatchRow>(
      `SELECT * FROM batches WHERE owner = $1 AND ($2::text IS NULL OR id < $2) ORDER BY id DESC LIMIT $3`,
      [owner, page.after ?? null, page.limit + 1],
    );
    const pageRows = rows.slice(0, page.limit);
    const items = await this.#itemsOf(this.#pool, pageRows.map((row) => row.id));
    return { batches: pageRows.map((row) => rowToBatch(row, items.get(row.id) ?? [])), hasMore: rows.length > page.limit };
  }

  async claimItem(batchId: string, index: number, leaseMs: number): Promise<ClaimedItem | null> {
    const now = this.#clock();
    return this.#withBatchLocked(batchId, undefined, async (client, batch) => {
      const { rows } = await client.query<ItemRow>(
        `UPDATE batch_items SET status = 'running', attempts = attempts + 1, updated_at = $1
         WHERE batch_id = $2 AND idx = $3 AND (status = 'queued' OR (status = 'running' AND updated_at < $4))
         RETURNING *`,
        [now, batchId, index, new Date(now.getTime() - leaseMs)],
      );
      if (!rows[0]) return null;
      await this.#refreshStatus(client, batch, now);
      return { batchId, owner: batch.owner, model: batch.model, item: rowToItem(rows[0]) };
    });
  }

  async transitionItem(batchId: string, index: number, from: readonly ItemStatus[], patch: ItemPatch, guard: TransitionGuard = {}): Promise<boolean> {
    if (from.length === 0) return false;
    const now = this.#clock();
    const assignments = itemPatchAssignments(patch, now);
    const params: unknown[] = [...assignments.map(([, value]) => value), batchId, index, [...from]];
    const n = assignments.length;
    let sql = `UPDATE batch_items SET ${assignments.map(([column], i) => `${column} = $${i + 1}`).join(', ')}
      WHERE batch_id = $${n + 1} AND idx = $${n + 2} AND status = ANY($${n + 3}::text[])`;
    if (guard.attempts !== undefined) {
      params.push(guard.attempts);
      sql += ` AND attempts = $${params.length}`;
    }
    const changed = await this.#withBatchLocked(batchId, undefined, async (client, batch) => {
      const result = await client.query(sql, params);
      if (result.rowCount === 0) return false;
      await this.#refreshStatus(client, batch, now);
      return true;
    });
    return changed === true;
  }

  async retryFailed(owner: string, batchId: string): Promise<ItemsChange | null> {
    const now = this.#clock();
    return this.#withBatchLocked(batchId, owner, async (client, batch) => {
      const { rows } = await client.query<{ idx: number }>(
        `UPDATE batch_items SET status = 'queued', error_code = NULL, error_message = NULL, attempts = 0, updated_at = $1
         WHERE batch_id = $2 AND status = 'failed' RETURNING idx`,
        [now, batchId],
      );
      await this.#refreshStatus(client, batch, now);
      return { batch: await this.#mustLoad(client, batchId), indexes: sortedIndexes(rows) };
    });
  }

  async cancel(owner: string, batchId: string): Promise<ItemsChange | null> {
    const now = this.#clock();
    return this.#withBatchLocked(batchId, owner, async (client, batch) => {
      if (isTerminalBatchStatus(parseBatchStatus(batch.status))) return { batch: await this.#mustLoad(client, batchId), indexes: [] };
      const cancelledAt = batch.cancelled_at ?? now;
      await client.query('UPDATE batches SET cancelled_at = $1 WHERE id = $2', [cancelledAt, batchId]);
      const { rows } = await client.query<{ idx: number }>(
        `UPDATE batch_items SET status = 'cancelled', updated_at = $1 WHERE batch_id = $2 AND status = 'queued' RETURNING idx`,
        [now, batchId],
      );
      await this.#refreshStatus(client, { ...batch, cancelled_at: cancelledAt }, now);
      return { batch: await this.#mustLoad(client, batchId), indexes: sortedIndexes(rows) };
    });
  }

  async countActiveItems(owner: string): Promise<number> {
    return this.#countActive(this.#pool, owner);
  }

  async countItemsAdmittedSince(owner: string, since: Date): Promise<number> {
    return this.#countAdmitted(this.#pool, owner, since);
  }

  async listExpiredBlobs(limit: number): Promise<ExpiredBlob[]> {
    const { rows } = await this.#pool.query<{ batch_id: string; idx: number; blob_key: string }>(
      `SELECT batch_id, idx, blob_key FROM batch_items
       WHERE NOT expired AND blob_key IS NOT NULL AND expires_at <= $1 ORDER BY expires_at LIMIT $2`,
      [this.#clock(), limit],
    );
    return rows.map((row) => ({ batchId: row.batch_id, index: row.idx, blobKey: row.blob_key }));
  }

  async markExpired(batchId: string, index: number): Promise<boolean> {
    const result = await this.#pool.query(
      'UPDATE batch_items SET expired = true, updated_at = $1 WHERE batch_id = $2 AND idx = $3 AND NOT expired',
      [this.#clock(), batchId, index],
    );
    return (result.rowCount ?? 0) > 0;
  }

  async requeueStaleRunning(leaseMs: number, limit = DEFAULT_REQUEUE_LIMIT): Promise<ItemRef[]> {
    const now = this.#clock();
    const cutoff = new Date(now.getTime() - leaseMs);
    return this.#transaction(async (client) => {
      const candidates = await client.query<{ batch_id: string }>(
        `SELECT DISTINCT batch_id FROM batch_items WHERE status = 'running' AND updated_at < $1`,
        [cutoff],
      );
      if (candidates.rows.length === 0) return [];
      // Locks in id order, so two processes recovering at once cannot deadlock each other.
      const locked = await client.query<BatchRow>('SELECT * FROM batches WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE', [
        candidates.rows.map((row) => row.batch_id),
      ]);
      const { rows } = await client.query<{ batch_id: string; idx: number }>(
        `UPDATE batch_items SET status = 'queued', updated_at = $1
         WHERE (batch_id, idx) IN (
           SELECT batch_id, idx FROM batch_items
           WHERE status = 'running' AND updated_at < $2 AND batch_id = ANY($3::text[]) ORDER BY updated_at LIMIT $4
         ) RETURNING batch_id, idx`,
        [now, cutoff, locked.rows.map((row) => row.id), limit],
      );
      const touched = new Set(rows.map((row) => row.batch_id));
      for (const batch of locked.rows) if (touched.has(batch.id)) await this.#refreshStatus(client, batch, now);
      return rows.map((row) => ({ batchId: row.batch_id, index: row.idx }));
    });
  }

  async #transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Runs `work` with the batch row locked; null when the batch does not exist (or has another owner). */
  async #withBatchLocked<T>(batchId: string, owner: string | undefined, work: (client: PoolClient, batch: BatchRow) => Promise<T>): Promise<T | null> {
    return this.#transaction(async (client) => {
      const { rows } = await client.query<BatchRow>(
        'SELECT * FROM batches WHERE id = $1 AND ($2::text IS NULL OR owner = $2) FOR UPDATE',
        [batchId, owner ?? null],
      );
      return rows[0] ? work(client, rows[0]) : null;
    });
  }

  /** The live batch holding this key, or null after releasing a key whose window has passed. */
  async #claimIdempotencyKey(client: PoolClient, owner: string, key: string, now: Date, windowMs: number): Promise<Batch | null> {
    const { rows } = await client.query<{ id: string; created_at: Date }>(
      'SELECT id, created_at FROM batches WHERE owner = $1 AND idempotency_key = $2',
      [owner, key],
    );
    const existing = rows[0];
    if (!existing) return null;
    if (isWithinIdempotencyWindow(existing.created_at, now, windowMs)) return this.#load(client, existing.id);
    await client.query('UPDATE batches SET idempotency_key = NULL WHERE id = $1', [existing.id]);
    return null;
  }

  async #insert(client: PoolClient, id: string, input: NewBatch, now: Date): Promise<void> {
    const counts = emptyCounts();
    for (const item of input.items) addCount(counts, item.initialError ? 'failed' : 'queued', 1);
    const state = nextBatchState(counts, false, undefined, now);
    await client.query(
      `INSERT INTO batches (id, owner, model, status, created_at, completed_at, metadata, idempotency_key, request_hash, item_count)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [id, input.owner, input.model, state.status, now, state.completedAt ?? null, input.metadata ?? null,
        input.idempotencyKey ?? null, input.requestHash ?? null, input.items.length],
    );
    const items = input.items;
    await client.query(
      `INSERT INTO batch_items (batch_id, idx, custom_id, prompt, size, status, error_code, error_message, updated_at)
       SELECT $1, t.idx, t.custom_id, t.prompt, t.size, t.status, t.error_code, t.error_message, $2
       FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
         AS t (idx, custom_id, prompt, size, status, error_code, error_message)`,
      [id, now, items.map((_, index) => index), items.map((item) => item.customId ?? null), items.map((item) => item.prompt),
        items.map((item) => item.size), items.map((item) => (item.initialError ? 'failed' : 'queued')),
        items.map((item) => item.initialError?.code ?? null), items.map((item) => item.initialError?.message ?? null)],
    );
  }

  /** Re-derives status/completedAt from committed item counts; the caller holds the batch row lock. */
  async #refreshStatus(client: PoolClient, batch: BatchRow, now: Date): Promise<void> {
    const { rows } = await client.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM batch_items WHERE batch_id = $1 GROUP BY status',
      [batch.id],
    );
    const counts = emptyCounts();
    for (const row of rows) addCount(counts, parseItemStatus(row.status), row.n);
    const next = nextBatchState(counts, batch.cancelled_at !== null, batch.completed_at ?? undefined, now);
    if (next.status === batch.status && next.completedAt?.getTime() === batch.completed_at?.getTime()) return;
    await client.query('UPDATE batches SET status = $1, completed_at = $2 WHERE id = $3', [next.status, next.completedAt ?? null, batch.id]);
  }

  async #countActive(db: Queryable, owner: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM batch_items i JOIN batches b ON b.id = i.batch_id
       WHERE b.owner = $1 AND b.status = ANY($2::text[]) AND i.status = ANY($3::text[])`,
      [owner, ACTIVE_BATCH_STATUSES, ACTIVE_ITEM_STATUSES],
    );
    return rows[0]?.n ?? 0;
  }

  async #countAdmitted(db: Queryable, owner: string, since: Date): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT coalesce(sum(item_count), 0)::int AS n FROM batches WHERE owner = $1 AND created_at >= $2',
      [owner, since],
    );
    return rows[0]?.n ?? 0;
  }

  async #load(db: Queryable, batchId: string): Promise<Batch | null> {
    const { rows } = await db.query<BatchRow>('SELECT * FROM batches WHERE id = $1', [batchId]);
    if (!rows[0]) return null;
    const items = await this.#itemsOf(db, [batchId]);
    return rowToBatch(rows[0], items.get(batchId) ?? []);
  }

  async #mustLoad(db: Queryable, batchId: string): Promise<Batch> {
    const batch = await this.#load(db, batchId);
    if (!batch) throw new Error(`batch ${batchId} vanished inside its own transaction`);
    return batch;
  }

  async #itemsOf(db: Queryable, batchIds: string[]): Promise<Map<string, BatchItem[]>> {
    const byBatch = new Map<string, BatchItem[]>();
    if (batchIds.length === 0) return byBatch;
    const { rows } = await db.query<ItemRow>('SELECT * FROM batch_items WHERE batch_id = ANY($1::text[]) ORDER BY batch_id, idx', [batchIds]);
    for (const row of rows) {
      const items = byBatch.get(row.batch_id) ?? [];
      items.push(rowToItem(row));
      byBatch.set(row.batch_id, items);
    }
    return byBatch;
  }
}

function sortedIndexes(rows: Array<{ idx: number }>): number[] {
  return rows.map((row) => row.idx).sort((a, b) => a - b);
}
