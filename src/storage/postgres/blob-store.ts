// Images in a bytea table. A row becomes visible only when its INSERT commits, so a blob is never seen half
// written; reads fetch fixed-size substrings so one image never has to sit in memory whole.
import { Readable } from 'node:stream';
import type { Pool } from 'pg';
import { assertValidBlobKey, describeBlob } from '../blob-keys.ts';
import type { BlobContent, BlobRef, BlobStore } from '../types.ts';

const CHUNK_BYTES = 256 * 1024;

export class PostgresBlobStore implements BlobStore {
  readonly #pool: Pool;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  async put(key: string, bytes: Buffer, mimeType: string): Promise<BlobRef> {
    assertValidBlobKey(key);
    const blob = describeBlob(key, bytes, mimeType);
    await this.#pool.query(
      `INSERT INTO blobs (key, mime_type, bytes, etag, data) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (key) DO UPDATE SET mime_type = excluded.mime_type, bytes = excluded.bytes, etag = excluded.etag, data = excluded.data`,
      [key, blob.mimeType, blob.bytes, blob.etag, bytes],
    );
    return blob;
  }

  async open(key: string): Promise<BlobContent | null> {
    assertValidBlobKey(key);
    const { rows } = await this.#pool.query<{ mime_type: string; bytes: number; etag: string }>(
      'SELECT mime_type, bytes, etag FROM blobs WHERE key = $1',
      [key],
    );
    const row = rows[0];
    if (!row) return null;
    const stream = Readable.from(this.#chunks(key, row.etag, row.bytes), { objectMode: false });
    return { stream, bytes: row.bytes, mimeType: row.mime_type, etag: row.etag };
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    await this.#pool.query('DELETE FROM blobs WHERE key = $1', [key]);
  }

  /** Pulled lazily by the stream, one query per chunk; the etag check stops a stream whose blob was replaced. */
  async *#chunks(key: string, etag: string, total: number): AsyncGenerator<Buffer> {
    for (let offset = 0; offset < total; offset += CHUNK_BYTES) {
      const { rows } = await this.#pool.query<{ chunk: Buffer }>(
        'SELECT substring(data FROM $2 FOR $3) AS chunk FROM blobs WHERE key = $1 AND etag = $4',
        [key, offset + 1, CHUNK_BYTES, etag],
      );
      if (!rows[0]) throw new Error(`blob ${key} was deleted or replaced while it was being read`);
      yield rows[0].chunk;
    }
  }
}
