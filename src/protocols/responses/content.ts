// Responses content parts ⇄ IR blocks: input_text / output_text / refusal, input_image (data: or http(s)
// URL), input_file (bytes) — protocols.md §2.2, §8.4.
import { CodecError } from '../codec.ts';
import type { IRBlock, IRDocumentBlock, IRImageBlock, IRTextBlock } from '../ir.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { fileDataDocument, imageSource, toDataUrl } from '../shared/openai-content.ts';

const TEXT_TYPES = new Set(['input_text', 'output_text', 'text']);

function decodeImage(part: JsonObject, path: string): IRImageBlock {
  const url = part['image_url'];
  if (typeof url !== 'string') {
    throw new CodecError('input_image needs image_url: file ids cannot be translated to another provider', `${path}.image_url`);
  }
  const block: IRImageBlock = { type: 'image', source: imageSource(url, `${path}.image_url`) };
  const detail = part['detail'];
  if (detail === 'auto' || detail === 'low' || detail === 'high') block.detail = detail;
  else if (detail === 'original') block.detail = 'high';
  return block;
}

function decodeFile(part: JsonObject, path: string): IRDocumentBlock {
  const data = part['file_data'];
  if (typeof data !== 'string') {
    throw new CodecError('input_file needs file_data: file ids and file URLs cannot be translated to another provider', `${path}.file_data`);
  }
  return fileDataDocument(data, typeof part['filename'] === 'string' ? part['filename'] : undefined);
}

export function decodeText(part: JsonObject, path: string): IRTextBlock {
  if (typeof part['text'] !== 'string') throw new CodecError(`'${path}.text' must be a string`, `${path}.text`);
  return { type: 'text', text: part['text'] };
}

export function decodePart(part: unknown, path: string): IRBlock {
  if (!isRecord(part)) throw new CodecError(`'${path}' must be an object`, path);
  const type = part['type'];
  if (typeof type === 'string' && TEXT_TYPES.has(type)) return decodeText(part, path);
  if (type === 'refusal' && typeof part['refusal'] === 'string') return { type: 'text', text: part['refusal'] };
  if (type === 'input_image') return decodeImage(part, path);
  if (type === 'input_file') return decodeFile(part, path);
  throw new CodecError(`Unsupported content part type '${String(type)}'`, `${path}.type`);
}

/** Message content: a string (one text block) or an array of parts. */
export function decodeContent(content: unknown, path: string): IRBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new CodecError(`'${path}' must be a string or an array of content parts`, path);
  return content.map((part, i) => decodePart(part, `${path}[${i}]`));
}

/** system/developer content → text. */
export function decodeTextOnly(content: unknown, path: string): string {
  return decodeContent(content, path)
    .map((block, i) => {
      if (block.type !== 'text') throw new CodecError('System and developer messages may only contain text', `${path}[${i}]`);
      return block.text;
    })
    .join('\n');
}

export function encodeInputPart(block: IRTextBlock | IRImageBlock | IRDocumentBlock): JsonObject {
  switch (block.type) {
    case 'text':
      return { type: 'input_text', text: block.text };
    case 'image': {
      const url = block.source.kind === 'base64' ? toDataUrl(block.source.mediaType, block.source.data) : block.source.url;
      return { type: 'input_image', image_url: url, detail: block.detail ?? 'auto' };
    }
    case 'document': {
      const part: JsonObject = { type: 'input_file', file_data: toDataUrl(block.mediaType, block.data) };
      if (block.filename !== undefined) part['filename'] = block.filename;
      return part;
    }
  }
}
