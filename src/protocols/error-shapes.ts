// Error bodies in each client protocol's own shape (protocols.md §1.5, §3.5, §4.7, §8.15).
import type { ClientProtocol, IRError, IRErrorKind } from './ir.ts';

const OPENAI_TYPE: Record<IRErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'invalid_request_error',
  method_not_allowed: 'invalid_request_error',
  request_too_large: 'invalid_request_error',
  rate_limit: 'rate_limit_error',
  server_error: 'server_error',
  overloaded: 'service_unavailable_error',
  unavailable: 'service_unavailable_error',
  timeout: 'server_error',
  not_implemented: 'invalid_request_error',
};

const ANTHROPIC_TYPE: Record<IRErrorKind, string> = {
  invalid_request: 'invalid_request_error',
  authentication: 'authentication_error',
  permission: 'permission_error',
  not_found: 'not_found_error',
  method_not_allowed: 'invalid_request_error',
  request_too_large: 'request_too_large',
  rate_limit: 'rate_limit_error',
  server_error: 'api_error',
  overloaded: 'overloaded_error',
  unavailable: 'api_error',
  timeout: 'timeout_error',
  not_implemented: 'invalid_request_error',
};

const GEMINI_STATUS: Record<IRErrorKind, string> = {
  invalid_request: 'INVALID_ARGUMENT',
  authentication: 'UNAUTHENTICATED',
  permission: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  method_not_allowed: 'UNIMPLEMENTED',
  request_too_large: 'INVALID_ARGUMENT',
  rate_limit: 'RESOURCE_EXHAUSTED',
  server_error: 'INTERNAL',
  overloaded: 'UNAVAILABLE',
  unavailable: 'UNAVAILABLE',
  timeout: 'DEADLINE_EXCEEDED',
  not_implemented: 'UNIMPLEMENTED',
};

/** HTTP status a protocol's client should see: 529 is Anthropic-only. */
export function statusForProtocol(protocol: ClientProtocol, status: number): number {
  return status === 529 && protocol !== 'messages' ? 503 : status;
}

export function openaiErrorType(kind: IRErrorKind): string {
  return OPENAI_TYPE[kind];
}

export function anthropicErrorType(kind: IRErrorKind): string {
  return ANTHROPIC_TYPE[kind];
}

export function geminiErrorStatus(kind: IRErrorKind): string {
  return GEMINI_STATUS[kind];
}

/** The error body for a protocol; `requestId` is echoed where the protocol has a field for it. */
export function errorBody(protocol: ClientProtocol, error: IRError, requestId?: string): Record<string, unknown> {
  switch (protocol) {
    case 'chat':
    case 'responses':
      return {
        error: {
          message: error.message,
          type: OPENAI_TYPE[error.kind],
          param: error.param ?? null,
          code: error.code ?? null,
        },
      };
    case 'messages':
      return {
        type: 'error',
        error: { type: ANTHROPIC_TYPE[error.kind], message: error.message },
        ...(requestId ? { request_id: requestId } : {}),
      };
    case 'gemini':
      return {
        error: { code: statusForProtocol('gemini', error.status), message: error.message, status: GEMINI_STATUS[error.kind] },
      };
  }
}

/** Inverse of the status → kind tables, for upstream errors whose body says little. */
export function kindForStatus(status: number): IRErrorKind {
  if (status === 401) return 'authentication';
  if (status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'request_too_large';
  if (status === 429) return 'rate_limit';
  if (status === 501) return 'not_implemented';
  if (status === 503 || status === 529) return 'overloaded';
  if (status === 504) return 'timeout';
  if (status >= 500) return 'server_error';
  return 'invalid_request';
}
