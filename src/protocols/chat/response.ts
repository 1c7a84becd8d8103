// Non-stream Chat Completions response ⇄ IR (protocols.md §1.3). Only choice 0 is carried (the IR holds
// one answer). Non-standard `reasoning_content` (DeepSeek/vLLM-style servers) ⇄ reasoning blocks.
import { CodecError } from '../codec.ts';
import type { ResponseEncodeContext } from '../codec.ts';
import type { IRBlock, IRResponse, IRToolCallBlock } from '../ir.ts';
import { decodeUsage, encodeUsage, finishReasonFor, stopReasonFor } from './mapping.ts';
import { unixSeconds } from '../shared/ids.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { chatCompletionId, toolCallId } from './util.ts';

function upstreamError(message: string): CodecError {
  return new CodecError(`Upstream sent an invalid Chat Completions response: ${message}`, undefined, 502);
}

function decodeCall(raw: unknown): IRToolCallBlock | undefined {
  if (!isRecord(raw) || !isRecord(raw['function'])) return undefined;
  const fn = raw['function'];
  const args = fn['arguments'];
  return {
    type: 'tool_call',
    id: typeof raw['id'] === 'string' && raw['id'] !== '' ? raw['id'] : toolCallId(),
    name: typeof fn['name'] === 'string' ? fn['name'] : '',
    arguments: typeof args === 'string' ? args : args === undefined || args === null ? '' : JSON.stringify(args),
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('');
}

function decodeMessage(message: JsonObject): IRBlock[] {
  const blocks: IRBlock[] = [];
  const reasoning = message['reasoning_content'] ?? message['reasoning'];
  if (typeof reasoning === 'string' && reasoning !== '') blocks.push({ type: 'reasoning', text: reasoning });
  const text = contentText(message['content']);
  if (text !== '') blocks.push({ type: 'text', text });
  if (typeof message['refusal'] === 'string' && message['refusal'] !== '') blocks.push({ type: 'text', text: message['refusal'] });
  const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
  for (const call of calls) {
    const block = decodeCall(call);
    if (block) blocks.push(block);
  }
  return blocks;
}

export function decodeChatResponse(body: unknown): IRResponse {
  if (!isRecord(body)) throw upstreamError('body is not an object');
  const choices = Array.isArray(body['choices']) ? body['choices'] : [];
  const choice = choices.find((c) => isRecord(c) && c['index'] === 0) ?? choices[0];
  if (!isRecord(choice) || !isRecord(choice['message'])) throw upstreamError('no choices[0].message');
  const content = decodeMessage(choice['message']);
  let stopReason = stopReasonFor(choice['finish_reason']);
  // Some compatible servers report `stop` for tool-call turns; the calls decide.
  if (stopReason === 'end_turn' && content.some((block) => block.type === 'tool_call')) stopReason = 'tool_use';
  const response: IRResponse = {
    id: typeof body['id'] === 'string' ? body['id'] : chatCompletionId(undefined),
    model: typeof body['model'] === 'string' ? body['model'] : '',
    created: typeof body['created'] === 'number' ? body['created'] : unixSeconds(),
    content,
    stopReason,
  };
  const usage = decodeUsage(body['usage']);
  if (usage) response.usage = usage;
  return response;
}

export function encodeChatResponse(response: IRResponse, ctx: ResponseEncodeContext): JsonObject {
  const texts: string[] = [];
  const reasoning: string[] = [];
  const calls: JsonObject[] = [];
  for (const block of response.content) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'reasoning' && block.text !== '') reasoning.push(block.text);
    else if (block.type === 'tool_call') {
      calls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: block.arguments } });
    }
  }
  const message: JsonObject = { role: 'assistant', content: texts.length > 0 ? texts.join('') : null, refusal: null, annotations: [] };
  if (reasoning.length > 0) message['reasoning_content'] = reasoning.join('\n\n');
  if (calls.length > 0) message['tool_calls'] = calls;
  const body: JsonObject = {
    id: chatCompletionId(response.id),
    object: 'chat.completion',
    created: response.created,
    model: ctx.clientModel,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishReasonFor(response.stopReason) }],
  };
  if (response.usage) body['usage'] = encodeUsage(response.usage);
  return body;
}
