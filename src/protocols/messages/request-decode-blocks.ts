// Anthropic content blocks (request side) → IR blocks.
import { CodecError } from '../codec.ts';
import type { IRBlock, IRDocumentBlock, IRImageBlock, IRReasoningBlock, IRTextBlock, IRToolResultBlock } from '../ir.ts';
import { expectRecord, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { optionalBoolean, optionalString, requireString } from './util.ts';

export function decodeContent(content: unknown, path: string, dropped: string[]): IRBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new CodecError(`${path} must be a string or an array of content blocks`, path);
  return content.map((raw, i) => decodeBlock(raw, `${path}[${i}]`, dropped));
}

function decodeBlock(raw: unknown, path: string, dropped: string[]): IRBlock {
  const block = expectRecord(raw, path);
  if (block.cache_control !== undefined) pushUnique(dropped, 'cache_control');
  switch (block.type) {
    case 'text':
      return decodeText(block, path, dropped);
    case 'image':
      return decodeImage(block, path);
    case 'document':
      return decodeDocument(block, path);
    case 'tool_use':
      return decodeToolUse(block, path);
    case 'tool_result':
      return decodeToolResult(block, path, dropped);
    case 'thinking':
      return decodeThinking(block, path);
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redacted: requireString(block, 'data', `${path}.data`) };
    default:
      throw new CodecError(`${path}: content block type "${String(block.type)}" is not supported`, `${path}.type`);
  }
}

function decodeText(block: JsonObject, path: string, dropped: string[]): IRTextBlock {
  if (block.citations !== undefined && block.citations !== null) pushUnique(dropped, 'citations');
  return { type: 'text', text: requireString(block, 'text', `${path}.text`) };
}

export function decodeImage(block: JsonObject, path: string): IRImageBlock {
  const source = expectRecord(block.source, `${path}.source`);
  if (source.type === 'base64') {
    return {
      type: 'image',
      source: {
        kind: 'base64',
        mediaType: requireString(source, 'media_type', `${path}.source.media_type`),
        data: requireString(source, 'data', `${path}.source.data`),
      },
    };
  }
  if (source.type === 'url') {
    return { type: 'image', source: { kind: 'url', url: requireString(source, 'url', `${path}.source.url`) } };
  }
  throw new CodecError(`${path}.source: image source type "${String(source.type)}" is not supported`, `${path}.source.type`);
}

function decodeDocument(block: JsonObject, path: string): IRDocumentBlock {
  const source = expectRecord(block.source, `${path}.source`);
  const title = optionalString(block, 'title', `${path}.title`);
  const named = (doc: IRDocumentBlock): IRDocumentBlock => (title === undefined ? doc : { ...doc, filename: title });
  if (source.type === 'base64') {
    return named({
      type: 'document',
      mediaType: requireString(source, 'media_type', `${path}.source.media_type`),
      data: requireString(source, 'data', `${path}.source.data`),
    });
  }
  if (source.type === 'text') {
    const text = requireString(source, 'data', `${path}.source.data`);
    return named({ type: 'document', mediaType: 'text/plain', data: Buffer.from(text, 'utf8').toString('base64') });
  }
  throw new CodecError(`${path}.source: document source type "${String(source.type)}" is not supported`, `${path}.source.type`);
}

function decodeToolUse(block: JsonObject, path: string): IRBlock {
  const input = block.input ?? {};
  expectRecord(input, `${path}.input`);
  return {
    type: 'tool_call',
    id: requireString(block, 'id', `${path}.id`),
    name: requireString(block, 'name', `${path}.name`),
    arguments: JSON.stringify(input),
  };
}

function decodeToolResult(block: JsonObject, path: string, dropped: string[]): IRToolResultBlock {
  const result: IRToolResultBlock = {
    type: 'tool_result',
    callId: requireString(block, 'tool_use_id', `${path}.tool_use_id`),
    content: decodeToolResultContent(block.content, `${path}.content`, dropped),
  };
  if (optionalBoolean(block, 'is_error', `${path}.is_error`) === true) result.isError = true;
  return result;
}

function decodeToolResultContent(content: unknown, path: string, dropped: string[]): Array<IRTextBlock | IRImageBlock> {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new CodecError(`${path} must be a string or an array of blocks`, path);
  return content.map((raw, i) => {
    const item = expectRecord(raw, `${path}[${i}]`);
    if (item.cache_control !== undefined) pushUnique(dropped, 'cache_control');
    if (item.type === 'text') return { type: 'text', text: requireString(item, 'text', `${path}[${i}].text`) };
    if (item.type === 'image') return decodeImage(item, `${path}[${i}]`);
    throw new CodecError(`${path}[${i}]: "${String(item.type)}" blocks inside tool_result are not supported`, `${path}[${i}].type`);
  });
}

function decodeThinking(block: JsonObject, path: string): IRReasoningBlock {
  const reasoning: IRReasoningBlock = { type: 'reasoning', text: requireString(block, 'thinking', `${path}.thinking`) };
  const signature = optionalString(block, 'signature', `${path}.signature`);
  if (signature !== undefined && signature !== '') reasoning.signature = { vendor: 'anthropic', value: signature };
  return reasoning;
}
