// Upstream error bodies (Gemini first, but any shape) → IRError (protocols.md §4.7, §8.15).
import { kindForStatus } from '../error-shapes.ts';
import type { IRError, IRErrorKind } from '../ir.ts';
import { isRecord, numberField, stringField } from './util.ts';
import type { JsonObject } from './util.ts';

/** Google canonical status (plus Anthropic and OpenAI type spellings) → kind. */
const KIND_BY_LABEL: Record<string, IRErrorKind> = {
  INVALID_ARGUMENT: 'invalid_request',
  FAILED_PRECONDITION: 'invalid_request',
  OUT_OF_RANGE: 'invalid_request',
  UNAUTHENTICATED: 'authentication',
  PERMISSION_DENIED: 'permission',
  NOT_FOUND: 'not_found',
  RESOURCE_EXHAUSTED: 'rate_limit',
  INTERNAL: 'server_error',
  UNKNOWN: 'server_error',
  UNAVAILABLE: 'overloaded',
  DEADLINE_EXCEEDED: 'timeout',
  UNIMPLEMENTED: 'not_implemented',
  invalid_request_error: 'invalid_request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  request_too_large: 'request_too_large',
  rate_limit_error: 'rate_limit',
  api_error: 'server_error',
  overloaded_error: 'overloaded',
  timeout_error: 'timeout',
  server_error: 'server_error',
  service_unavailable_error: 'overloaded',
};

const MAX_MESSAGE = 500;

export function decodeGeminiError(status: number, body: unknown): IRError {
  const parsed = typeof body === 'string' ? tryParseJson(body) : body;
  const envelope = Array.isArray(parsed) ? parsed[0] : parsed;
  const inner = isRecord(envelope) ? envelope.error : undefined;
  const fallback = `upstream returned HTTP ${status}`;
  if (isRecord(inner)) return fromErrorObject(status, inner, fallback);
  if (typeof inner === 'string') return { status, kind: kindForStatus(status), message: inner };
  const topMessage = isRecord(envelope) ? stringField(envelope, 'message') : undefined;
  const text = typeof body === 'string' && body.trim() !== '' && parsed === undefined ? body.trim().slice(0, MAX_MESSAGE) : undefined;
  return { status, kind: kindForStatus(status), message: topMessage ?? text ?? fallback };
}

function fromErrorObject(status: number, error: JsonObject, fallback: string): IRError {
  const label = stringField(error, 'status') ?? stringField(error, 'type');
  const labelled = label === undefined ? undefined : KIND_BY_LABEL[label];
  const kind = labelled === undefined || (labelled === 'invalid_request' && status !== 400) ? kindForStatus(status) : labelled;
  const out: IRError = { status, kind, message: stringField(error, 'message') ?? fallback };
  const code = typeof error.code === 'string' ? error.code : detailReason(error.details);
  if (code !== undefined) out.code = code;
  const param = stringField(error, 'param');
  if (param !== undefined) out.param = param;
  return out;
}

/** An in-stream `{"error":{code,message,status}}` chunk → IRError (status from `code`, else 500). */
export function decodeStreamError(error: JsonObject): IRError {
  const code = numberField(error, 'code');
  const status = code !== undefined && code >= 400 && code <= 599 ? code : 500;
  return fromErrorObject(status, error, 'upstream stream error');
}

function detailReason(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    const reason = isRecord(detail) ? stringField(detail, 'reason') : undefined;
    if (reason !== undefined) return reason;
  }
  return undefined;
}

function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
