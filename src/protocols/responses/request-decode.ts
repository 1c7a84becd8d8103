// Responses request body → IR (protocols.md §2.1).
// Server-state features cannot be honoured by a translating gateway: it keeps no responses, so
// `previous_response_id`, `conversation`, stored `prompt` templates and `background` are rejected with a
// 400 that says so (silently answering without the earlier turns or the template would be a wrong answer). `store` is accepted and ignored: nothing is
// stored, and a later request that refers back to it gets the same clear 400.
import { CodecError } from '../codec.ts';
import type { RequestDecodeContext } from '../codec.ts';
import type { IRRequest } from '../ir.ts';
import { decodeInput } from './input-decode.ts';
import { decodeReasoning, decodeTextConfig } from './settings.ts';
import { decodeToolChoice, decodeTools } from './tools.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { decodeModel, optionalBoolean, optionalNumber, optionalString } from '../shared/openai-fields.ts';

const CARRIED = new Set([
  'model', 'input', 'instructions', 'stream', 'max_output_tokens', 'temperature', 'top_p', 'tools', 'tool_choice',
  'parallel_tool_calls', 'text', 'reasoning', 'user', 'previous_response_id', 'conversation', 'prompt', 'background',
]);

/** Bookkeeping fields with no effect on the answer: ignored without being reported as dropped. */
const SILENT = new Set(['metadata', 'store', 'include', 'stream_options', 'prompt_cache_key', 'service_tier', 'safety_identifier']);

function droppedFields(body: JsonObject): string[] {
  return Object.keys(body).filter((key) => {
    const value = body[key];
    if (CARRIED.has(key) || SILENT.has(key) || value === null || value === undefined) return false;
    return !(key === 'truncation' && value === 'disabled');
  });
}

function rejectServerState(body: JsonObject): void {
  const stored = ['previous_response_id', 'conversation', 'prompt'].find((key) => body[key] !== undefined && body[key] !== null);
  if (stored) {
    throw new CodecError(
      `'${stored}' cannot be used with this model: the gateway does not store responses, conversations or prompts. Send the full conversation and instructions in the request instead.`,
      stored,
    );
  }
  if (body['background'] === true) {
    throw new CodecError("'background' mode cannot be used with this model: the gateway does not store responses.", 'background');
  }
}

function assign<K extends keyof IRRequest>(ir: IRRequest, key: K, value: IRRequest[K] | undefined): void {
  if (value !== undefined) ir[key] = value;
}

export function decodeResponsesRequest(body: unknown, ctx?: RequestDecodeContext): IRRequest {
  if (!isRecord(body)) throw new CodecError('Request body must be a JSON object');
  rejectServerState(body);
  const dropped = droppedFields(body);
  const model = decodeModel(body, ctx);
  const { system, messages } = decodeInput(body['input'], dropped);
  const instructions = optionalString(body, 'instructions');
  if (instructions !== undefined && instructions !== '') system.unshift(instructions);
  const ir: IRRequest = { model, messages, stream: ctx?.stream ?? optionalBoolean(body, 'stream') ?? false };
  if (system.length > 0) ir.system = system.join('\n\n');
  assign(ir, 'tools', decodeTools(body['tools']));
  assign(ir, 'toolChoice', decodeToolChoice(body['tool_choice']));
  assign(ir, 'parallelToolCalls', optionalBoolean(body, 'parallel_tool_calls'));
  assign(ir, 'maxTokens', optionalNumber(body, 'max_output_tokens'));
  assign(ir, 'temperature', optionalNumber(body, 'temperature'));
  assign(ir, 'topP', optionalNumber(body, 'top_p'));
  assign(ir, 'responseFormat', decodeTextConfig(body['text'], dropped));
  assign(ir, 'reasoning', decodeReasoning(body['reasoning']));
  assign(ir, 'user', optionalString(body, 'user'));
  if (dropped.length > 0) ir.dropped = dropped;
  return ir;
}
