// IR system + messages → Chat `messages[]` for an OpenAI-type upstream (protocols.md §8.2, §8.8).
// A user message's tool results become `tool` messages (in order) followed by one user message with the
// remaining blocks. Chat cannot carry reasoning history, images inside tool results, tool-result error
// flags or non-text assistant content: those are dropped and reported.
import type { IRBlock, IRMessage, IRRequest, IRToolResultBlock } from '../ir.ts';
import { encodeDocument, encodeImage } from './content.ts';
import { pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

function textParts(texts: string[]): unknown {
  if (texts.length === 1) return texts[0];
  if (texts.length === 0) return '';
  return texts.map((text) => ({ type: 'text', text }));
}

function encodeToolResult(block: IRToolResultBlock, dropped: string[]): JsonObject {
  const texts: string[] = [];
  for (const part of block.content) {
    if (part.type === 'text') texts.push(part.text);
    else pushUnique(dropped, 'tool_result.image');
  }
  if (block.isError) pushUnique(dropped, 'tool_result.is_error');
  return { role: 'tool', tool_call_id: block.callId, content: textParts(texts) };
}

function encodeUserPart(block: IRBlock, dropped: string[]): JsonObject | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return encodeImage(block);
    case 'document':
      return encodeDocument(block);
    default:
      pushUnique(dropped, `user.${block.type}`);
      return undefined;
  }
}

function encodeUser(message: IRMessage, dropped: string[]): JsonObject[] {
  const out: JsonObject[] = [];
  const parts: JsonObject[] = [];
  for (const block of message.content) {
    if (block.type === 'tool_result') out.push(encodeToolResult(block, dropped));
    else {
      const part = encodeUserPart(block, dropped);
      if (part) parts.push(part);
    }
  }
  if (parts.length > 0) {
    const single = parts.length === 1 && parts[0]?.['type'] === 'text' ? parts[0]['text'] : undefined;
    out.push({ role: 'user', content: single ?? parts });
  } else if (out.length === 0) {
    out.push({ role: 'user', content: '' });
  }
  return out;
}

function encodeAssistant(message: IRMessage, dropped: string[]): JsonObject {
  const texts: string[] = [];
  const calls: JsonObject[] = [];
  for (const block of message.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_call') {
      calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: block.arguments } });
    } else pushUnique(dropped, block.type === 'reasoning' ? 'reasoning' : `assistant.${block.type}`);
  }
  const out: JsonObject = { role: 'assistant', content: texts.length > 0 ? texts.join('') : calls.length > 0 ? null : '' };
  if (calls.length > 0) out['tool_calls'] = calls;
  return out;
}

export function encodeMessages(request: IRRequest, dropped: string[]): JsonObject[] {
  const out: JsonObject[] = [];
  if (request.system !== undefined && request.system !== '') out.push({ role: 'system', content: request.system });
  for (const message of request.messages) {
    if (message.role === 'user') out.push(...encodeUser(message, dropped));
    else out.push(encodeAssistant(message, dropped));
  }
  return out;
}
