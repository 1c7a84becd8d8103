// The batch object clients see (docs/image-batches.md): snake_case fields, Unix-second timestamps, and
// absolute download URLs built from `server.publicUrl`, present once there is something to download.
import { countItems } from '../../src/index.ts';
import type { Batch, BatchItem, ItemCounts } from '../../src/index.ts';

export interface ItemView {
  index: number;
  custom_id?: string;
  prompt: string;
  size: string;
  status: BatchItem['status'];
  error?: { code: string; message: string };
  url?: string;
  expires_at?: number;
}

export interface BatchView {
  id: string;
  object: 'image.batch';
  model: string;
  status: Batch['status'];
  created_at: number;
  completed_at?: number;
  cancelled_at?: number;
  metadata?: Record<string, string>;
  request_counts: ItemCounts;
  items: ItemView[];
  archive_url?: string;
}

export interface ListView {
  object: 'list';
  data: BatchView[];
  first_id: string | null;
  last_id: string | null;
  has_more: boolean;
}

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export const batchPath = (batchId: string): string => `/v1/images/batches/${encodeURIComponent(batchId)}`;

/** An item's image can be downloaded: generated, and neither deleted nor past its retention. */
export function isDownloadable(item: BatchItem, now: Date): boolean {
  return item.status === 'succeeded' && item.blob !== undefined && item.expired !== true && (item.expiresAt === undefined || item.expiresAt > now);
}

/** The fields an item shows everywhere (batch object and ZIP manifest), in the API's snake_case. */
export function itemFields(item: BatchItem): Pick<ItemView, 'index' | 'custom_id' | 'prompt' | 'size' | 'status' | 'error'> {
  return {
    index: item.index,
    ...(item.customId !== undefined ? { custom_id: item.customId } : {}),
    prompt: item.prompt,
    size: item.size,
    status: item.status,
    ...(item.error ? { error: { code: item.error.code, message: item.error.message } } : {}),
  };
}

function itemView(batch: Batch, item: BatchItem, publicUrl: string, now: Date): ItemView {
  return {
    ...itemFields(item),
    ...(isDownloadable(item, now) ? { url: `${publicUrl}${batchPath(batch.id)}/items/${item.index}/content` } : {}),
    ...(item.status === 'succeeded' && item.expiresAt ? { expires_at: seconds(item.expiresAt) } : {}),
  };
}

export function batchView(batch: Batch, publicUrl: string, now: Date = new Date()): BatchView {
  const items = batch.items.map((item) => itemView(batch, item, publicUrl, now));
  return {
    id: batch.id,
    object: 'image.batch',
    model: batch.model,
    status: batch.status,
    created_at: seconds(batch.createdAt),
    ...(batch.completedAt ? { completed_at: seconds(batch.completedAt) } : {}),
    ...(batch.cancelledAt ? { cancelled_at: seconds(batch.cancelledAt) } : {}),
    ...(batch.metadata ? { metadata: { ...batch.metadata } } : {}),
    request_counts: countItems(batch.items),
    items,
    ...(items.some((item) => item.url !== undefined) ? { archive_url: `${publicUrl}${batchPath(batch.id)}/archive` } : {}),
  };
}

export function listView(batches: readonly Batch[], hasMore: boolean, publicUrl: string): ListView {
  const now = new Date();
  return {
    object: 'list',
    data: batches.map((batch) => batchView(batch, publicUrl, now)),
    first_id: batches[0]?.id ?? null,
    last_id: batches.at(-1)?.id ?? null,
    has_more: hasMore,
  };
}
