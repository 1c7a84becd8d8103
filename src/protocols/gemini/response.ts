// Gemini GenerateContentResponse ⇄ IR (protocols.md §4.5).
import { CodecError } from '../codec.ts';
import type { ResponseEncodeContext } from '../codec.ts';
import type { IRBlock, IRResponse } from '../ir.ts';
import { fullUsage } from '../shared/usage.ts';
import { stopReasonFromGemini, stopReasonToGemini, usageFromGemini, usageToGemini } from './mapping.ts';
import { decodeParts } from './parts.ts';
import type { PartIds } from './parts.ts';
import { encodeWithSignatures } from './signatures.ts';
import { randomId, unixSeconds } from '../shared/ids.ts';
import { isRecord, parseToolArguments } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';
import { field, stringField } from './util.ts';

/** Upstream calls without an id get a random one: ids must stay unique across the whole conversation. */
export const upstreamIds: PartIds = {
  call: (explicitId) => explicitId ?? randomId('call_'),
  result: (_name, explicitId) => explicitId ?? randomId('call_'),
};

export function decodeGeminiResponse(body: unknown): IRResponse {
  const envelope = Array.isArray(body) ? mergeArrayResponse(body) : body;
  if (!isRecord(envelope)) throw new CodecError('upstream response is not a Gemini GenerateContentResponse', undefined, 502);
  const candidates = field(envelope, 'candidates');
  const candidate = Array.isArray(candidates) && isRecord(candidates[0]) ? candidates[0] : undefined;
  const response: IRResponse = {
    id: stringField(envelope, 'responseId') ?? randomId(''),
    model: stringField(envelope, 'modelVersion') ?? '',
    created: unixSeconds(),
    content: [],
    stopReason: 'end_turn',
  };
  const usage = field(envelope, 'usageMetadata');
  if (isRecord(usage)) response.usage = fullUsage(usageFromGemini(usage));
  if (candidate === undefined) {
    if (isRecord(field(envelope, 'promptFeedback'))) response.stopReason = 'content_filter';
    return response;
  }
  const content = field(candidate, 'content');
  const parts = isRecord(content) ? field(content, 'parts') : undefined;
  response.content = Array.isArray(parts) ? decodeParts(parts, { ids: upstreamIds, path: 'candidates[0].content.parts', strict: false }) : [];
  const reason = stringField(candidate, 'finishReason') ?? 'STOP';
  response.stopReason = stopReasonFromGemini(reason, response.content.some((block) => block.type === 'tool_call'));
  return response;
}

/** A buffered JSON-array stream: concatenate parts, keep the last finishReason and usage. */
function mergeArrayResponse(chunks: unknown[]): JsonObject | undefined {
  const records = chunks.filter(isRecord);
  const last = records.at(-1);
  if (last === undefined) return undefined;
  const parts = records.flatMap((chunk) => {
    const candidate = Array.isArray(chunk.candidates) ? chunk.candidates[0] : undefined;
    const content = isRecord(candidate) ? candidate.content : undefined;
    return isRecord(content) && Array.isArray(content.parts) ? content.parts : [];
  });
  const lastCandidate = Array.isArray(last.candidates) && isRecord(last.candidates[0]) ? last.candidates[0] : {};
  return { ...last, candidates: [{ ...lastCandidate, content: { role: 'model', parts } }] };
}

export function encodeGeminiResponse(response: IRResponse, ctx: ResponseEncodeContext): JsonObject {
  const out: JsonObject = {
    candidates: [
      {
        content: { role: 'model', parts: encodeOutputParts(response.content) },
        finishReason: stopReasonToGemini(response.stopReason),
        index: 0,
      },
    ],
  };
  if (response.usage !== undefined) out.usageMetadata = usageToGemini(response.usage);
  out.modelVersion = ctx.clientModel;
  out.responseId = response.id;
  return out;
}

export function encodeOutputParts(blocks: IRBlock[]): JsonObject[] {
  return encodeWithSignatures(blocks, (block, i): JsonObject[] => {
    switch (block.type) {
      case 'text':
        return [{ text: block.text }];
      case 'reasoning':
        return block.redacted === undefined ? [withSignature({ text: block.text, thought: true }, block.signature)] : [];
      case 'tool_call': {
        const args = parseToolArguments(block.arguments, `content[${i}].arguments`, 502);
        return [withSignature({ functionCall: { id: block.id, name: block.name, args } }, block.signature)];
      }
      case 'image':
        return block.source.kind === 'base64' ? [{ inlineData: { mimeType: block.source.mediaType, data: block.source.data } }] : [];
      default:
        return [];
    }
  });
}

export function withSignature(part: JsonObject, signature: { vendor: string; value: string } | undefined): JsonObject {
  return signature?.vendor === 'gemini' ? { ...part, thoughtSignature: signature.value } : part;
}
