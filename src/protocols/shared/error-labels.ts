// What upstream error labels mean, by vendor vocabulary. Every codec decodes "any shape" of error body, so
// each one accepts several vocabularies; they compose these tables (plus their own extras) instead of
// keeping private copies that drift. The reverse direction (kind → label) lives in ../error-shapes.ts.
import type { IRErrorKind } from '../ir.ts';

/** Anthropic `error.type` values (OpenAI uses the first few spellings as well). */
export const ANTHROPIC_ERROR_TYPES: Readonly<Record<string, IRErrorKind>> = {
  invalid_request_error: 'invalid_request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  request_too_large: 'request_too_large',
  rate_limit_error: 'rate_limit',
  api_error: 'server_error',
  overloaded_error: 'overloaded',
  timeout_error: 'timeout',
};

/** OpenAI `error.type` values that Anthropic does not spell the same way. */
export const OPENAI_ERROR_TYPES: Readonly<Record<string, IRErrorKind>> = {
  server_error: 'server_error',
  service_unavailable_error: 'overloaded',
};

/** Google canonical status names (Gemini's `error.status`) that both Gemini and Messages recognise. */
export const GOOGLE_ERROR_STATUSES: Readonly<Record<string, IRErrorKind>> = {
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
