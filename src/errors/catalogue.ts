// One catalogue of gateway error codes → HTTP status → error kind. Rendering into a client protocol's
// own shape happens in one place (src/protocols/error-shapes.ts via src/core/respond.ts).
// Messages are safe to show clients: they never contain keys or upstream credentials.

export type ErrorKind =
  | 'invalid_request'
  | 'authentication'
  | 'permission'
  | 'not_found'
  | 'method_not_allowed'
  | 'request_too_large'
  | 'rate_limit'
  | 'server_error'
  | 'overloaded'
  | 'unavailable'
  | 'timeout'
  | 'not_implemented';

interface CatalogueEntry {
  status: number;
  kind: ErrorKind;
  /** OpenAI-style machine code put in `error.code` where the protocol has one. */
  openaiCode?: string;
}

export const ERROR_CATALOGUE = {
  invalid_json: { status: 400, kind: 'invalid_request' },
  invalid_request: { status: 400, kind: 'invalid_request' },
  missing_anthropic_version: { status: 400, kind: 'invalid_request' },
  missing_api_key: { status: 401, kind: 'authentication', openaiCode: 'invalid_api_key' },
  invalid_api_key: { status: 401, kind: 'authentication', openaiCode: 'invalid_api_key' },
  bearer_on_anthropic: { status: 401, kind: 'authentication', openaiCode: 'invalid_api_key' },
  model_not_found: { status: 404, kind: 'not_found', openaiCode: 'model_not_found' },
  route_not_found: { status: 404, kind: 'not_found', openaiCode: 'unknown_url' },
  resource_not_found: { status: 404, kind: 'not_found', openaiCode: 'not_found' },
  method_not_allowed: { status: 405, kind: 'method_not_allowed', openaiCode: 'method_not_allowed' },
  idempotency_conflict: { status: 409, kind: 'invalid_request', openaiCode: 'idempotency_key_reused' },
  gone: { status: 410, kind: 'invalid_request', openaiCode: 'expired' },
  body_too_large: { status: 413, kind: 'request_too_large', openaiCode: 'request_too_large' },
  rate_limited: { status: 429, kind: 'rate_limit', openaiCode: 'rate_limit_exceeded' },
  concurrency_limited: { status: 429, kind: 'rate_limit', openaiCode: 'rate_limit_exceeded' },
  quota_exceeded: { status: 429, kind: 'rate_limit', openaiCode: 'insufficient_quota' },
  internal_error: { status: 500, kind: 'server_error', openaiCode: 'internal_error' },
  translation_unavailable: { status: 501, kind: 'not_implemented', openaiCode: 'not_implemented' },
  upstream_unreachable: { status: 502, kind: 'server_error', openaiCode: 'upstream_unreachable' },
  upstream_bad_response: { status: 502, kind: 'server_error', openaiCode: 'upstream_bad_response' },
  provider_not_configured: { status: 503, kind: 'unavailable', openaiCode: 'provider_not_configured' },
  shutting_down: { status: 503, kind: 'unavailable', openaiCode: 'shutting_down' },
  upstream_timeout: { status: 504, kind: 'timeout', openaiCode: 'upstream_timeout' },
} as const satisfies Record<string, CatalogueEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface GatewayErrorOptions {
  param?: string;
  /** Extra response headers (Retry-After, Allow). */
  headers?: Record<string, string>;
  cause?: unknown;
  /** Override the catalogue status (e.g. an upstream's own 5xx). */
  status?: number;
}

/** A failure the gateway reports to the client; structurally an IRError (status, kind, message, code, param). */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly kind: ErrorKind;
  readonly param: string | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: ErrorCode, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    const entry: CatalogueEntry = ERROR_CATALOGUE[code];
    this.name = 'GatewayError';
    this.code = code;
    this.status = options.status ?? entry.status;
    this.kind = entry.kind;
    this.param = options.param;
    this.headers = options.headers ?? {};
  }

  /** The protocol-neutral form used by the error renderer. */
  toIR(): { status: number; kind: ErrorKind; message: string; code?: string; param?: string } {
    const entry: CatalogueEntry = ERROR_CATALOGUE[this.code];
    return {
      status: this.status,
      kind: this.kind,
      message: this.message,
      ...(entry.openaiCode ? { code: entry.openaiCode } : {}),
      ...(this.param ? { param: this.param } : {}),
    };
  }
}

export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}
