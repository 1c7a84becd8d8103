// Media in the two OpenAI APIs: both carry images as a data: or http(s) URL and files as a data: URL or bare
// base64, so Chat and Responses read and write them with the same rules (only the part shapes differ).
import { CodecError } from '../codec.ts';
import type { IRDocumentBlock, IRImageBlock } from '../ir.ts';

export interface DataUrl {
  mediaType: string;
  data: string;
}

/** `data:<mime>[;param…];base64,<payload>` → parts; undefined when the string is not a base64 data URL. */
export function parseDataUrl(url: string): DataUrl | undefined {
  const match = /^data:([^;,]+)(?:;[^;,]+)*;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] ?? '', data: match[2] ?? '' };
}

export function toDataUrl(mediaType: string, data: string): string {
  return `data:${mediaType};base64,${data}`;
}

/** data: URLs become base64 sources, http(s) URLs stay URLs; anything else cannot be carried. */
export function imageSource(url: string, path: string): IRImageBlock['source'] {
  const parsed = parseDataUrl(url);
  if (parsed) return { kind: 'base64', mediaType: parsed.mediaType, data: parsed.data };
  if (/^https?:\/\//i.test(url)) return { kind: 'url', url };
  throw new CodecError(`'${path}' must be an http(s) URL or a base64 data URL`, path);
}

/** Media type of bare base64 file data, guessed from the file name (PDF unless it says otherwise). */
function mediaTypeForFilename(filename: string | undefined): string {
  if (filename && /\.txt$/i.test(filename)) return 'text/plain';
  if (filename && /\.(md|markdown)$/i.test(filename)) return 'text/markdown';
  return 'application/pdf';
}

/** `file_data` (a data URL, or bare base64 typed by the file name) → a document block. */
export function fileDataDocument(fileData: string, filename: string | undefined): IRDocumentBlock {
  const parsed = parseDataUrl(fileData);
  const block: IRDocumentBlock = parsed
    ? { type: 'document', mediaType: parsed.mediaType, data: parsed.data }
    : { type: 'document', mediaType: mediaTypeForFilename(filename), data: fileData };
  if (filename !== undefined) block.filename = filename;
  return block;
}
