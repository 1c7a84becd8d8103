// IR messages → Responses `input` items for a Responses-capable upstream (protocols.md §2.2). Block order is
// kept exactly: text/image/file runs become message items, tool results become function_call_output
// items, tool calls become function_call items. Only OpenAI's own encrypted reasoning can be sent back.
import type { IRBlock, IRMessage, IRReasoningBlock, IRToolResultBlock } from '../ir.ts';
import { encodeInputPart } from './content.ts';
import { pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { newId } from './util.ts';

function encodeToolOutput(block: IRToolResultBlock, dropped: string[]): JsonObject {
  if (block.isError) pushUnique(dropped, 'tool_result.is_error');
  const only = block.content[0];
  const output = block.content.length === 0 ? '' : block.content.length === 1 && only?.type === 'text' ? only.text : block.content.map(encodeInputPart);
  return { type: 'function_call_output', call_id: block.callId, output };
}

function encodeReasoning(block: IRReasoningBlock, dropped: string[]): JsonObject | undefined {
  if (block.signature?.vendor !== 'openai' || block.redacted !== undefined) {
    pushUnique(dropped, 'reasoning');
    return undefined;
  }
  const summary = block.text === '' ? [] : [{ type: 'summary_text', text: block.text }];
  return { type: 'reasoning', id: newId('rs'), summary, encrypted_content: block.signature.value };
}

function encodeUser(message: IRMessage, dropped: string[], out: JsonObject[]): void {
  let parts: JsonObject[] = [];
  const flush = (): void => {
    if (parts.length > 0) out.push({ type: 'message', role: 'user', content: parts });
    parts = [];
  };
  for (const block of message.content) {
    if (block.type === 'tool_result') {
      flush();
      out.push(encodeToolOutput(block, dropped));
    } else if (block.type === 'text' || block.type === 'image' || block.type === 'document') {
      parts.push(encodeInputPart(block));
    } else {
      pushUnique(dropped, `user.${block.type}`);
    }
  }
  flush();
}

function assistantItem(block: IRBlock, dropped: string[]): JsonObject | undefined {
  switch (block.type) {
    case 'tool_call':
      return { type: 'function_call', call_id: block.id, name: block.name, arguments: block.arguments };
    case 'reasoning':
      return encodeReasoning(block, dropped);
    default:
      pushUnique(dropped, `assistant.${block.type}`);
      return undefined;
  }
}

function encodeAssistant(message: IRMessage, dropped: string[], out: JsonObject[]): void {
  let texts: JsonObject[] = [];
  const flush = (): void => {
    if (texts.length > 0) out.push({ type: 'message', role: 'assistant', content: texts });
    texts = [];
  };
  for (const block of message.content) {
    if (block.type === 'text') {
      texts.push({ type: 'output_text', text: block.text, annotations: [] });
      continue;
    }
    flush();
    const item = assistantItem(block, dropped);
    if (item) out.push(item);
  }
  flush();
}

export function encodeInput(messages: IRMessage[], dropped: string[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const message of messages) {
    if (message.role === 'user') encodeUser(message, dropped, out);
    else encodeAssistant(message, dropped, out);
  }
  return out;
}
