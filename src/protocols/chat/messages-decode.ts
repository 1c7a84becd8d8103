// Chat `messages[]` → IR system text + IR messages (protocols.md §1.2, §8.2 merging rules).
// system/developer messages are hoisted into one system string (joined with blank lines); consecutive
// `tool` messages become tool_result blocks of ONE user message, and a user message that follows them is
// appended to that same message (the Anthropic form the IR uses).
import { CodecError } from '../codec.ts';
import type { IRBlock, IRMessage, IRToolCallBlock } from '../ir.ts';
import { decodeTextContent, decodeTextPart, decodeUserContent } from './content.ts';
import { isRecord, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

interface DecodeState {
  system: string[];
  messages: IRMessage[];
  /** The last IR message is a user message holding tool results (further results/user blocks join it). */
  inToolTurn: boolean;
  dropped: string[];
}

function decodeToolCall(call: unknown, path: string): IRToolCallBlock {
  if (!isRecord(call)) throw new CodecError(`'${path}' must be an object`, path);
  if (call['type'] !== undefined && call['type'] !== 'function') {
    throw new CodecError(`Tool call type '${String(call['type'])}' cannot be translated to another provider`, `${path}.type`);
  }
  const fn = call['function'];
  if (typeof call['id'] !== 'string') throw new CodecError(`'${path}.id' is required`, `${path}.id`);
  if (!isRecord(fn) || typeof fn['name'] !== 'string') throw new CodecError(`'${path}.function.name' is required`, `${path}.function.name`);
  const args = fn['arguments'];
  const text = typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args);
  return { type: 'tool_call', id: call['id'], name: fn['name'], arguments: text };
}

function decodeAssistantContent(content: unknown, path: string): IRBlock[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw new CodecError(`'${path}' must be a string, an array or null`, path);
  return content.map((part, i): IRBlock => {
    if (isRecord(part) && part['type'] === 'refusal' && typeof part['refusal'] === 'string') return { type: 'text', text: part['refusal'] };
    return decodeTextPart(part, `${path}[${i}]`);
  });
}

function decodeAssistant(message: JsonObject, path: string): IRMessage {
  if (message['function_call'] !== undefined && message['function_call'] !== null) {
    throw new CodecError('Legacy function_call messages are not supported; use tool_calls', `${path}.function_call`);
  }
  const content: IRBlock[] = [];
  const reasoning = message['reasoning_content'];
  if (typeof reasoning === 'string' && reasoning !== '') content.push({ type: 'reasoning', text: reasoning });
  content.push(...decodeAssistantContent(message['content'], `${path}.content`));
  if (typeof message['refusal'] === 'string' && message['refusal'] !== '') content.push({ type: 'text', text: message['refusal'] });
  const calls = message['tool_calls'];
  if (calls !== undefined && calls !== null) {
    if (!Array.isArray(calls)) throw new CodecError(`'${path}.tool_calls' must be an array`, `${path}.tool_calls`);
    calls.forEach((call, i) => content.push(decodeToolCall(call, `${path}.tool_calls[${i}]`)));
  }
  return { role: 'assistant', content };
}

function pushUserBlocks(state: DecodeState, blocks: IRBlock[], fromTool: boolean): void {
  const last = state.messages[state.messages.length - 1];
  if (state.inToolTurn && last?.role === 'user') last.content.push(...blocks);
  else state.messages.push({ role: 'user', content: blocks });
  state.inToolTurn = fromTool;
}

function decodeToolMessage(state: DecodeState, message: JsonObject, path: string): void {
  const callId = message['tool_call_id'];
  if (typeof callId !== 'string') throw new CodecError(`'${path}.tool_call_id' is required`, `${path}.tool_call_id`);
  const texts = decodeTextContent(message['content'], `${path}.content`).filter((text) => text !== '');
  const content = texts.map((text) => ({ type: 'text' as const, text }));
  pushUserBlocks(state, [{ type: 'tool_result', callId, content }], true);
}

function decodeOne(state: DecodeState, message: unknown, path: string): void {
  if (!isRecord(message)) throw new CodecError(`'${path}' must be an object`, path);
  const role = message['role'];
  if (message['name'] !== undefined && role !== 'tool') pushUnique(state.dropped, 'messages[].name');
  switch (role) {
    case 'system':
    case 'developer':
      state.system.push(decodeTextContent(message['content'], `${path}.content`).join('\n'));
      return;
    case 'user':
      pushUserBlocks(state, decodeUserContent(message['content'], `${path}.content`), false);
      return;
    case 'assistant':
      state.messages.push(decodeAssistant(message, path));
      state.inToolTurn = false;
      return;
    case 'tool':
      decodeToolMessage(state, message, path);
      return;
    case 'function':
      throw new CodecError("Legacy 'function' messages are not supported; use tool messages", `${path}.role`);
    default:
      throw new CodecError(`'${path}.role' must be one of system, developer, user, assistant, tool`, `${path}.role`);
  }
}

export function decodeMessages(raw: unknown, dropped: string[]): { system?: string; messages: IRMessage[] } {
  if (!Array.isArray(raw)) throw new CodecError("'messages' must be an array", 'messages');
  if (raw.length === 0) throw new CodecError("'messages' must contain at least one message", 'messages');
  const state: DecodeState = { system: [], messages: [], inToolTurn: false, dropped };
  raw.forEach((message, i) => decodeOne(state, message, `messages[${i}]`));
  return state.system.length > 0 ? { system: state.system.join('\n\n'), messages: state.messages } : { messages: state.messages };
}
