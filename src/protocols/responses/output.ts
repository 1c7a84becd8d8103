// Response output items ⇄ IR blocks (protocols.md §2.4): reasoning items, assistant message items with
// output_text parts, function_call items (`id: fc_…`, `call_id` = the IR tool-call id).
import type { IRBlock, IRReasoningBlock, IRToolCallBlock } from '../ir.ts';
import { decodeReasoningItem } from './input-decode.ts';
import { packReasoningToken } from './signature.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { newId } from './util.ts';

export type ItemStatus = 'in_progress' | 'completed';

export function outputTextPart(text: string): JsonObject {
  return { type: 'output_text', annotations: [], logprobs: [], text };
}

export function messageItem(id: string, texts: string[], status: ItemStatus): JsonObject {
  return { id, type: 'message', status, content: texts.map(outputTextPart), role: 'assistant' };
}

export function functionCallItem(id: string, call: Pick<IRToolCallBlock, 'id' | 'name' | 'arguments'>, status: ItemStatus): JsonObject {
  return { id, type: 'function_call', status, arguments: call.arguments, call_id: call.id, name: call.name };
}

export function summaryPart(text: string): JsonObject {
  return { type: 'summary_text', text };
}

export function reasoningItem(id: string, block: Pick<IRReasoningBlock, 'text' | 'signature' | 'redacted'>): JsonObject {
  const item: JsonObject = { id, type: 'reasoning', summary: block.text === '' ? [] : [summaryPart(block.text)] };
  const token = packReasoningToken(block);
  if (token !== undefined) item['encrypted_content'] = token;
  return item;
}

/** IR content → output items; consecutive text blocks share one message item. */
export function encodeOutput(blocks: IRBlock[]): JsonObject[] {
  const out: JsonObject[] = [];
  let texts: string[] = [];
  const flush = (): void => {
    if (texts.length > 0) out.push(messageItem(newId('msg'), texts, 'completed'));
    texts = [];
  };
  for (const block of blocks) {
    if (block.type === 'text') {
      texts.push(block.text);
      continue;
    }
    flush();
    if (block.type === 'reasoning') out.push(reasoningItem(newId('rs'), block));
    else if (block.type === 'tool_call') out.push(functionCallItem(newId('fc'), block, 'completed'));
  }
  flush();
  return out;
}

function decodeMessageItem(item: JsonObject): IRBlock[] {
  const content = Array.isArray(item['content']) ? item['content'] : [];
  return content.flatMap((part): IRBlock[] => {
    if (!isRecord(part)) return [];
    if (part['type'] === 'output_text' && typeof part['text'] === 'string') return [{ type: 'text', text: part['text'] }];
    if (part['type'] === 'refusal' && typeof part['refusal'] === 'string') return [{ type: 'text', text: part['refusal'] }];
    return [];
  });
}

function decodeFunctionCallItem(item: JsonObject): IRToolCallBlock {
  return {
    type: 'tool_call',
    id: typeof item['call_id'] === 'string' ? item['call_id'] : newId('call'),
    name: typeof item['name'] === 'string' ? item['name'] : '',
    arguments: typeof item['arguments'] === 'string' ? item['arguments'] : '',
  };
}

/** Output items → IR content. Hosted-tool items (web_search_call, …) have no IR form and are skipped. */
export function decodeOutput(items: unknown): IRBlock[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((item): IRBlock[] => {
    if (!isRecord(item)) return [];
    if (item['type'] === 'message') return decodeMessageItem(item);
    if (item['type'] === 'function_call') return [decodeFunctionCallItem(item)];
    if (item['type'] === 'reasoning') return [decodeReasoningItem(item)];
    return [];
  });
}
