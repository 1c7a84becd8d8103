// Upstream error bodies (OpenAI shape first, then anything: Anthropic, Gemini, vLLM-style, plain text) → IRError.
// A real HTTP status decides the kind; for in-band stream errors (no status) the body's `type` does.
import { kindForStatus } from '../error-shapes.ts';
import type { IRError, IRErrorKind } from '../ir.ts';
import { errorFromInfo, errorInfoFields, extractErrorInfo, nonEmptyString } from '../shared/decode-error.ts';
import type { ErrorInfo } from '../shared/decode-error.ts';
import { ANTHROPIC_ERROR_TYPES, OPENAI_ERROR_TYPES } from '../shared/error-labels.ts';
import { isRecord } from '../shared/json.ts';
import type { JsonObject } from '../shared/json.ts';

/** In-band errors: OpenAI and Anthropic types, plus OpenAI's quota and rate-limit counter names. */
const KIND_BY_TYPE: Record<string, IRErrorKind> = {
  ...ANTHROPIC_ERROR_TYPES,
  ...OPENAI_ERROR_TYPES,
  insufficient_quota: 'rate_limit',
  tokens: 'rate_limit',
  requests: 'rate_limit',
};

const STATUS_BY_KIND: Record<IRErrorKind, number> = {
  invalid_request: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_too_large: 413,
  rate_limit: 429,
  server_error: 500,
  overloaded: 503,
  unavailable: 503,
  timeout: 504,
  not_implemented: 501,
};

function fromObject(body: JsonObject): ErrorInfo {
  const inner = body['error'];
  // A bare string error keeps the envelope's `type`: in-band stream errors are classified by it.
  if (typeof inner === 'string') return { message: inner, type: nonEmptyString(body['type']) };
  return errorInfoFields(isRecord(inner) ? inner : body, body);
}

/** `status` < 400 (e.g. 0 or 200) means an in-band error whose body must say what it is. */
export function decodeOpenAIError(status: number, body: unknown): IRError {
  const info = extractErrorInfo(body, fromObject);
  const inBand = status < 400;
  const kind = inBand ? (KIND_BY_TYPE[info.type ?? ''] ?? 'server_error') : kindForStatus(status);
  return errorFromInfo(info, status, { status: inBand ? STATUS_BY_KIND[kind] : status, kind });
}
