// Contract: the blob store streams images back byte for byte and deletes them idempotently.
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { ContractContext } from './helpers.ts';
import { readAll } from './helpers.ts';

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function blobContract(context: () => ContractContext): void {
  it('stores a blob and streams it back in several chunks', async () => {
    const storage = await context().storage();
    const bytes = randomBytes(1024 * 1024 + 17);
    const ref = await storage.blobs.put('batch_1/0', bytes, 'image/png');
    expect(ref).to.deep.equal({ key: 'batch_1/0', mimeType: 'image/png', bytes: bytes.length, etag: `"${sha256(bytes).slice(0, 32)}"` });
    const content = await storage.blobs.open('batch_1/0');
    expect(content).to.not.equal(null);
    expect(content).to.include({ bytes: bytes.length, mimeType: 'image/png', etag: ref.etag });
    const read = await readAll(content!.stream);
    expect(sha256(read.bytes)).to.equal(sha256(bytes));
    expect(read.chunks, 'a 1 MiB blob must arrive as a stream, not one buffer').to.be.greaterThan(1);
  });

  it('replaces a blob stored under the same key', async () => {
    const storage = await context().storage();
    await storage.blobs.put('k/1', Buffer.from('first'), 'image/png');
    const second = await storage.blobs.put('k/1', Buffer.from('second!'), 'image/webp');
    const content = await storage.blobs.open('k/1');
    expect(content).to.include({ bytes: 7, mimeType: 'image/webp', etag: second.etag });
    expect((await readAll(content!.stream)).bytes.toString()).to.equal('second!');
  });

  it('answers null for a missing blob and deletes idempotently', async () => {
    const storage = await context().storage();
    expect(await storage.blobs.open('missing/0')).to.equal(null);
    await storage.blobs.put('gone/0', Buffer.from('x'), 'image/jpeg');
    await storage.blobs.delete('gone/0');
    await storage.blobs.delete('gone/0');
    expect(await storage.blobs.open('gone/0')).to.equal(null);
  });

  it('shares blobs between connections', async () => {
    const [a, b] = [await context().storage(), await context().storage()];
    await a.blobs.put('shared/0', Buffer.from('pixels'), 'image/png');
    const content = await b.blobs.open('shared/0');
    expect((await readAll(content!.stream)).bytes.toString()).to.equal('pixels');
  });

  it('rejects keys that could escape the blob namespace', async () => {
    const storage = await context().storage();
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '.hidden', 'sp ace', '']) {
      let rejected = false;
      try {
        await storage.blobs.put(key, Buffer.from('x'), 'image/png');
      } catch {
        rejected = true;
      }
      expect(rejected, JSON.stringify(key)).to.equal(true);
    }
  });
}
