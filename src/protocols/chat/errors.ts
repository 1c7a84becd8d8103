// Upstream error bodies (OpenAI shape first, then anything: Anthropic, Gemini, vLLM-style, plain text) → IRError.
// A real HTTP status decides the kind; for in-band stream errors (no status) the body's `type` does.
import { kindForStatus } from '../error-shapes.ts';
import type { IRError, IRErrorKind } from '../ir.ts';
import { isObject } from './util.ts';
import type { JsonObject } from './util.ts';

const KIND_BY_TYPE: Record<string, IRErrorKind> = {
  invalid_request_error: 'invalid_request',
  authentication_error: 'authentication',
  permission_error: 'permission',
  not_found_error: 'not_found',
  request_too_large: 'request_too_large',
  rate_limit_error: 'rate_limit',
  insufficient_quota: 'rate_limit',
  tokens: 'rate_limit',
  requests: 'rate_limit',
  server_error: 'server_error',
  api_error: 'server_error',
  service_unavailable_error: 'overloaded',
  overloaded_error: 'overloaded',
  timeout_error: 'timeout',
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

interface ErrorInfo {
  message?: string;
  type?: string;
  code?: string;
  param?: string;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function fromObject(body: JsonObject): ErrorInfo {
  const inner = body['error'];
  if (typeof inner === 'string') return { message: inner, type: str(body['type']) };
  const source = isObject(inner) ? inner : body;
  const info: ErrorInfo = {};
  const message = str(source['message']) ?? str(source['detail']) ?? str(body['message']);
  const type = str(source['type']) ?? str(source['status']);
  const code = str(source['code']);
  const param = str(source['param']);
  if (message !== undefined) info.message = message;
  if (type !== undefined) info.type = type;
  if (code !== undefined) info.code = code;
  if (param !== undefined) info.param = param;
  return info;
}

function extract(body: unknown): ErrorInfo {
  if (typeof body === 'string') {
    try {
      return extract(JSON.parse(body) as unknown);
    } catch {
      const text = body.trim();
      return text === '' ? {} : { message: text.slice(0, 1000) };
    }
  }
  if (Array.isArray(body)) return extract(body[0]);
  return isObject(body) ? fromObject(body) : {};
}

/** `status` < 400 (e.g. 0 or 200) means an in-band error whose body must say what it is. */
export function decodeOpenAIError(status: number, body: unknown): IRError {
  const info = extract(body);
  const inBand = status < 400;
  const kind = inBand ? (KIND_BY_TYPE[info.type ?? ''] ?? 'server_error') : kindForStatus(status);
  const error: IRError = {
    status: inBand ? STATUS_BY_KIND[kind] : status,
    kind,
    message: info.message ?? `Upstream returned HTTP ${status}`,
  };
  if (info.code !== undefined) error.code = info.code;
  if (info.param !== undefined) error.param = info.param;
  return error;
}
