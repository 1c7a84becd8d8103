// Images as plain files under <path>/images/<key>, with their type and ETag in the `blobs` table.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { assertValidBlobKey, describeBlob } from '../blob-keys.ts';
import type { BlobContent, BlobRef, BlobStore } from '../types.ts';
import type { SqliteDatabase } from './database.ts';
import { text } from './rows.ts';

export const IMAGES_DIRECTORY = 'images';

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

export class SqliteBlobStore implements BlobStore {
  readonly #db: SqliteDatabase;
  readonly #root: string;

  constructor(db: SqliteDatabase, storagePath: string) {
    this.#db = db;
    this.#root = join(storagePath, IMAGES_DIRECTORY);
  }

  async put(key: string, bytes: Buffer, mimeType: string): Promise<BlobRef> {
    const target = this.#pathOf(key);
    await mkdir(dirname(target), { recursive: true });
    // Keys never start with a dot, so the temp name cannot collide with another blob.
    const temporary = join(dirname(target), `.${basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temporary, bytes, { flush: true });
      await rename(temporary, target);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    const blob = describeBlob(key, bytes, mimeType);
    this.#db.run(
      `INSERT INTO blobs (key, mime_type, bytes, etag) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET mime_type = excluded.mime_type, bytes = excluded.bytes, etag = excluded.etag`,
      [key, blob.mimeType, blob.bytes, blob.etag],
    );
    return blob;
  }

  async open(key: string): Promise<BlobContent | null> {
    const path = this.#pathOf(key);
    const row = this.#db.get('SELECT mime_type, etag FROM blobs WHERE key = ?', [key]);
    if (!row) return null;
    // Opening the handle first keeps the bytes readable even if the blob is deleted while streaming.
    const handle = await open(path, 'r').catch((error: unknown) => {
      if (isMissingFile(error)) return null;
      throw error;
    });
    if (!handle) return null;
    try {
      const { size } = await handle.stat();
      return { stream: handle.createReadStream(), bytes: size, mimeType: text(row, 'mime_type'), etag: text(row, 'etag') };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.#pathOf(key);
    this.#db.run('DELETE FROM blobs WHERE key = ?', [key]);
    await rm(path, { force: true });
  }

  #pathOf(key: string): string {
    assertValidBlobKey(key);
    return join(this.#root, ...key.split('/'));
  }
}
