// IR → Chat Completions body for an OpenAI-type upstream (the API every OpenAI-compatible server shares).
// `max_completion_tokens` is used (reasoning models reject `max_tokens`); streaming always asks for usage
// because the gateway reports it whatever the client asked.
import type { RequestEncodeContext } from '../codec.ts';
import type { IRRequest } from '../ir.ts';
import { encodeMessages } from './messages-encode.ts';
import { encodeEffort, encodeResponseFormat } from './settings.ts';
import { encodeToolChoice, encodeTools } from './tools.ts';
import { pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

function setIf(body: JsonObject, key: string, value: unknown): void {
  if (value !== undefined) body[key] = value;
}

export function encodeChatRequest(request: IRRequest, ctx: RequestEncodeContext): JsonObject {
  const body: JsonObject = { model: ctx.upstreamModel, messages: encodeMessages(request, ctx.dropped) };
  // OpenAI rejects tool_choice / parallel_tool_calls without tools; without tools they mean nothing anyway.
  if (request.tools && request.tools.length > 0) {
    body['tools'] = encodeTools(request.tools);
    if (request.toolChoice) body['tool_choice'] = encodeToolChoice(request.toolChoice);
    setIf(body, 'parallel_tool_calls', request.parallelToolCalls);
  }
  setIf(body, 'max_completion_tokens', request.maxTokens);
  setIf(body, 'temperature', request.temperature);
  setIf(body, 'top_p', request.topP);
  if (request.stop && request.stop.length > 0) body['stop'] = request.stop;
  setIf(body, 'n', request.n);
  setIf(body, 'seed', request.seed);
  setIf(body, 'presence_penalty', request.presencePenalty);
  setIf(body, 'frequency_penalty', request.frequencyPenalty);
  if (request.responseFormat) body['response_format'] = encodeResponseFormat(request.responseFormat);
  if (request.reasoning) setIf(body, 'reasoning_effort', encodeEffort(request.reasoning));
  setIf(body, 'user', request.user);
  if (request.topK !== undefined) pushUnique(ctx.dropped, 'top_k');
  if (request.stream) {
    body['stream'] = true;
    body['stream_options'] = { include_usage: true };
  }
  return body;
}
