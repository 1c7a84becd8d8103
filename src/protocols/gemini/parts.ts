// Gemini parts → IR blocks (protocols.md §4.3, §8.7, §8.8). Shared by request and response decoding.
import { CodecError } from '../codec.ts';
import type { IRBlock, IRImageBlock, IRTextBlock, IRToolCallBlock, IRToolResultBlock, Vendor } from '../ir.ts';
import { expectRecord, isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { field, requireStringOf, stringField, stringOf } from './util.ts';

export interface PartIds {
  /** Id for a functionCall: its own id, or one synthesised for this position. */
  call(explicitId: string | undefined, partIndex: number): string;
  /** Id for a functionResponse: its own id, or the matching earlier call's. */
  result(name: string, explicitId: string | undefined, partIndex: number): string;
}

export interface PartDecodeOptions {
  ids: PartIds;
  path: string;
  /** Requests reject parts the IR cannot carry; upstream responses skip them. */
  strict: boolean;
}

type Signature = { vendor: Vendor; value: string };

export function decodeParts(parts: unknown[], options: PartDecodeOptions): IRBlock[] {
  return parts.flatMap((raw, i) => {
    const path = `${options.path}[${i}]`;
    if (!isRecord(raw)) {
      if (options.strict) throw new CodecError(`${path} must be an object`, path);
      return [];
    }
    return decodePart(raw, i, path, options);
  });
}

function decodePart(part: JsonObject, index: number, path: string, options: PartDecodeOptions): IRBlock[] {
  const value = stringOf(part, 'thoughtSignature', `${path}.thoughtSignature`);
  const signature: Signature | undefined = value === undefined || value === '' ? undefined : { vendor: 'gemini', value };
  const functionCall = field(part, 'functionCall');
  if (functionCall !== undefined) return [decodeFunctionCall(functionCall, index, `${path}.functionCall`, options.ids, signature)];
  const functionResponse = field(part, 'functionResponse');
  if (functionResponse !== undefined) return [decodeFunctionResponse(functionResponse, index, `${path}.functionResponse`, options)];
  const text = field(part, 'text');
  if (typeof text === 'string') return decodeText(text, field(part, 'thought') === true, signature);
  const media = decodeMedia(part, path, options.strict);
  if (media !== undefined) return signature === undefined ? media : [{ type: 'reasoning', text: '', signature }, ...media];
  if (signature !== undefined) return [{ type: 'reasoning', text: '', signature }];
  for (const unsupported of ['executableCode', 'codeExecutionResult']) {
    if (field(part, unsupported) !== undefined && options.strict) {
      throw new CodecError(`${path}.${unsupported} parts cannot be translated to other providers`, `${path}.${unsupported}`);
    }
  }
  return [];
}

/** A thought part is reasoning; a signature on a plain text part becomes an empty signed reasoning block before it. */
function decodeText(text: string, thought: boolean, signature: Signature | undefined): IRBlock[] {
  if (thought) return [signature === undefined ? { type: 'reasoning', text } : { type: 'reasoning', text, signature }];
  const blocks: IRBlock[] = [];
  if (signature !== undefined) blocks.push({ type: 'reasoning', text: '', signature });
  if (text !== '') blocks.push({ type: 'text', text });
  return blocks;
}

function decodeFunctionCall(raw: unknown, index: number, path: string, ids: PartIds, signature: Signature | undefined): IRToolCallBlock {
  const call = expectRecord(raw, path);
  const args = field(call, 'args') ?? {};
  const block: IRToolCallBlock = {
    type: 'tool_call',
    id: ids.call(stringOf(call, 'id', `${path}.id`), index),
    name: requireStringOf(call, 'name', `${path}.name`),
    arguments: JSON.stringify(expectRecord(args, `${path}.args`)),
  };
  if (signature !== undefined) block.signature = signature;
  return block;
}

function decodeFunctionResponse(raw: unknown, index: number, path: string, options: PartDecodeOptions): IRToolResultBlock {
  const fr = expectRecord(raw, path);
  const name = requireStringOf(fr, 'name', `${path}.name`);
  const response = isRecord(fr.response) ? fr.response : {};
  const isError = response.error !== undefined && response.output === undefined;
  const payload = isError ? response.error : (response.output ?? response);
  const content: Array<IRTextBlock | IRImageBlock> = [{ type: 'text', text: typeof payload === 'string' ? payload : JSON.stringify(payload) }];
  const parts = field(fr, 'parts');
  if (Array.isArray(parts)) {
    parts.forEach((item, i) => {
      const media = isRecord(item) ? decodeMedia(item, `${path}.parts[${i}]`, options.strict) : undefined;
      for (const block of media ?? []) if (block.type === 'image') content.push(block);
    });
  }
  const block: IRToolResultBlock = {
    type: 'tool_result',
    callId: options.ids.result(name, stringOf(fr, 'id', `${path}.id`), index),
    name,
    content,
  };
  if (isError) block.isError = true;
  return block;
}

/** inlineData / fileData → image or document; `undefined` when the part holds neither. */
function decodeMedia(part: JsonObject, path: string, strict: boolean): IRBlock[] | undefined {
  const inline = field(part, 'inlineData');
  if (isRecord(inline)) {
    const mimeType = requireStringOf(inline, 'mimeType', `${path}.inlineData.mimeType`);
    const data = requireStringOf(inline, 'data', `${path}.inlineData.data`);
    if (mimeType.startsWith('image/')) return [{ type: 'image', source: { kind: 'base64', mediaType: mimeType, data } }];
    if (mimeType === 'application/pdf' || mimeType.startsWith('text/')) return [{ type: 'document', mediaType: mimeType, data }];
    return unsupportedMedia(`inlineData with mimeType "${mimeType}"`, `${path}.inlineData.mimeType`, strict);
  }
  const file = field(part, 'fileData');
  if (isRecord(file)) {
    const uri = requireStringOf(file, 'fileUri', `${path}.fileData.fileUri`);
    const mimeType = stringField(file, 'mimeType');
    if (mimeType === undefined || mimeType.startsWith('image/')) return [{ type: 'image', source: { kind: 'url', url: uri } }];
    return unsupportedMedia(`fileData with mimeType "${mimeType}"`, `${path}.fileData.mimeType`, strict);
  }
  return undefined;
}

function unsupportedMedia(what: string, path: string, strict: boolean): IRBlock[] {
  if (strict) throw new CodecError(`${path}: ${what} cannot be translated to other providers`, path);
  return [];
}
