// File names and types of generated images: blob keys, download names and ZIP entry names.
import type { BatchItem } from '../../src/index.ts';

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };
const SLUG_WORDS = 6;
const SLUG_CHARS = 40;
const CUSTOM_ID_CHARS = 80;

export function extensionFor(mimeType: string): string {
  return EXTENSIONS[mimeType] ?? 'bin';
}

/** One key per attempt, so a worker that lost its lease can delete its own image without touching the winner's. */
export function blobKey(batchId: string, index: number, attempts: number, mimeType: string): string {
  return `${batchId}/${index}-${attempts}.${extensionFor(mimeType)}`;
}

/** `A red fox, in the snow!` → `a-red-fox-in-the-snow`. */
export function slugify(prompt: string): string {
  const words = prompt
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, SLUG_WORDS);
  return words.join('-').slice(0, SLUG_CHARS).replace(/-+$/, '') || 'image';
}

/** A custom_id made safe as a file name: no path separators, control characters or leading dots. */
function safeName(customId: string): string {
  const printable = [...customId].map((char) => ((char.codePointAt(0) ?? 0) < 0x20 || char === '\u007f' ? '_' : char)).join('');
  const cleaned = printable
    .replace(/[/\\:*?"<>|]+/g, '_')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, CUSTOM_ID_CHARS);
  return cleaned || 'image';
}

/** `<index>-<custom_id or short slug>.<ext>` */
export function itemFileName(item: Pick<BatchItem, 'index' | 'customId' | 'prompt'>, mimeType: string): string {
  const stem = item.customId !== undefined ? safeName(item.customId) : slugify(item.prompt);
  return `${item.index}-${stem}.${extensionFor(mimeType)}`;
}

/** RFC 6266 header value with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
