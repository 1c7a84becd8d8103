// GET /v1/images/batches/{id}/archive: a ZIP streamed with archiver, never assembled in memory. Entries are
// added one at a time — the next image is opened only once the previous one went through the archive — so
// memory stays bounded by archiver's buffer whatever the batch size, and a slow client slows the reads
// down instead of piling bytes up. Images are stored as they are (already compressed); manifest.json
// (every item: file, prompt, size, status, error) comes last.
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { ZipArchive } from 'archiver';
import type { Response } from 'express';
import { GatewayError } from '../../src/index.ts';
import type { Batch, BatchItem, BlobStore } from '../../src/index.ts';
import { isDownloadable, itemFields } from './batch-view.ts';
import { contentDisposition, itemFileName } from './files.ts';

interface ManifestItem {
  index: number;
  custom_id?: string;
  prompt: string;
  size: string;
  status: BatchItem['status'];
  file?: string;
  error?: { code: string; message: string };
  expired?: boolean;
}

function manifestItem(item: BatchItem, file: string | undefined, expired: boolean): ManifestItem {
  return { ...itemFields(item), ...(file ? { file } : {}), ...(expired ? { expired: true } : {}) };
}

/** Refuses before anything is sent: 410 when every image expired, 404 when none was generated yet. */
export function assertArchiveAvailable(batch: Batch, now: Date): void {
  if (batch.items.some((item) => isDownloadable(item, now))) return;
  if (batch.items.some((item) => item.status === 'succeeded')) {
    throw new GatewayError('gone', `Every image of batch ${batch.id} is past its retention period and was deleted; submit the prompts again to regenerate them.`);
  }
  throw new GatewayError('resource_not_found', `Batch ${batch.id} has no generated images yet (status ${batch.status}); poll the batch and download once archive_url is present.`);
}

class ClientGone extends Error {
  constructor() {
    super('the client closed the connection during the download');
    this.name = 'ClientGone';
  }
}

/** Resolves once archiver has taken the entry in; rejects if the archive failed or the client went away. */
async function entryWritten(zip: ZipArchive, res: Response): Promise<void> {
  const gone = new AbortController();
  const onClose = (): void => gone.abort(new ClientGone());
  res.once('close', onClose);
  try {
    await once(zip, 'entry', { signal: gone.signal });
  } finally {
    res.off('close', onClose);
  }
}

async function appendImages(zip: ZipArchive, res: Response, batch: Batch, blobs: BlobStore, now: Date): Promise<ManifestItem[]> {
  const manifest: ManifestItem[] = [];
  for (const item of batch.items) {
    const blob = isDownloadable(item, now) && item.blob ? await blobs.open(item.blob.key) : null;
    if (!blob) {
      manifest.push(manifestItem(item, undefined, item.status === 'succeeded'));
      continue;
    }
    if (res.destroyed) {
      blob.stream.destroy();
      throw new ClientGone();
    }
    const name = itemFileName(item, blob.mimeType);
    const written = entryWritten(zip, res);
    zip.append(blob.stream, { name, store: true, date: item.updatedAt });
    try {
      await written;
    } catch (error) {
      blob.stream.destroy();
      throw error;
    }
    manifest.push(manifestItem(item, name, false));
  }
  return manifest;
}

/** Streams the archive. A failure after the headers went out cuts the connection (the client sees a broken ZIP)
 * and is rethrown unless it was the client leaving. */
export async function streamArchive(res: Response, batch: Batch, blobs: BlobStore, now: Date = new Date()): Promise<void> {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  res.status(200);
  res.setHeader('content-type', 'application/zip');
  res.setHeader('content-disposition', contentDisposition('attachment', `${batch.id}.zip`));
  res.setHeader('cache-control', 'private, no-store');
  const failed = new Promise<never>((_resolve, reject) => zip.once('error', reject));
  failed.catch(() => undefined);
  zip.pipe(res);
  const sent = finished(res);
  sent.catch(() => undefined);
  try {
    const items = await Promise.race([appendImages(zip, res, batch, blobs, now), failed]);
    const manifest = { batch_id: batch.id, model: batch.model, status: batch.status, created_at: Math.floor(batch.createdAt.getTime() / 1000), items };
    zip.append(`${JSON.stringify(manifest, null, 2)}\n`, { name: 'manifest.json', date: now });
    await Promise.race([zip.finalize(), failed]);
    await sent;
  } catch (error) {
    zip.abort();
    const clientLeft = error instanceof ClientGone || res.destroyed;
    if (!res.destroyed) res.destroy();
    if (!clientLeft) throw error;
  }
}
