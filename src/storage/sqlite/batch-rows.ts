// Row ⇄ model mapping for the sqlite batch tables.
import { parseBatchStatus, parseItemStatus } from '../status.ts';
import type { Batch, BatchItem } from '../types.ts';
import type { Row } from './database.ts';
import { date, numeric, optionalDate, optionalText, text } from './rows.ts';

export function rowToItem(row: Row): BatchItem {
  const item: BatchItem = {
    index: numeric(row, 'idx'),
    prompt: text(row, 'prompt'),
    size: text(row, 'size'),
    status: parseItemStatus(text(row, 'status')),
    attempts: numeric(row, 'attempts'),
    updatedAt: date(row, 'updated_at'),
  };
  const customId = optionalText(row, 'custom_id');
  if (customId !== undefined) item.customId = customId;
  const errorCode = optionalText(row, 'error_code');
  if (errorCode !== undefined) item.error = { code: errorCode, message: optionalText(row, 'error_message') ?? '' };
  const blobKey = optionalText(row, 'blob_key');
  if (blobKey !== undefined) {
    item.blob = {
      key: blobKey,
      mimeType: text(row, 'blob_mime_type'),
      bytes: numeric(row, 'blob_bytes'),
      etag: text(row, 'blob_etag'),
    };
  }
  const expiresAt = optionalDate(row, 'expires_at');
  if (expiresAt) item.expiresAt = expiresAt;
  if (numeric(row, 'expired') === 1) item.expired = true;
  return item;
}

export function rowToBatch(row: Row, items: BatchItem[]): Batch {
  const batch: Batch = {
    id: text(row, 'id'),
    owner: text(row, 'owner'),
    model: text(row, 'model'),
    status: parseBatchStatus(text(row, 'status')),
    createdAt: date(row, 'created_at'),
    items,
  };
  const completedAt = optionalDate(row, 'completed_at');
  if (completedAt) batch.completedAt = completedAt;
  const cancelledAt = optionalDate(row, 'cancelled_at');
  if (cancelledAt) batch.cancelledAt = cancelledAt;
  const metadata = optionalText(row, 'metadata');
  if (metadata !== undefined) batch.metadata = JSON.parse(metadata) as Record<string, string>;
  const idempotencyKey = optionalText(row, 'idempotency_key');
  if (idempotencyKey !== undefined) batch.idempotencyKey = idempotencyKey;
  const requestHash = optionalText(row, 'request_hash');
  if (requestHash !== undefined) batch.requestHash = requestHash;
  return batch;
}
