// Upstream error bodies → IRError for the Responses codec: OpenAI's `{error:{message,type,param,code}}`
// first, then any other shape (Anthropic, Gemini, vLLM-style `{message}`, plain text). A real HTTP status
// decides the kind; in-band stream errors (`error` events, `response.failed`) are classified by their code.
import { kindForStatus } from '../error-shapes.ts';
import type { IRError, IRErrorKind } from '../ir.ts';
import { errorFromInfo, errorInfoFields, extractErrorInfo } from '../shared/decode-error.ts';
import type { ErrorInfo } from '../shared/decode-error.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

const IN_BAND: Record<string, { kind: IRErrorKind; status: number }> = {
  rate_limit_exceeded: { kind: 'rate_limit', status: 429 },
  rate_limit_error: { kind: 'rate_limit', status: 429 },
  insufficient_quota: { kind: 'rate_limit', status: 429 },
  invalid_prompt: { kind: 'invalid_request', status: 400 },
  invalid_request_error: { kind: 'invalid_request', status: 400 },
  context_length_exceeded: { kind: 'invalid_request', status: 400 },
  server_is_overloaded: { kind: 'overloaded', status: 503 },
  service_unavailable_error: { kind: 'overloaded', status: 503 },
};

/** `response.failed` events nest the error under `response`; everything else has it at the top. */
function fromObject(body: JsonObject): ErrorInfo {
  const inner = isRecord(body['response']) && isRecord(body['response']['error']) ? body['response']['error'] : body['error'];
  if (typeof inner === 'string') return { message: inner };
  return errorInfoFields(isRecord(inner) ? inner : body, body);
}

/** `status` < 400 (e.g. 0) means an in-band error whose body must say what it is. */
export function decodeResponsesError(status: number, body: unknown): IRError {
  const info = extractErrorInfo(body, fromObject);
  const inBand = status < 400 ? (IN_BAND[info.code ?? ''] ?? IN_BAND[info.type ?? ''] ?? { kind: 'server_error', status: 500 }) : undefined;
  return errorFromInfo(info, status, { status: inBand?.status ?? status, kind: inBand?.kind ?? kindForStatus(status) });
}
