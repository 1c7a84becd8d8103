// Upstream error bodies (Anthropic first, but any shape) → IRError (protocols.md §3.5, §8.15).
import { kindForStatus } from '../error-shapes.ts';
import type { IRError, IRErrorKind } from '../ir.ts';
import { isRecord, stringField } from './util.ts';
import type { JsonObject } from './util.ts';

/** Anthropic `error.type` (plus OpenAI and Gemini spellings) → kind. */
const KIND_BY_TYPE: Record<string, IRErrorKind> = {
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
  insufficient_quota: 'rate_limit',
  INVALID_ARGUMENT: 'invalid_request',
  FAILED_PRECONDITION: 'invalid_request',
  UNAUTHENTICATED: 'authentication',
  PERMISSION_DENIED: 'permission',
  NOT_FOUND: 'not_found',
  RESOURCE_EXHAUSTED: 'rate_limit',
  INTERNAL: 'server_error',
  UNAVAILABLE: 'overloaded',
  DEADLINE_EXCEEDED: 'timeout',
  UNIMPLEMENTED: 'not_implemented',
};

/** HTTP status of an Anthropic in-stream `error` event, which carries only a type. */
const STATUS_BY_TYPE: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

const MAX_MESSAGE = 500;

export function decodeMessagesError(status: number, body: unknown): IRError {
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
  const label = stringField(error, 'type') ?? stringField(error, 'status');
  const labelled = label === undefined ? undefined : KIND_BY_TYPE[label];
  const kind = labelled === undefined || (labelled === 'invalid_request' && status !== 400) ? kindForStatus(status) : labelled;
  const out: IRError = { status, kind, message: stringField(error, 'message') ?? fallback };
  const code = stringField(error, 'code') ?? detailReason(error.details);
  if (code !== undefined) out.code = code;
  const param = stringField(error, 'param');
  if (param !== undefined) out.param = param;
  return out;
}

/** An Anthropic in-stream `error` event body → IRError (status derived from the type). */
export function decodeStreamError(data: unknown): IRError {
  const error = isRecord(data) && isRecord(data.error) ? data.error : {};
  const type = stringField(error, 'type') ?? 'api_error';
  const status = STATUS_BY_TYPE[type] ?? 500;
  return { status, kind: KIND_BY_TYPE[type] ?? kindForStatus(status), message: stringField(error, 'message') ?? type };
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
