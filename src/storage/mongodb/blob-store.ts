// Images in GridFS (bucket `images`). A GridFS file becomes visible only when its files document is written after
// the last chunk, so readers never see a partial image; replacing a key uploads anew, then drops the older files.
import { GridFSBucket } from 'mongodb';
import type { Db, GridFSFile, ObjectId } from 'mongodb';
import { assertValidBlobKey, describeBlob } from '../blob-keys.ts';
import type { BlobContent, BlobRef, BlobStore } from '../types.ts';

export const IMAGES_BUCKET = 'images';

function stringField(file: GridFSFile, field: string): string {
  const value: unknown = file.metadata?.[field];
  return typeof value === 'string' ? value : '';
}

export class MongoBlobStore implements BlobStore {
  readonly #bucket: GridFSBucket;

  constructor(db: Db) {
    this.#bucket = new GridFSBucket(db, { bucketName: IMAGES_BUCKET });
  }

  async put(key: string, bytes: Buffer, mimeType: string): Promise<BlobRef> {
    assertValidBlobKey(key);
    const blob = describeBlob(key, bytes, mimeType);
    const upload = this.#bucket.openUploadStream(key, { metadata: { mimeType: blob.mimeType, etag: blob.etag } });
    await new Promise<void>((resolve, reject) => {
      upload.once('finish', () => resolve());
      upload.once('error', reject);
      upload.end(bytes);
    });
    await this.#deleteFiles(key, upload.id);
    return blob;
  }

  async open(key: string): Promise<BlobContent | null> {
    assertValidBlobKey(key);
    const [file] = await this.#bucket.find({ filename: key }).sort({ uploadDate: -1, _id: -1 }).limit(1).toArray();
    if (!file) return null;
    return {
      stream: this.#bucket.openDownloadStream(file._id),
      bytes: file.length,
      mimeType: stringField(file, 'mimeType'),
      etag: stringField(file, 'etag'),
    };
  }

  async delete(key: string): Promise<void> {
    assertValidBlobKey(key);
    await this.#deleteFiles(key);
  }

  /** Deletes every file stored under `key` except `keep`; a file another process deleted first is fine. */
  async #deleteFiles(key: string, keep?: ObjectId): Promise<void> {
    const files = await this.#bucket.find({ filename: key }, { projection: { _id: 1 } }).toArray();
    for (const file of files) {
      if (keep && file._id.equals(keep)) continue;
      await this.#bucket.delete(file._id).catch((error: unknown) => {
        if (!(error instanceof Error && error.message.includes('File not found'))) throw error;
      });
    }
  }
}
