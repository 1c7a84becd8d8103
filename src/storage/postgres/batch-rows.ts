// Row shapes returned by `pg` for the batch tables (timestamptz → Date, jsonb → object) and their mapping.
import { parseBatchStatus, parseItemStatus } from '../status.ts';
import type { Batch, BatchItem } from '../types.ts';

export interface BatchRow {
  id: string;
  owner: string;
  model: string;
  status: string;
  created_at: Date;
  completed_at: Date | null;
  cancelled_at: Date | null;
  metadata: Record<string, string> | null;
  idempotency_key: string | null;
  request_hash: string | null;
}

export interface ItemRow {
  batch_id: string;
  idx: number;
  custom_id: string | null;
  prompt: string;
  size: string;
  status: string;
  error_code: string | null;
  error_message: string | null;
  attempts: number;
  blob_key: string | null;
  blob_mime_type: string | null;
  blob_bytes: number | null;
  blob_etag: string | null;
  expires_at: Date | null;
  expired: boolean;
  updated_at: Date;
}

export function rowToItem(row: ItemRow): BatchItem {
  const item: BatchItem = {
    index: row.idx,
    prompt: row.prompt,
    size: row.size,
    status: parseItemStatus(row.status),
    attempts: row.attempts,
    updatedAt: row.updated_at,
  };
  if (row.custom_id !== null) item.customId = row.custom_id;
  if (row.error_code !== null) item.error = { code: row.error_code, message: row.error_message ?? '' };
  if (row.blob_key !== null) {
    item.blob = { key: row.blob_key, mimeType: row.blob_mime_type ?? '', bytes: row.blob_bytes ?? 0, etag: row.blob_etag ?? '' };
  }
  if (row.expires_at !== null) item.expiresAt = row.expires_at;
  if (row.expired) item.expired = true;
  return item;
}

export function rowToBatch(row: BatchRow, items: BatchItem[]): Batch {
  const batch: Batch = {
    id: row.id,
    owner: row.owner,
    model: row.model,
    status: parseBatchStatus(row.status),
    createdAt: row.created_at,
    items,
  };
  if (row.completed_at !== null) batch.completedAt = row.completed_at;
  if (row.cancelled_at !== null) batch.cancelledAt = row.cancelled_at;
  if (row.metadata !== null) batch.metadata = row.metadata;
  if (row.idempotency_key !== null) batch.idempotencyKey = row.idempotency_key;
  if (row.request_hash !== null) batch.requestHash = row.request_hash;
  return batch;
}
