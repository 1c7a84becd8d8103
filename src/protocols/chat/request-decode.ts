// Chat Completions request body → IR (protocols.md §1.1).
import { CodecError } from '../codec.ts';
import type { RequestDecodeContext } from '../codec.ts';
import type { IRRequest } from '../ir.ts';
import { decodeMessages } from './messages-decode.ts';
import { decodeReasoningEffort, decodeResponseFormat, decodeStop } from './settings.ts';
import { decodeToolChoice, decodeTools } from './tools.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { decodeModel, optionalBoolean, optionalNumber, optionalString } from '../shared/openai-fields.ts';

/** Fields this codec carries into the IR. */
const CARRIED = new Set([
  'model', 'messages', 'stream', 'stream_options', 'max_completion_tokens', 'max_tokens', 'temperature', 'top_p',
  'stop', 'n', 'seed', 'presence_penalty', 'frequency_penalty', 'tools', 'tool_choice', 'parallel_tool_calls',
  'response_format', 'reasoning_effort', 'user',
]);

/** Bookkeeping fields with no effect on the answer: ignored without being reported as dropped. */
const SILENT = new Set(['metadata', 'store', 'service_tier', 'prompt_cache_key', 'safety_identifier']);

function droppedFields(body: JsonObject): string[] {
  return Object.keys(body).filter((key) => !CARRIED.has(key) && !SILENT.has(key) && body[key] !== null && body[key] !== undefined);
}

function includeUsage(body: JsonObject): boolean | undefined {
  const options = body['stream_options'];
  if (options === undefined || options === null) return undefined;
  if (!isRecord(options)) throw new CodecError("'stream_options' must be an object", 'stream_options');
  return optionalBoolean(options, 'include_usage', 'stream_options.include_usage');
}

function assign<K extends keyof IRRequest>(ir: IRRequest, key: K, value: IRRequest[K] | undefined): void {
  if (value !== undefined) ir[key] = value;
}

function rejectLegacy(body: JsonObject): void {
  for (const key of ['functions', 'function_call']) {
    if (body[key] !== undefined && body[key] !== null) {
      throw new CodecError(`Legacy '${key}' is not supported when translating; use tools/tool_choice`, key);
    }
  }
}

export function decodeChatRequest(body: unknown, ctx?: RequestDecodeContext): IRRequest {
  if (!isRecord(body)) throw new CodecError('Request body must be a JSON object');
  rejectLegacy(body);
  const dropped = droppedFields(body);
  const { system, messages } = decodeMessages(body['messages'], dropped);
  const stream = ctx?.stream ?? optionalBoolean(body, 'stream') ?? false;
  const ir: IRRequest = { model: decodeModel(body, ctx), messages, stream };
  assign(ir, 'system', system);
  assign(ir, 'tools', decodeTools(body['tools']));
  assign(ir, 'toolChoice', decodeToolChoice(body['tool_choice']));
  assign(ir, 'parallelToolCalls', optionalBoolean(body, 'parallel_tool_calls'));
  assign(ir, 'maxTokens', optionalNumber(body, 'max_completion_tokens') ?? optionalNumber(body, 'max_tokens'));
  assign(ir, 'temperature', optionalNumber(body, 'temperature'));
  assign(ir, 'topP', optionalNumber(body, 'top_p'));
  assign(ir, 'stop', decodeStop(body['stop']));
  assign(ir, 'n', optionalNumber(body, 'n'));
  assign(ir, 'seed', optionalNumber(body, 'seed'));
  assign(ir, 'presencePenalty', optionalNumber(body, 'presence_penalty'));
  assign(ir, 'frequencyPenalty', optionalNumber(body, 'frequency_penalty'));
  assign(ir, 'responseFormat', decodeResponseFormat(body['response_format']));
  assign(ir, 'reasoning', decodeReasoningEffort(body['reasoning_effort']));
  assign(ir, 'user', optionalString(body, 'user'));
  if (stream) assign(ir, 'includeUsage', includeUsage(body));
  if (dropped.length > 0) ir.dropped = dropped;
  return ir;
}
