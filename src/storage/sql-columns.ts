// Column assignments shared by the two SQL backends (same column names in sqlite and postgres).
import type { ItemPatch } from './types.ts';

export type SqlValue = string | number | Date | null;
export type Assignment = readonly [column: string, value: SqlValue];

export function itemPatchAssignments(patch: ItemPatch, now: Date): Assignment[] {
  const assignments: Assignment[] = [
    ['status', patch.status],
    ['updated_at', now],
  ];
  if (patch.error !== undefined) {
    assignments.push(['error_code', patch.error?.code ?? null], ['error_message', patch.error?.message ?? null]);
  }
  if (patch.blob) {
    assignments.push(
      ['blob_key', patch.blob.key],
      ['blob_mime_type', patch.blob.mimeType],
      ['blob_bytes', patch.blob.bytes],
      ['blob_etag', patch.blob.etag],
    );
  }
  if (patch.expiresAt) assignments.push(['expires_at', patch.expiresAt]);
  return assignments;
}
