// Rules shared by the three blob stores: which keys are allowed and how an ETag is computed.
import { createHash } from 'node:crypto';
import type { BlobRef } from './types.ts';

// A segment may not start with a dot, which rules out "." and "..".
const KEY_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;
const MAX_KEY_LENGTH = 512;
const ETAG_HEX_DIGITS = 32;

/** Keys become file paths in the sqlite store, so reject anything that could climb out of the images directory. */
export function assertValidBlobKey(key: string): void {
  const segments = key.split('/');
  const valid = key.length <= MAX_KEY_LENGTH && segments.every((segment) => KEY_SEGMENT.test(segment));
  if (!valid) throw new Error(`invalid blob key ${JSON.stringify(key)}: use [A-Za-z0-9._-] segments joined by "/"`);
}

export function computeEtag(bytes: Buffer): string {
  return `"${createHash('sha256').update(bytes).digest('hex').slice(0, ETAG_HEX_DIGITS)}"`;
}

export function describeBlob(key: string, bytes: Buffer, mimeType: string): BlobRef {
  return { key, mimeType, bytes: bytes.length, etag: computeEtag(bytes) };
}
