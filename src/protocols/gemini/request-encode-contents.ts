// IR messages → Gemini `contents` (roles, functionCall/functionResponse pairing, thought signatures).
import { CodecError } from '../codec.ts';
import type { IRBlock, IRImageBlock, IRMessage, IRToolResultBlock } from '../ir.ts';
import { encodeWithSignatures } from './signatures.ts';
import { isRecord, parseToolArguments, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

interface GeminiContent {
  role: 'user' | 'model';
  parts: JsonObject[];
}

const EXTENSION_MIME: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
};

export function encodeContents(messages: IRMessage[], dropped: string[]): GeminiContent[] {
  const names = new Map<string, string>();
  const out: GeminiContent[] = [];
  messages.forEach((message, i) => {
    for (const block of message.content) if (block.type === 'tool_call') names.set(block.id, block.name);
    const parts = encodeMessageParts(message, `messages[${i}]`, names, dropped);
    if (parts.length === 0) return;
    const role = message.role === 'assistant' ? 'model' : 'user';
    const last = out.at(-1);
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  });
  for (const content of out) content.parts = functionResponsesFirst(content.parts);
  return out;
}

function functionResponsesFirst(parts: JsonObject[]): JsonObject[] {
  const responses = parts.filter((part) => part.functionResponse !== undefined);
  if (responses.length === 0) return parts;
  return [...responses, ...parts.filter((part) => part.functionResponse === undefined)];
}

function encodeMessageParts(message: IRMessage, path: string, names: Map<string, string>, dropped: string[]): JsonObject[] {
  return encodeWithSignatures(message.content, (block, j) => encodeBlock(block, `${path}.content[${j}]`, names, dropped));
}

function encodeBlock(block: IRBlock, path: string, names: Map<string, string>, dropped: string[]): JsonObject[] {
  switch (block.type) {
    case 'text':
      return block.text === '' ? [] : [{ text: block.text }];
    case 'image':
      return [encodeImage(block, dropped)];
    case 'document':
      return [{ inlineData: { mimeType: block.mediaType, data: block.data } }];
    case 'tool_call': {
      const part: JsonObject = {
        functionCall: { id: block.id, name: block.name, args: parseToolArguments(block.arguments, `${path}.arguments`) },
      };
      if (block.signature?.vendor === 'gemini') part.thoughtSignature = block.signature.value;
      return [part];
    }
    case 'tool_result':
      return encodeToolResult(block, path, names, dropped);
    case 'reasoning':
      if (block.signature?.vendor === 'gemini' && block.redacted === undefined) {
        return [{ text: block.text, thought: true, thoughtSignature: block.signature.value }];
      }
      pushUnique(dropped, 'reasoning');
      return [];
  }
}

export function encodeImage(block: IRImageBlock, dropped: string[]): JsonObject {
  if (block.detail !== undefined && block.detail !== 'auto') pushUnique(dropped, 'image detail');
  const source = block.source;
  if (source.kind === 'base64') return { inlineData: { mimeType: source.mediaType, data: source.data } };
  const dataUrl = /^data:([^;,]+);base64,(.*)$/s.exec(source.url);
  if (dataUrl?.[1] !== undefined && dataUrl[2] !== undefined) return { inlineData: { mimeType: dataUrl[1], data: dataUrl[2] } };
  const mimeType = mimeFromUri(source.url);
  return { fileData: mimeType === undefined ? { fileUri: source.url } : { fileUri: source.url, mimeType } };
}

function mimeFromUri(uri: string): string | undefined {
  const extension = /\.([a-z0-9]+)(?:[?#].*)?$/i.exec(uri)?.[1]?.toLowerCase();
  return extension === undefined ? undefined : EXTENSION_MIME[extension];
}

/** tool_result → functionResponse {name, id, response:{output}|{error}}; images follow as sibling parts. */
function encodeToolResult(block: IRToolResultBlock, path: string, names: Map<string, string>, dropped: string[]): JsonObject[] {
  const name = block.name ?? names.get(block.callId);
  if (name === undefined) {
    throw new CodecError(
      `${path}: tool result for call id "${block.callId}" has no matching earlier tool call (Gemini needs the function name)`,
      path,
    );
  }
  const text = block.content.flatMap((item) => (item.type === 'text' ? [item.text] : [])).join('\n');
  const response = block.isError === true ? { error: text } : { output: parseOutput(text) };
  const images = block.content.flatMap((item) => (item.type === 'image' ? [encodeImage(item, dropped)] : []));
  return [{ functionResponse: { id: block.callId, name, response } }, ...images];
}

/** A result that is a JSON object (or array) is passed as structured output; anything else stays a string. */
function parseOutput(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return isRecord(parsed) || Array.isArray(parsed) ? parsed : text;
  } catch {
    return text;
  }
}
