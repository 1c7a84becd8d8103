// Reads a ZIP held in memory with yauzl (tests only): entry name → bytes, in archive order.
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readZip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true });
  const entries = new Map<string, Buffer>();
  try {
    for await (const entry of zip.eachEntry()) entries.set(entry.fileName, await collect(await zip.openReadStreamPromise(entry)));
  } finally {
    zip.close();
  }
  return entries;
}
