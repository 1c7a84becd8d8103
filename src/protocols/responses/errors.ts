// Upstream error bodies → IRError for the Responses codec: OpenAI's `{error:{message,type,param,code}}`
// first, then any other shape (Anthropic, Gemini, vLLM-style `{message}`, plain text). A real HTTP status
// decides the kind; in-band stream errors (`error` events, `response.failed`) are classified by their code.
import { kindForStatus } from '../error-shapes.ts';
import type { IRError, IRErrorKind } from '../ir.ts';
import { isObject } from './util.ts';
import type { JsonObject } from './util.ts';

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
  const inner = isObject(body['response']) && isObject(body['response']['error']) ? body['response']['error'] : body['error'];
  if (typeof inner === 'string') return { message: inner };
  const source = isObject(inner) ? inner : body;
  const info: ErrorInfo = {};
  const fields: Array<[keyof ErrorInfo, string | undefined]> = [
    ['message', str(source['message']) ?? str(source['detail']) ?? str(body['message'])],
    ['type', str(source['type']) ?? str(source['status'])],
    ['code', str(source['code'])],
    ['param', str(source['param'])],
  ];
  for (const [key, value] of fields) if (value !== undefined) info[key] = value;
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

/** `status` < 400 (e.g. 0) means an in-band error whose body must say what it is. */
export function decodeResponsesError(status: number, body: unknown): IRError {
  const info = extract(body);
  const inBand = status < 400 ? (IN_BAND[info.code ?? ''] ?? IN_BAND[info.type ?? ''] ?? { kind: 'server_error', status: 500 }) : undefined;
  const error: IRError = {
    status: inBand?.status ?? status,
    kind: inBand?.kind ?? kindForStatus(status),
    message: info.message ?? `Upstream returned HTTP ${status}`,
  };
  if (info.code !== undefined) error.code = info.code;
  if (info.param !== undefined) error.param = info.param;
  return error;
}
