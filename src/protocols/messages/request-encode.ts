// IR → Anthropic Messages request body (protocols.md §3.1, §8.9–§8.11).
import { CodecError } from '../codec.ts';
import type { RequestEncodeContext } from '../codec.ts';
import type { IRRequest } from '../ir.ts';
import { encodeResponseFormat, encodeThinking, samplingWithThinking } from './reasoning.ts';
import { encodeMessages } from './request-encode-messages.ts';
import { encodeTools } from './tools.ts';
import { pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

export function encodeMessagesRequest(request: IRRequest, ctx: RequestEncodeContext): JsonObject {
  if (request.n !== undefined && request.n > 1) {
    throw new CodecError('n > 1 is not supported by Anthropic-type providers', 'n');
  }
  const dropped = ctx.dropped;
  const { thinking, maxTokens } = encodeThinking(request.reasoning, request.maxTokens ?? ctx.defaultMaxTokens);
  const body: JsonObject = { model: ctx.upstreamModel, max_tokens: maxTokens };
  if (request.system !== undefined && request.system !== '') body.system = request.system;
  body.messages = encodeMessages(request.messages, dropped);
  Object.assign(body, samplingWithThinking(request, thinking !== undefined, dropped));
  if (request.stop !== undefined && request.stop.length > 0) body.stop_sequences = request.stop;
  Object.assign(body, encodeTools(request, dropped));
  if (thinking !== undefined) body.thinking = thinking;
  const outputConfig = encodeResponseFormat(request.responseFormat);
  if (outputConfig !== undefined) body.output_config = outputConfig;
  if (request.user !== undefined) body.metadata = { user_id: request.user };
  recordUnsupported(request, dropped);
  if (request.stream) body.stream = true;
  return body;
}

function recordUnsupported(request: IRRequest, dropped: string[]): void {
  if (request.seed !== undefined) pushUnique(dropped, 'seed');
  if (request.presencePenalty !== undefined) pushUnique(dropped, 'presence_penalty');
  if (request.frequencyPenalty !== undefined) pushUnique(dropped, 'frequency_penalty');
}
