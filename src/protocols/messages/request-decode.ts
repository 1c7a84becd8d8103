// Anthropic Messages request body → IR (protocols.md §3.1, §3.2).
import { CodecError } from '../codec.ts';
import type { RequestDecodeContext } from '../codec.ts';
import type { IRMessage, IRRequest } from '../ir.ts';
import { decodeReasoning } from './reasoning.ts';
import { decodeContent } from './request-decode-blocks.ts';
import { decodeToolChoice, decodeTools } from './tools.ts';
import { expectRecord, fieldLabel, isRecord, pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { optionalBoolean, optionalNumber, optionalString, optionalStringArray, requireString } from './util.ts';

/** Body fields this decoder understands; any other top-level field is reported in `dropped`. */
const HANDLED = new Set([
  'model',
  'max_tokens',
  'messages',
  'system',
  'stream',
  'temperature',
  'top_p',
  'top_k',
  'stop_sequences',
  'tools',
  'tool_choice',
  'thinking',
  'output_config',
  'metadata',
]);

export function decodeMessagesRequest(body: unknown, ctx: RequestDecodeContext = {}): IRRequest {
  if (!isRecord(body)) throw new CodecError('request body must be a JSON object');
  const dropped: string[] = [];
  const model = ctx.model ?? requireString(body, 'model', 'model');
  const maxTokens = body.max_tokens;
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new CodecError('max_tokens is required and must be a positive integer', 'max_tokens');
  }
  if (!Array.isArray(body.messages)) throw new CodecError('messages is required and must be an array', 'messages');
  const request: IRRequest = {
    model,
    messages: body.messages.map((raw, i) => decodeMessage(raw, `messages[${i}]`, dropped)),
    maxTokens,
    stream: ctx.stream ?? optionalBoolean(body, 'stream', 'stream') ?? false,
  };
  const system = decodeSystem(body.system, dropped);
  if (system !== undefined) request.system = system;
  decodeSampling(request, body);
  decodeToolFields(request, body, dropped);
  const { reasoning, responseFormat } = decodeReasoning(body, dropped);
  if (reasoning !== undefined) request.reasoning = reasoning;
  if (responseFormat !== undefined) request.responseFormat = responseFormat;
  const user = decodeMetadata(body.metadata, dropped);
  if (user !== undefined) request.user = user;
  for (const key of Object.keys(body)) if (!HANDLED.has(key)) pushUnique(dropped, fieldLabel(key));
  if (dropped.length > 0) request.dropped = dropped;
  return request;
}

function decodeMessage(raw: unknown, path: string, dropped: string[]): IRMessage {
  const message = expectRecord(raw, path);
  const role = message.role;
  if (role !== 'user' && role !== 'assistant') {
    throw new CodecError(`${path}.role must be "user" or "assistant"`, `${path}.role`);
  }
  return { role, content: decodeContent(message.content, `${path}.content`, dropped) };
}

function decodeSystem(raw: unknown, dropped: string[]): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return raw;
  if (!Array.isArray(raw)) throw new CodecError('system must be a string or an array of text blocks', 'system');
  return raw
    .map((item, i) => {
      const block = expectRecord(item, `system[${i}]`);
      if (block.type !== 'text') throw new CodecError(`system[${i}] must be a text block`, `system[${i}].type`);
      if (block.cache_control !== undefined) pushUnique(dropped, 'cache_control');
      return requireString(block, 'text', `system[${i}].text`);
    })
    .join('\n');
}

function decodeSampling(request: IRRequest, body: JsonObject): void {
  const temperature = optionalNumber(body, 'temperature', 'temperature');
  if (temperature !== undefined) request.temperature = temperature;
  const topP = optionalNumber(body, 'top_p', 'top_p');
  if (topP !== undefined) request.topP = topP;
  const topK = optionalNumber(body, 'top_k', 'top_k');
  if (topK !== undefined) request.topK = topK;
  const stop = optionalStringArray(body, 'stop_sequences', 'stop_sequences');
  if (stop !== undefined) request.stop = stop;
}

function decodeToolFields(request: IRRequest, body: JsonObject, dropped: string[]): void {
  const tools = decodeTools(body.tools, dropped);
  if (tools !== undefined) request.tools = tools;
  const { choice, parallelToolCalls } = decodeToolChoice(body.tool_choice);
  if (choice !== undefined) request.toolChoice = choice;
  if (parallelToolCalls !== undefined) request.parallelToolCalls = parallelToolCalls;
}

function decodeMetadata(raw: unknown, dropped: string[]): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const metadata = expectRecord(raw, 'metadata');
  for (const key of Object.keys(metadata)) if (key !== 'user_id') pushUnique(dropped, fieldLabel(`metadata.${key}`));
  return optionalString(metadata, 'user_id', 'metadata.user_id');
}
