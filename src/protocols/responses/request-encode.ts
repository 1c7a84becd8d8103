// IR → Responses body for a Responses-capable upstream. The gateway is stateless, so it sends
// `store: false` and, when reasoning is on, asks for encrypted reasoning to carry it to the next turn.
import { CodecError } from '../codec.ts';
import type { RequestEncodeContext } from '../codec.ts';
import type { IRRequest } from '../ir.ts';
import { encodeInput } from './input-encode.ts';
import { encodeFormat, encodeReasoning } from './settings.ts';
import { encodeToolChoice, encodeTools } from './tools.ts';
import { pushUnique } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

function setIf(body: JsonObject, key: string, value: unknown): void {
  if (value !== undefined) body[key] = value;
}

/** Settings Responses has no field for (protocols.md §8.9). */
function dropUnsupported(request: IRRequest, dropped: string[]): void {
  if (request.n !== undefined && request.n > 1) throw new CodecError('n > 1 is not supported by the Responses API', 'n');
  if (request.stop && request.stop.length > 0) pushUnique(dropped, 'stop');
  if (request.seed !== undefined) pushUnique(dropped, 'seed');
  if (request.presencePenalty !== undefined) pushUnique(dropped, 'presence_penalty');
  if (request.frequencyPenalty !== undefined) pushUnique(dropped, 'frequency_penalty');
  if (request.topK !== undefined) pushUnique(dropped, 'top_k');
}

export function encodeResponsesRequest(request: IRRequest, ctx: RequestEncodeContext): JsonObject {
  dropUnsupported(request, ctx.dropped);
  const body: JsonObject = { model: ctx.upstreamModel, input: encodeInput(request.messages, ctx.dropped) };
  if (request.system !== undefined && request.system !== '') body['instructions'] = request.system;
  // tool_choice / parallel_tool_calls mean nothing without tools (and OpenAI rejects them there).
  if (request.tools && request.tools.length > 0) {
    body['tools'] = encodeTools(request.tools, false);
    if (request.toolChoice) body['tool_choice'] = encodeToolChoice(request.toolChoice);
    setIf(body, 'parallel_tool_calls', request.parallelToolCalls);
  }
  setIf(body, 'max_output_tokens', request.maxTokens);
  setIf(body, 'temperature', request.temperature);
  setIf(body, 'top_p', request.topP);
  if (request.responseFormat) body['text'] = { format: encodeFormat(request.responseFormat) };
  const reasoning = request.reasoning ? encodeReasoning(request.reasoning) : undefined;
  if (reasoning) body['reasoning'] = reasoning;
  setIf(body, 'user', request.user);
  body['store'] = false;
  if (request.reasoning?.enabled) body['include'] = ['reasoning.encrypted_content'];
  if (request.stream) body['stream'] = true;
  return body;
}
