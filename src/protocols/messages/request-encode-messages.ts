// IR messages → Anthropic `messages` (merged roles, tool results first, vendor-bound signatures only).
import { CodecError } from '../codec.ts';
import type { IRBlock, IRDocumentBlock, IRImageBlock, IRMessage, IRReasoningBlock, IRToolResultBlock } from '../ir.ts';
import { parseToolArguments, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: JsonObject[];
}

export function encodeMessages(messages: IRMessage[], dropped: string[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  messages.forEach((message, i) => {
    const content = message.content.flatMap((block, j) => encodeBlock(block, `messages[${i}].content[${j}]`, dropped));
    if (content.length === 0) return;
    const last = out.at(-1);
    if (last !== undefined && last.role === message.role) last.content.push(...content);
    else out.push({ role: message.role, content });
  });
  for (const message of out) {
    if (message.role === 'user') message.content = toolResultsFirst(message.content);
  }
  return out;
}

function toolResultsFirst(content: JsonObject[]): JsonObject[] {
  const results = content.filter((block) => block.type === 'tool_result');
  if (results.length === 0) return content;
  return [...results, ...content.filter((block) => block.type !== 'tool_result')];
}

function encodeBlock(block: IRBlock, path: string, dropped: string[]): JsonObject[] {
  switch (block.type) {
    case 'text':
      return block.text === '' ? [] : [{ type: 'text', text: block.text }];
    case 'image':
      return [encodeImage(block, path, dropped)];
    case 'document':
      return [encodeDocument(block, path)];
    case 'tool_call':
      return [
        {
          type: 'tool_use',
          id: block.id,
          name: block.name,
          input: parseToolArguments(block.arguments, `${path}.arguments`),
        },
      ];
    case 'tool_result':
      return [encodeToolResult(block, path, dropped)];
    case 'reasoning':
      return encodeReasoning(block, dropped);
  }
}

export function encodeImage(block: IRImageBlock, path: string, dropped: string[]): JsonObject {
  if (block.detail !== undefined && block.detail !== 'auto') pushUnique(dropped, 'image detail');
  const source = block.source;
  if (source.kind === 'url') return { type: 'image', source: { type: 'url', url: source.url } };
  if (!IMAGE_TYPES.has(source.mediaType)) {
    throw new CodecError(
      `image media type "${source.mediaType}" is not supported by Anthropic-type providers (jpeg, png, gif, webp only)`,
      path,
    );
  }
  return { type: 'image', source: { type: 'base64', media_type: source.mediaType, data: source.data } };
}

function encodeDocument(block: IRDocumentBlock, path: string): JsonObject {
  let source: JsonObject;
  if (block.mediaType === 'application/pdf') {
    source = { type: 'base64', media_type: 'application/pdf', data: block.data };
  } else if (block.mediaType === 'text/plain') {
    source = { type: 'text', media_type: 'text/plain', data: Buffer.from(block.data, 'base64').toString('utf8') };
  } else {
    throw new CodecError(
      `document media type "${block.mediaType}" is not supported by Anthropic-type providers (application/pdf, text/plain only)`,
      path,
    );
  }
  const out: JsonObject = { type: 'document', source };
  if (block.filename !== undefined) out.title = block.filename;
  return out;
}

function encodeToolResult(block: IRToolResultBlock, path: string, dropped: string[]): JsonObject {
  const out: JsonObject = { type: 'tool_result', tool_use_id: block.callId };
  const content = block.content.flatMap((item, i): JsonObject[] => {
    if (item.type === 'image') return [encodeImage(item, `${path}.content[${i}]`, dropped)];
    return item.text === '' ? [] : [{ type: 'text', text: item.text }];
  });
  if (content.length > 0) out.content = content;
  if (block.isError === true) out.is_error = true;
  return out;
}

/** Only Anthropic-signed or redacted thinking can be echoed to Anthropic; anything else is dropped. */
function encodeReasoning(block: IRReasoningBlock, dropped: string[]): JsonObject[] {
  if (block.redacted !== undefined) return [{ type: 'redacted_thinking', data: block.redacted }];
  if (block.signature?.vendor === 'anthropic') {
    return [{ type: 'thinking', thinking: block.text, signature: block.signature.value }];
  }
  pushUnique(dropped, 'reasoning');
  return [];
}
