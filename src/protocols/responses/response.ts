// Non-stream Responses object ⇄ IR (protocols.md §2.4). The encoder emits every field the SDK types treat as
// always present, echoing the client's request settings; the stream encoder reuses `responseObject`.
import { CodecError } from '../codec.ts';
import type { ResponseEncodeContext } from '../codec.ts';
import type { IRResponse } from '../ir.ts';
import { decodeUsage, encodeUsage, statusFor, stopReasonFor } from './mapping.ts';
import { decodeOutput, encodeOutput } from './output.ts';
import { encodeFormat } from './settings.ts';
import { encodeToolChoice, encodeTools } from './tools.ts';
import { unixSeconds } from '../shared/ids.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { newId } from './util.ts';

export interface ResponseState {
  id: string;
  createdAt: number;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  output: JsonObject[];
  usage: JsonObject | null;
  error?: JsonObject | null;
  incompleteDetails?: JsonObject | null;
}

/** `resp_…` ids: keep an upstream id already in that form, otherwise mint one. */
export function responseId(upstreamId: string | undefined): string {
  return upstreamId?.startsWith('resp_') ? upstreamId : newId('resp');
}

export function responseObject(ctx: ResponseEncodeContext, state: ResponseState): JsonObject {
  const request = ctx.request;
  return {
    id: state.id,
    object: 'response',
    created_at: state.createdAt,
    status: state.status,
    background: false,
    error: state.error ?? null,
    incomplete_details: state.incompleteDetails ?? null,
    instructions: request.system ?? null,
    max_output_tokens: request.maxTokens ?? null,
    metadata: {},
    model: ctx.clientModel,
    output: state.output,
    parallel_tool_calls: request.parallelToolCalls ?? true,
    previous_response_id: null,
    reasoning: { effort: request.reasoning?.effort ?? null, summary: request.reasoning?.includeThoughts ? 'auto' : null },
    store: false,
    temperature: request.temperature ?? null,
    text: { format: encodeFormat(request.responseFormat) },
    tool_choice: request.toolChoice ? encodeToolChoice(request.toolChoice) : 'auto',
    tools: encodeTools(request.tools ?? [], null),
    top_p: request.topP ?? null,
    truncation: 'disabled',
    usage: state.usage,
    user: request.user ?? null,
  };
}

export function encodeResponsesResponse(response: IRResponse, ctx: ResponseEncodeContext): JsonObject {
  const terminal = statusFor(response.stopReason);
  return responseObject(ctx, {
    id: responseId(response.id),
    createdAt: response.created,
    status: terminal.status,
    output: encodeOutput(response.content),
    usage: encodeUsage(response.usage ?? {}),
    incompleteDetails: terminal.incompleteDetails,
  });
}

function failure(body: JsonObject): CodecError {
  const error = isRecord(body['error']) ? body['error'] : {};
  const message = typeof error['message'] === 'string' ? error['message'] : `response status ${String(body['status'])}`;
  return new CodecError(`Upstream response failed: ${message}`, undefined, 502);
}

export function decodeResponsesResponse(body: unknown): IRResponse {
  if (!isRecord(body) || !Array.isArray(body['output'])) {
    throw new CodecError('Upstream sent an invalid Responses object: no output array', undefined, 502);
  }
  if (body['status'] === 'failed' || body['status'] === 'cancelled') throw failure(body);
  const content = decodeOutput(body['output']);
  const hasCalls = content.some((block) => block.type === 'tool_call');
  const response: IRResponse = {
    id: typeof body['id'] === 'string' ? body['id'] : newId('resp'),
    model: typeof body['model'] === 'string' ? body['model'] : '',
    created: typeof body['created_at'] === 'number' ? body['created_at'] : unixSeconds(),
    content,
    stopReason: stopReasonFor(body['status'], body['incomplete_details'], hasCalls),
  };
  const usage = decodeUsage(body['usage']);
  if (usage) response.usage = usage;
  return response;
}
