// GET /v1/images/batches/{id}/items/{index}/content: one image, streamed from the blob store with its
// Content-Type, Content-Length and ETag (If-None-Match → 304). Past its retention it answers 410.
import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { GatewayError } from '../../src/index.ts';
import type { Batch, BatchItem, BlobStore } from '../../src/index.ts';
import { contentDisposition, itemFileName } from './files.ts';

function itemOf(batch: Batch, rawIndex: string): BatchItem {
  const index = /^\d{1,9}$/.test(rawIndex) ? Number(rawIndex) : Number.NaN;
  const item = Number.isInteger(index) ? batch.items[index] : undefined;
  if (!item) throw new GatewayError('resource_not_found', `Batch ${batch.id} has no item ${JSON.stringify(rawIndex)}; items are numbered 0-${batch.items.length - 1}.`);
  return item;
}

function expiredError(batch: Batch, item: BatchItem): GatewayError {
  const when = item.expiresAt ? ` on ${item.expiresAt.toISOString()}` : '';
  return new GatewayError('gone', `The image of item ${item.index} of batch ${batch.id} expired${when} and was deleted (images are kept for the retention period); submit the prompt again to regenerate it.`);
}

function notGenerated(batch: Batch, item: BatchItem): GatewayError {
  const why = item.status === 'failed' && item.error ? `it failed (${item.error.code})` : `its status is ${item.status}`;
  return new GatewayError('resource_not_found', `Item ${item.index} of batch ${batch.id} has no image: ${why}.`);
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

export async function sendItemContent(req: Request, res: Response, batch: Batch, rawIndex: string, blobs: BlobStore, now: Date = new Date()): Promise<void> {
  const item = itemOf(batch, rawIndex);
  if (item.status !== 'succeeded' || !item.blob) throw notGenerated(batch, item);
  if (item.expired === true || (item.expiresAt !== undefined && item.expiresAt <= now)) throw expiredError(batch, item);
  const maxAge = item.expiresAt ? Math.max(0, Math.floor((item.expiresAt.getTime() - now.getTime()) / 1000)) : 0;
  res.setHeader('etag', item.blob.etag);
  res.setHeader('cache-control', `private, max-age=${maxAge}, immutable`);
  if (etagMatches(req.headers['if-none-match'], item.blob.etag)) {
    res.status(304).end();
    return;
  }
  const blob = await blobs.open(item.blob.key);
  if (!blob) throw expiredError(batch, item);
  res.status(200);
  res.setHeader('content-type', blob.mimeType);
  res.setHeader('content-length', String(blob.bytes));
  res.setHeader('content-disposition', contentDisposition('inline', itemFileName(item, blob.mimeType)));
  try {
    await pipeline(blob.stream, res);
  } catch (error) {
    // A client that hangs up mid-download is not a gateway failure.
    if ((error as { code?: unknown }).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
  }
}
