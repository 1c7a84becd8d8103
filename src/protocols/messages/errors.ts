// Upstream error bodies (Anthropic first, but any shape) → IRError (protocols.md §3.5, §8.15).
import { kindForStatus } from '../error-shapes.ts';
import type { IRError, IRErrorKind } from '../ir.ts';
import { decodeErrorEnvelope } from '../shared/decode-error.ts';
import type { ErrorVocabulary } from '../shared/decode-error.ts';
import { ANTHROPIC_ERROR_TYPES, GOOGLE_ERROR_STATUSES, OPENAI_ERROR_TYPES } from '../shared/error-labels.ts';
import { isRecord } from '../shared/json.ts';
import { stringField } from './util.ts';

/** Anthropic `error.type` (plus OpenAI and Gemini spellings) → kind. */
const KIND_BY_TYPE: Record<string, IRErrorKind> = {
  ...ANTHROPIC_ERROR_TYPES,
  ...OPENAI_ERROR_TYPES,
  insufficient_quota: 'rate_limit',
  ...GOOGLE_ERROR_STATUSES,
};

/** Anthropic bodies name the error by `type`; a Google `status` is the second choice. */
const VOCABULARY: ErrorVocabulary = { kinds: KIND_BY_TYPE, labelFields: ['type', 'status'] };

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

export function decodeMessagesError(status: number, body: unknown): IRError {
  return decodeErrorEnvelope(status, body, VOCABULARY);
}

/** An Anthropic in-stream `error` event body → IRError (status derived from the type). */
export function decodeStreamError(data: unknown): IRError {
  const error = isRecord(data) && isRecord(data.error) ? data.error : {};
  const type = stringField(error, 'type') ?? 'api_error';
  const status = STATUS_BY_TYPE[type] ?? 500;
  return { status, kind: KIND_BY_TYPE[type] ?? kindForStatus(status), message: stringField(error, 'message') ?? type };
}
