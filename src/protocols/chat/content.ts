// Chat content parts ⇄ IR blocks (user side): text, image_url (data: or http(s) URL), file (PDF bytes).
import { CodecError } from '../codec.ts';
import type { IRBlock, IRDocumentBlock, IRImageBlock, IRTextBlock } from '../ir.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { fileDataDocument, imageSource, toDataUrl } from '../shared/openai-content.ts';

const DETAILS = new Set(['auto', 'low', 'high']);

function decodeImage(part: JsonObject, path: string): IRImageBlock {
  const image = part['image_url'];
  const url = isRecord(image) ? image['url'] : undefined;
  if (typeof url !== 'string') throw new CodecError(`'${path}.image_url.url' must be a string`, `${path}.image_url.url`);
  const block: IRImageBlock = { type: 'image', source: imageSource(url, `${path}.image_url.url`) };
  const detail = isRecord(image) ? image['detail'] : undefined;
  if (typeof detail === 'string' && DETAILS.has(detail)) block.detail = detail as IRImageBlock['detail'];
  return block;
}

function decodeFile(part: JsonObject, path: string): IRDocumentBlock {
  const file = part['file'];
  if (!isRecord(file)) throw new CodecError(`'${path}.file' must be an object`, `${path}.file`);
  if (typeof file['file_data'] !== 'string') {
    throw new CodecError('File parts must carry file_data: file ids cannot be translated to another provider', `${path}.file.file_id`);
  }
  return fileDataDocument(file['file_data'], typeof file['filename'] === 'string' ? file['filename'] : undefined);
}

export function decodeTextPart(part: unknown, path: string): IRTextBlock {
  if (!isRecord(part) || typeof part['text'] !== 'string') throw new CodecError(`'${path}.text' must be a string`, `${path}.text`);
  return { type: 'text', text: part['text'] };
}

function decodePart(part: unknown, path: string): IRBlock {
  if (!isRecord(part)) throw new CodecError(`'${path}' must be an object`, path);
  switch (part['type']) {
    case 'text':
      return decodeTextPart(part, path);
    case 'image_url':
      return decodeImage(part, path);
    case 'file':
      return decodeFile(part, path);
    case 'input_audio':
      throw new CodecError('Audio input cannot be translated to another provider', `${path}.type`);
    default:
      throw new CodecError(`Unsupported content part type '${String(part['type'])}'`, `${path}.type`);
  }
}

/** User message content (string or parts) → IR blocks. */
export function decodeUserContent(content: unknown, path: string): IRBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new CodecError(`'${path}' must be a string or an array of content parts`, path);
  return content.map((part, i) => decodePart(part, `${path}[${i}]`));
}

/** Text-only content (system, developer, tool): string or text parts, parts joined with `sep`. */
export function decodeTextContent(content: unknown, path: string): string[] {
  if (typeof content === 'string') return [content];
  if (content === null || content === undefined) return [];
  if (!Array.isArray(content)) throw new CodecError(`'${path}' must be a string or an array of text parts`, path);
  return content.map((part, i) => decodeTextPart(part, `${path}[${i}]`).text);
}

export function encodeImage(block: IRImageBlock): JsonObject {
  const url = block.source.kind === 'base64' ? toDataUrl(block.source.mediaType, block.source.data) : block.source.url;
  return { type: 'image_url', image_url: block.detail ? { url, detail: block.detail } : { url } };
}

export function encodeDocument(block: IRDocumentBlock): JsonObject {
  const file: JsonObject = { file_data: toDataUrl(block.mediaType, block.data) };
  if (block.filename !== undefined) file['filename'] = block.filename;
  return { type: 'file', file };
}
