// Responses `input` (string or items) → IR system text + IR messages (protocols.md §2.2, §8.2).
// Consecutive assistant-side items (reasoning, assistant message, function_call) form ONE assistant message;
// consecutive function_call_output items form ONE user message of tool results, and a user message that
// follows them joins it (the Anthropic form the IR uses).
import { CodecError } from '../codec.ts';
import type { IRBlock, IRMessage, IRReasoningBlock, IRToolResultBlock } from '../ir.ts';
import { decodeContent, decodePart, decodeTextOnly } from './content.ts';
import { unpackReasoningToken } from './signature.ts';
import { isRecord, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

interface DecodeState {
  system: string[];
  messages: IRMessage[];
  turn: 'user' | 'assistant' | 'tool' | 'none';
  dropped: string[];
}

function push(state: DecodeState, role: IRMessage['role'], blocks: IRBlock[], turn: DecodeState['turn']): void {
  const last = state.messages[state.messages.length - 1];
  const joins = last?.role === role && (state.turn === 'assistant' || (state.turn === 'tool' && role === 'user'));
  if (joins && last) last.content.push(...blocks);
  else state.messages.push({ role, content: blocks });
  state.turn = turn;
}

function decodeMessage(state: DecodeState, item: JsonObject, path: string): void {
  const role = item['role'];
  const content = item['content'];
  if (role === 'system' || role === 'developer') {
    state.system.push(decodeTextOnly(content, `${path}.content`));
  } else if (role === 'user') {
    push(state, 'user', decodeContent(content, `${path}.content`), 'user');
  } else if (role === 'assistant') {
    const blocks = decodeContent(content, `${path}.content`).filter((block) => block.type !== 'text' || block.text !== '');
    push(state, 'assistant', blocks, 'assistant');
  } else {
    throw new CodecError(`'${path}.role' must be one of user, assistant, system, developer`, `${path}.role`);
  }
}

function decodeFunctionCall(state: DecodeState, item: JsonObject, path: string): void {
  if (typeof item['call_id'] !== 'string') throw new CodecError(`'${path}.call_id' is required`, `${path}.call_id`);
  if (typeof item['name'] !== 'string') throw new CodecError(`'${path}.name' is required`, `${path}.name`);
  const args = typeof item['arguments'] === 'string' ? item['arguments'] : '';
  push(state, 'assistant', [{ type: 'tool_call', id: item['call_id'], name: item['name'], arguments: args }], 'assistant');
}

function decodeOutputContent(output: unknown, path: string, dropped: string[]): IRToolResultBlock['content'] {
  if (typeof output === 'string') return output === '' ? [] : [{ type: 'text', text: output }];
  if (!Array.isArray(output)) throw new CodecError(`'${path}' must be a string or an array of content parts`, path);
  const content: IRToolResultBlock['content'] = [];
  output.forEach((part, i) => {
    const block = decodePart(part, `${path}[${i}]`);
    if (block.type === 'text' || block.type === 'image') content.push(block);
    else pushUnique(dropped, 'function_call_output.input_file');
  });
  return content;
}

function decodeFunctionOutput(state: DecodeState, item: JsonObject, path: string): void {
  if (typeof item['call_id'] !== 'string') throw new CodecError(`'${path}.call_id' is required`, `${path}.call_id`);
  const content = decodeOutputContent(item['output'], `${path}.output`, state.dropped);
  push(state, 'user', [{ type: 'tool_result', callId: item['call_id'], content }], 'tool');
}

function textsOf(parts: unknown): string[] {
  if (!Array.isArray(parts)) return [];
  return parts.flatMap((part) => (isRecord(part) && typeof part['text'] === 'string' ? [part['text']] : []));
}

/** A reasoning item: summary texts (or raw reasoning_text content) joined by blank lines. */
export function decodeReasoningItem(item: JsonObject): IRReasoningBlock {
  const summary = textsOf(item['summary']);
  const text = (summary.length > 0 ? summary : textsOf(item['content'])).join('\n\n');
  const block: IRReasoningBlock = { type: 'reasoning', text };
  const token = item['encrypted_content'];
  if (typeof token === 'string' && token !== '') Object.assign(block, unpackReasoningToken(token));
  return block;
}

function itemType(item: JsonObject): unknown {
  return item['type'] ?? (item['role'] !== undefined ? 'message' : undefined);
}

function decodeItem(state: DecodeState, item: unknown, path: string): void {
  if (!isRecord(item)) throw new CodecError(`'${path}' must be an object`, path);
  const type = itemType(item);
  switch (type) {
    case 'message':
      return decodeMessage(state, item, path);
    case 'function_call':
      return decodeFunctionCall(state, item, path);
    case 'function_call_output':
      return decodeFunctionOutput(state, item, path);
    case 'reasoning':
      return push(state, 'assistant', [decodeReasoningItem(item)], 'assistant');
    case 'item_reference':
      throw new CodecError('item_reference needs stored responses, which this gateway does not keep; send the items themselves', `${path}.type`);
    default:
      throw new CodecError(`Input item type '${String(type)}' cannot be translated to another provider`, `${path}.type`);
  }
}

export function decodeInput(input: unknown, dropped: string[]): { system: string[]; messages: IRMessage[] } {
  if (typeof input === 'string') return { system: [], messages: [{ role: 'user', content: [{ type: 'text', text: input }] }] };
  if (!Array.isArray(input)) throw new CodecError("'input' must be a string or an array of input items", 'input');
  const state: DecodeState = { system: [], messages: [], turn: 'none', dropped };
  input.forEach((item, i) => decodeItem(state, item, `input[${i}]`));
  return { system: state.system, messages: state.messages };
}
